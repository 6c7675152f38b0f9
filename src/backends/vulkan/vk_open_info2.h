// GPA 4's GpaVkContextOpenInfo2 and its GpaOpenContext flag, which the backend (compiled against the v3
// headers, which lack them) honours for v4 clients. The public definition is include/v4's gpu_perf_api_vk.h;
// tests/abi pins that one to GPA 4.3's layout, and the static_asserts below keep this one equal to it.
#ifndef OPENGPA_BACKENDS_VULKAN_VK_OPEN_INFO2_H_
#define OPENGPA_BACKENDS_VULKAN_VK_OPEN_INFO2_H_

#include <cstddef>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "gpu_performance_api/gpu_perf_api_vk.h"

namespace opengpa::vulkan {

// kGpaOpenContextVkUseInfoType2: GpaOpenContext's api_context is an OpenInfo2.
constexpr GpaOpenContextFlags kOpenContextUseInfoType2 = 0x10000000;

struct OpenInfo2 {
  VkInstance instance;
  VkPhysicalDevice physical_device;
  VkDevice device;
  PFN_vkGetInstanceProcAddr get_instance_proc_addr;
  PFN_vkGetDeviceProcAddr get_device_proc_addr;
};
static_assert(sizeof(OpenInfo2) == 40 && offsetof(OpenInfo2, get_device_proc_addr) == 32, "GPA 4.3's layout");
static_assert(offsetof(OpenInfo2, device) == offsetof(GpaVkContextOpenInfo, device), "the v3 handles come first");

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VK_OPEN_INFO2_H_
