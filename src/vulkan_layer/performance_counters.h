// The VK_KHR_performance_query counters the layer publishes for a physical device, in event order
// (include/vulkan_layer/vk_gpa_interface_performance_counters.h has the rule), and where each is offered.
#ifndef OPENGPA_VULKAN_LAYER_PERFORMANCE_COUNTERS_H_
#define OPENGPA_VULKAN_LAYER_PERFORMANCE_COUNTERS_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layer_objects.h"
#include "vk_gpa_interface_performance_counters.h"

namespace opengpa::vklayer {

// The device's publishable counters (scope COMMAND), event e = element e; empty where the driver does not
// offer VK_KHR_performance_query with performanceCounterQueryPools, or the instance cannot enumerate them.
std::vector<PublishedPerformanceCounter> ReadPerformanceCounters(InstanceData& instance,
                                                                 VkPhysicalDevice physical_device);

// The block's VkPhysicalDeviceGpaPropertiesAMD entry for `count` counters: one instance; all may be asked for
// together (maxGlobalOnlyCounters = count), though a set the driver needs several passes for is refused when
// the sample begins.
VkGpaPerfBlockPropertiesAMD PerformanceCounterBlock(std::uint32_t count);

// A counter's result as the 64 bits a cumulative sample returns (signed and unsigned integers widened, floats
// as double bits).
std::uint64_t WidenedResult(VkPerformanceCounterStorageKHR storage, const VkPerformanceCounterResultKHR& result);

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_PERFORMANCE_COUNTERS_H_
