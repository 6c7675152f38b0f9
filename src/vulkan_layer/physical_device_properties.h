// What the layer adds to the physical-device queries: VK_AMD_gpa_interface's features and properties, and
// VK_AMD_shader_core_properties filled from what the device really reports (docs/vulkan-layer.md lists
// where each value comes from, and which are unknown: 0).
#ifndef OPENGPA_VULKAN_LAYER_PHYSICAL_DEVICE_PROPERTIES_H_
#define OPENGPA_VULKAN_LAYER_PHYSICAL_DEVICE_PROPERTIES_H_

#include <vulkan/vulkan.h>

#include <string>

#include "layer_objects.h"
#include "vk_amd_gpa_interface.h"

namespace opengpa::vklayer {

// Whether the driver below the layer lists the device extension `name`.
bool DriverOffersExtension(InstanceData& instance, VkPhysicalDevice physical_device, const std::string& name);

// perfCounters: cumulative samples have something to count (pipeline statistics, performance counters, or the
// GPU periodic sampler's).
void FillGpaFeatures(VkPhysicalDeviceGpaFeaturesAMD* features, bool pipeline_statistics_query,
                     bool performance_counters);
// Two-call idiom on pPerfBlocks: NULL reports perfBlockCount; else fills up to perfBlockCount blocks and sets
// perfBlockCount to the number written. The pipeline-statistics blocks, then, where the device has
// VK_KHR_performance_query counters to publish, their block, then, where it has NVIDIA's GPU periodic sampler,
// its block.
void FillGpaProperties(VkPhysicalDeviceGpaPropertiesAMD* properties, std::uint32_t performance_counter_count,
                       std::uint32_t sampler_event_count);
void FillGpaProperties2(VkPhysicalDeviceGpaProperties2AMD* properties);
void FillShaderCoreProperties(InstanceData& instance, VkPhysicalDevice physical_device,
                              VkPhysicalDeviceShaderCorePropertiesAMD* properties);

// vkGetPhysicalDeviceFeatures2 / vkGetPhysicalDeviceProperties2 below the layer, whichever of the core and
// KHR names the instance resolves (nullptr-safe: does nothing when neither does).
void NextFeatures2(InstanceData& instance, VkPhysicalDevice physical_device, VkPhysicalDeviceFeatures2* features);
void NextProperties2(InstanceData& instance, VkPhysicalDevice physical_device, VkPhysicalDeviceProperties2* properties);

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_PHYSICAL_DEVICE_PROPERTIES_H_
