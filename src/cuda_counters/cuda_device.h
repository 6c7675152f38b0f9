// What the CUDA counters know of a live device: its names (the driver's, and CUPTI's chip name that the host
// API and the catalogs are keyed by), its PCI ids, the sizes a GPA device description is made from, and the
// constants that catalog formulas name (SM_COUNT, ...). Used by the CUDA backend (GpaGetDeviceName and the
// others) and the per-launch profiler, so both describe a device, and evaluate formulas, the same way.
#ifndef OPENGPA_CUDA_COUNTERS_CUDA_DEVICE_H_
#define OPENGPA_CUDA_COUNTERS_CUDA_DEVICE_H_

#include <cuda.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "nvidia/cuda_driver.h"

namespace opengpa::cuda {

constexpr std::uint32_t kNvidiaVendorId = 0x10DE;

struct LiveDevice {
  CUdevice device = 0;
  std::string name;             // the driver's name with CUPTI's chip: "NVIDIA H100 80GB HBM3 (GH100)"
  std::string chip;             // CUPTI's chip name: "GH100"
  std::uint32_t device_id = 0;  // PCI ids from sysfs, 0 where not readable
  std::uint32_t revision_id = 0;
  std::uint32_t sms = 0;  // the device attributes a GPA device shape is made of (0: not given)
  std::uint32_t max_threads_per_sm = 0;
  std::uint32_t registers_per_sm = 0;
  std::uint32_t shared_bytes_per_sm = 0;
  std::vector<std::pair<std::string, double>> constants;  // SM_COUNT, ... for formulas
};

// The device of `context`, with CUPTI's chip name; fails (logged) for an invalid context.
[[nodiscard]] GpaStatus DescribeContextDevice(const nvidia::CudaDriver& driver, CUcontext context, LiveDevice* out);

}  // namespace opengpa::cuda

#endif  // OPENGPA_CUDA_COUNTERS_CUDA_DEVICE_H_
