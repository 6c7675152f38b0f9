// The GPUs a monitor source reads through NVML: their handles and identities (index, UUID, name), for the indices
// asked for or every GPU NVML reports. Shared by the NVML counter source and the GPM source.
#ifndef OPENGPA_MONITOR_NVML_DEVICES_H_
#define OPENGPA_MONITOR_NVML_DEVICES_H_

#include <vector>

#include "monitor/monitor_types.h"
#include "nvidia/nvml_library.h"

namespace opengpa::monitor {

struct NvmlDevice {
  DeviceIdentity identity;
  nvidia::nvml::Device handle = nullptr;
};

// `indices` empty: every GPU. kGpaStatusErrorHardwareNotSupported when NVML reports none,
// kGpaStatusErrorIndexOutOfRange for an index past the last, kGpaStatusErrorFailed when NVML refuses a handle;
// `who` starts each log message ("NVML source").
[[nodiscard]] GpaStatus OpenNvmlDevices(const nvidia::nvml::Library& library, const std::vector<uint32_t>& indices,
                                        const char* who, std::vector<NvmlDevice>* devices);

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_NVML_DEVICES_H_
