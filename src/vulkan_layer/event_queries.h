// The layer's own device commands that say what its counter blocks hold (include/vulkan_layer/
// vk_gpa_interface_sampler_counters.h): every event of a block by name, and how many GPU periodic sampler passes a
// counter set needs. Resolved through vkGetDeviceProcAddr only on a device where the layer implements
// VK_AMD_gpa_interface.
#ifndef OPENGPA_VULKAN_LAYER_EVENT_QUERIES_H_
#define OPENGPA_VULKAN_LAYER_EVENT_QUERIES_H_

#include "vk_gpa_interface_sampler_counters.h"

namespace opengpa::vklayer {

VKAPI_ATTR VkResult VKAPI_CALL GetPerfBlockEventsOPENGPA(VkDevice device, VkGpaPerfBlockAMD blockType,
                                                         uint32_t* pEventCount, OpenGpaPerfEventInfo* pEvents);
VKAPI_ATTR VkResult VKAPI_CALL GetPerfCounterPassCountOPENGPA(VkDevice device, uint32_t counterCount,
                                                              const VkGpaPerfCounterAMD* pCounters,
                                                              uint32_t* pPassCount);

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_EVENT_QUERIES_H_
