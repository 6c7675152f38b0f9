#include "monitor/nvml_devices.h"

#include <algorithm>

#include "platform/logging.h"

namespace opengpa::monitor {

using nvidia::nvml::Functions;

GpaStatus OpenNvmlDevices(const nvidia::nvml::Library& library, const std::vector<uint32_t>& indices, const char* who,
                          std::vector<NvmlDevice>* devices) {
  const Functions& api = library.Api();
  devices->clear();
  unsigned int device_count = 0;
  if (nvidia::nvml::Return status = api.device_get_count(&device_count); status != nvidia::nvml::kSuccess) {
    return LogError(kGpaStatusErrorFailed, "{}: nvmlDeviceGetCount_v2 failed: {}", who, library.Describe(status));
  }
  std::vector<uint32_t> wanted = indices;
  if (wanted.empty()) {
    for (unsigned int i = 0; i < device_count; ++i) wanted.push_back(i);
  }
  if (wanted.empty()) {
    return LogError(kGpaStatusErrorHardwareNotSupported, "{}: NVML reports no GPU in {}", who, library.Path());
  }
  for (uint32_t index : wanted) {
    if (index >= device_count) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "{}: device index {} >= the {} GPU(s) NVML reports", who, index,
                      device_count);
    }
    NvmlDevice device;
    device.identity.index = index;
    if (nvidia::nvml::Return status = api.device_get_handle_by_index(index, &device.handle);
        status != nvidia::nvml::kSuccess) {
      return LogError(kGpaStatusErrorFailed, "{}: nvmlDeviceGetHandleByIndex_v2({}) failed: {}", who, index,
                      library.Describe(status));
    }
    char text[nvidia::nvml::kStringBufferSize] = {};
    if (api.device_get_name(device.handle, text, sizeof(text)) == nvidia::nvml::kSuccess) device.identity.name = text;
    std::fill(std::begin(text), std::end(text), '\0');
    if (api.device_get_uuid(device.handle, text, sizeof(text)) == nvidia::nvml::kSuccess) device.identity.uuid = text;
    devices->push_back(std::move(device));
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::monitor
