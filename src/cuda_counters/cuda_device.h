// What GpaGetDeviceName / GpaGetDeviceAndRevisionId / GpaGetDeviceGeneration report for a CUDA
// context: the driver's device name with CUPTI's chip name, and the PCI ids read from sysfs.
#ifndef OPENGPA_BACKENDS_CUDA_CUDA_DEVICE_H_
#define OPENGPA_BACKENDS_CUDA_CUDA_DEVICE_H_

#include <cuda.h>

#include <string>
#include <utility>
#include <vector>

#include "core/backend.h"
#include "nvidia/cuda_driver.h"

namespace opengpa::cuda {

constexpr GpaUInt32 kNvidiaVendorId = 0x10DE;

struct LiveDevice {
  CUdevice device = 0;
  DeviceInfo info;
  std::vector<std::pair<std::string, double>> constants;  // SM_COUNT, ... for formulas
};

// The device of `context`, with CUPTI's chip name; fails (logged) for an invalid context.
GpaStatus DescribeContextDevice(const nvidia::CudaDriver& driver, CUcontext context, LiveDevice* out);

// An offline chip: name "NVIDIA <chip> (offline)".
DeviceInfo OfflineDevice(const std::string& chip);

}  // namespace opengpa::cuda

#endif  // OPENGPA_BACKENDS_CUDA_CUDA_DEVICE_H_
