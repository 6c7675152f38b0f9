// Which physical devices have the GPU periodic sampler's block
// (include/vulkan_layer/vk_gpa_interface_sampler_counters.h): the GraphicsCounterSource (src/nvidia) of the physical
// device's GPU, found by the PCI address Vulkan reports, so the block is known before any VkDevice exists
// (vkGetPhysicalDeviceProperties2 lists it).
#ifndef OPENGPA_VULKAN_LAYER_PHYSICAL_SAMPLER_H_
#define OPENGPA_VULKAN_LAYER_PHYSICAL_SAMPLER_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>

#include "layer_objects.h"
#include "nvidia/graphics_counter_source.h"

namespace opengpa::vklayer {

// The sampler behind one physical device: its source, or why there is none.
struct PhysicalSampler {
  std::unique_ptr<nvidia::GraphicsCounterSource> source;
  std::string why;
  std::uint32_t EventCount() const { return source ? static_cast<std::uint32_t>(source->Metrics().size()) : 0; }
};

// Found once per physical device of an instance (listing a chip's metrics takes about a second, once per process)
// and kept while the instance lives; where there is none, the reason is logged once per process for each GPU.
const PhysicalSampler& PhysicalSamplerOf(InstanceData& instance, VkPhysicalDevice physical_device);
// Drops the instance's samplers (vkDestroyInstance: its devices, which use them, are gone).
void ForgetPhysicalSamplers(VkInstance instance);

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_PHYSICAL_SAMPLER_H_
