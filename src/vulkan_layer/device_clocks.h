// The clocks vkGetGpaDeviceClockInfoAMD and the QUERY clock mode report, read from what the device's
// own tools report; the layer never changes a clock.
//   NVIDIA devices: NVML (libnvidia-ml.so.1), matched to the Vulkan device by its UUID: current and
//                   maximum graphics and memory clocks.
//   CPU devices (lavapipe): the host CPU's clock (Linux cpufreq, else /proc/cpuinfo) as the engine clock;
//                   the memory clock is unknown.
// A value that cannot be read is 0 (frequency) and 0.0 (ratio): unknown, never made up.
#ifndef OPENGPA_VULKAN_LAYER_DEVICE_CLOCKS_H_
#define OPENGPA_VULKAN_LAYER_DEVICE_CLOCKS_H_

#include <cstdint>

namespace opengpa::vklayer {

struct DeviceData;

struct DeviceClocks {
  std::uint32_t engine_mhz = 0;
  std::uint32_t memory_mhz = 0;
  float engine_ratio = 0.0f;  // current / maximum
  float memory_ratio = 0.0f;
};

DeviceClocks ReadDeviceClocks(const DeviceData& device);

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_DEVICE_CLOCKS_H_
