// What GPA reports about a Vulkan physical device: its name, ids and hardware generation, and the
// timestamp facts (valid bits, period) the timing counters are computed with.
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_DEVICE_DESCRIPTION_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_DEVICE_DESCRIPTION_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "backends/vulkan/vulkan_functions.h"
#include "core/backend.h"

namespace opengpa::vulkan {

// CPU implementations (lavapipe, SwiftShader) and Mesa's software vendor id are kGpaHwGenerationSoftware;
// NVIDIA and Intel by vendor id. AMD generations cannot be told from the Vulkan device id alone without a
// product table, so AMD reports kGpaHwGenerationNone rather than a guess.
GpaHwGeneration GenerationOf(const VkPhysicalDeviceProperties& properties);

DeviceInfo DescribeDevice(const VkPhysicalDeviceProperties& properties, std::string_view driver_name);

struct TimestampCapabilities {
  std::uint32_t valid_bits = 0;  // smallest non-zero timestampValidBits of the graphics/compute families
  double period_ns = 1.0;        // nanoseconds per timestamp tick
  std::uint64_t mask() const { return valid_bits >= 64 ? ~0ull : (1ull << valid_bits) - 1; }
};

// Timestamps are usable when some queue family that can run samples (graphics or compute) has valid bits.
// Taking the smallest width over those families keeps differences right whichever family a command buffer
// comes from.
TimestampCapabilities TimestampsOf(const VkPhysicalDeviceProperties& properties,
                                   const std::vector<VkQueueFamilyProperties>& families);

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_DEVICE_DESCRIPTION_H_
