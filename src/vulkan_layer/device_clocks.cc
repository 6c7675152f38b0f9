#include "device_clocks.h"

#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>

#include "layer_objects.h"
#include "nvidia/nvml_library.h"

namespace opengpa::vklayer {
namespace {

constexpr std::uint32_t kNvidiaVendorId = 0x10DE;

float Ratio(std::uint32_t current, std::uint32_t maximum) {
  return (current == 0 || maximum == 0) ? 0.0f : static_cast<float>(current) / static_cast<float>(maximum);
}

// NVML's UUID text ("GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx") of a Vulkan deviceUUID.
std::string NvmlUuid(const std::uint8_t (&uuid)[VK_UUID_SIZE]) {
  std::string text = "GPU-";
  char hex[3];
  for (unsigned i = 0; i < VK_UUID_SIZE; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    std::snprintf(hex, sizeof hex, "%02x", uuid[i]);
    text += hex;
  }
  return text;
}

nvidia::nvml::Library* Nvml() {
  static std::once_flag once;
  static std::unique_ptr<nvidia::nvml::Library> library;
  std::call_once(once, [] {
    if (nvidia::nvml::Library::Load(nvidia::nvml::DefaultLibraryCandidates(), &library) != kGpaStatusOk) {
      library.reset();
    }
  });
  return library.get();
}

DeviceClocks ReadNvidiaClocks(const DeviceData& device) {
  DeviceClocks clocks;
  nvidia::nvml::Library* nvml = Nvml();
  if (nvml == nullptr || !device.has_uuid) return clocks;
  const auto& api = nvml->Api();
  if (api.device_get_clock_info == nullptr) return clocks;
  const std::string wanted = NvmlUuid(device.uuid);
  unsigned int count = 0;
  if (api.device_get_count(&count) != nvidia::nvml::kSuccess) return clocks;
  for (unsigned int i = 0; i < count; ++i) {
    nvidia::nvml::Device handle = nullptr;
    char uuid[nvidia::nvml::kStringBufferSize] = {};
    if (api.device_get_handle_by_index(i, &handle) != nvidia::nvml::kSuccess ||
        api.device_get_uuid(handle, uuid, sizeof uuid) != nvidia::nvml::kSuccess || wanted != uuid) {
      continue;
    }
    unsigned int engine = 0, memory = 0, engine_max = 0, memory_max = 0;
    if (api.device_get_clock_info(handle, nvidia::nvml::kClockGraphics, &engine) != nvidia::nvml::kSuccess) engine = 0;
    if (api.device_get_clock_info(handle, nvidia::nvml::kClockMemory, &memory) != nvidia::nvml::kSuccess) memory = 0;
    if (api.device_get_max_clock_info != nullptr) {
      if (api.device_get_max_clock_info(handle, nvidia::nvml::kClockGraphics, &engine_max) != nvidia::nvml::kSuccess) {
        engine_max = 0;
      }
      if (api.device_get_max_clock_info(handle, nvidia::nvml::kClockMemory, &memory_max) != nvidia::nvml::kSuccess) {
        memory_max = 0;
      }
    }
    clocks.engine_mhz = engine;
    clocks.memory_mhz = memory;
    clocks.engine_ratio = Ratio(engine, engine_max);
    clocks.memory_ratio = Ratio(memory, memory_max);
    break;
  }
  return clocks;
}

std::uint32_t ReadKilohertzAsMegahertz(const char* path) {
  std::ifstream file(path);
  unsigned long long khz = 0;
  if (!(file >> khz)) return 0;
  return static_cast<std::uint32_t>(khz / 1000);
}

DeviceClocks ReadCpuClocks() {
  DeviceClocks clocks;
  clocks.engine_mhz = ReadKilohertzAsMegahertz("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq");
  const std::uint32_t maximum = ReadKilohertzAsMegahertz("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  if (clocks.engine_mhz == 0) {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
      if (line.rfind("cpu MHz", 0) != 0) continue;
      const auto colon = line.find(':');
      if (colon != std::string::npos) clocks.engine_mhz = static_cast<std::uint32_t>(std::stod(line.substr(colon + 1)));
      break;
    }
  }
  clocks.engine_ratio = Ratio(clocks.engine_mhz, maximum);
  return clocks;
}

}  // namespace

DeviceClocks ReadDeviceClocks(const DeviceData& device) {
  if (device.properties.vendorID == kNvidiaVendorId) return ReadNvidiaClocks(device);
  if (device.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) return ReadCpuClocks();
  return DeviceClocks{};
}

}  // namespace opengpa::vklayer
