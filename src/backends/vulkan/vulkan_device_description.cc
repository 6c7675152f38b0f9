#include "backends/vulkan/vulkan_device_description.h"

#include <algorithm>

namespace opengpa::vulkan {
namespace {
constexpr std::uint32_t kVendorNvidia = 0x10DE;
constexpr std::uint32_t kVendorIntel = 0x8086;
constexpr std::uint32_t kVendorMesa = 0x10005;  // VK_VENDOR_ID_MESA: Mesa's software drivers
}  // namespace

GpaHwGeneration GenerationOf(const VkPhysicalDeviceProperties& properties) {
  if (properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU || properties.vendorID == kVendorMesa) {
    return kGpaHwGenerationSoftware;
  }
  switch (properties.vendorID) {
    case kVendorNvidia: return kGpaHwGenerationNvidia;
    case kVendorIntel: return kGpaHwGenerationIntel;
    default: return kGpaHwGenerationNone;
  }
}

DeviceInfo DescribeDevice(const VkPhysicalDeviceProperties& properties, std::string_view driver_name) {
  DeviceInfo info;
  info.name = properties.deviceName;
  info.chip = std::string(driver_name);
  info.vendor_id = properties.vendorID;
  info.device_id = properties.deviceID;
  info.revision_id = 0;  // Vulkan does not expose the PCI revision
  info.generation = GenerationOf(properties);
  return info;
}

TimestampCapabilities TimestampsOf(const VkPhysicalDeviceProperties& properties,
                                   const std::vector<VkQueueFamilyProperties>& families) {
  TimestampCapabilities capabilities;
  capabilities.period_ns = properties.limits.timestampPeriod;
  for (const VkQueueFamilyProperties& family : families) {
    if ((family.queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) == 0) continue;
    if (family.timestampValidBits == 0) continue;
    capabilities.valid_bits = capabilities.valid_bits == 0
                                  ? family.timestampValidBits
                                  : std::min(capabilities.valid_bits, family.timestampValidBits);
  }
  if (capabilities.period_ns <= 0) capabilities.valid_bits = 0;  // a device that cannot say how long a tick is
  return capabilities;
}

}  // namespace opengpa::vulkan
