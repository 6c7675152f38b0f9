// What GpaGetDeviceName / GpaGetDeviceAndRevisionId / GpaGetDeviceGeneration / GpaGetDeviceMaxWaveSlots and
// the others report for a CUDA context: the device the CUDA counters described (cuda_counters/cuda_device.h),
// in GPA's terms.
#ifndef OPENGPA_BACKENDS_CUDA_CUDA_DEVICE_INFO_H_
#define OPENGPA_BACKENDS_CUDA_CUDA_DEVICE_INFO_H_

#include <string>

#include "core/backend.h"
#include "cuda_counters/cuda_device.h"

namespace opengpa::cuda {

// A live device: an SM is GPA's compute unit, its four sub-partitions GPA's SIMDs.
DeviceInfo DeviceInfoOf(const LiveDevice& device);

// An offline chip: name "NVIDIA <chip> (offline)".
DeviceInfo OfflineDevice(const std::string& chip);

}  // namespace opengpa::cuda

#endif  // OPENGPA_BACKENDS_CUDA_CUDA_DEVICE_INFO_H_
