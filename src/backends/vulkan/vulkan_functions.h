// The Vulkan entry points the backend calls, resolved from the application's own instance and device.
//
// libGPUPerfAPIVK.so does not link the Vulkan loader: it finds the loader the application already has
// loaded (or loads libvulkan.so.1) and asks it for vkGetInstanceProcAddr, then resolves everything else
// through the application's handles, so calls go down the same layer chain as the application's own.
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_FUNCTIONS_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_FUNCTIONS_H_

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

#include "vk_amd_gpa_interface.h"

#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa::vulkan {

struct InstanceFunctions {
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
  PFN_vkEnumeratePhysicalDevices EnumeratePhysicalDevices = nullptr;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties = nullptr;
  PFN_vkGetPhysicalDeviceFeatures GetPhysicalDeviceFeatures = nullptr;
  PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties = nullptr;
  // Vulkan 1.1 or VK_KHR_get_physical_device_properties2; null when neither is enabled.
  PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2 = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2 = nullptr;
  // VK_EXT_calibrated_timestamps; null when the instance cannot offer it.
  PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT GetPhysicalDeviceCalibrateableTimeDomainsEXT = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties = nullptr;
};

struct DeviceFunctions {
  PFN_vkCreateQueryPool CreateQueryPool = nullptr;
  PFN_vkDestroyQueryPool DestroyQueryPool = nullptr;
  PFN_vkResetQueryPool ResetQueryPool = nullptr;  // core 1.2 or the EXT alias
  PFN_vkGetQueryPoolResults GetQueryPoolResults = nullptr;
  PFN_vkCmdWriteTimestamp CmdWriteTimestamp = nullptr;
  PFN_vkCmdBeginQuery CmdBeginQuery = nullptr;
  PFN_vkCmdEndQuery CmdEndQuery = nullptr;
  // VK_EXT_calibrated_timestamps when the application enabled it; null otherwise.
  PFN_vkGetCalibratedTimestampsEXT GetCalibratedTimestampsEXT = nullptr;
};

// VK_AMD_gpa_interface, when the application created its device with it (AMD's driver, or OpenGPA's layer
// VK_LAYER_OPENGPA_gpa_interface on any driver): the loader resolves its commands for that device only then.
struct GpaInterfaceFunctions {
  PFN_vkCreateGpaSessionAMD CreateGpaSession = nullptr;
  PFN_vkDestroyGpaSessionAMD DestroyGpaSession = nullptr;
  PFN_vkCmdBeginGpaSessionAMD CmdBeginGpaSession = nullptr;
  PFN_vkCmdEndGpaSessionAMD CmdEndGpaSession = nullptr;
  PFN_vkCmdBeginGpaSampleAMD CmdBeginGpaSample = nullptr;
  PFN_vkCmdEndGpaSampleAMD CmdEndGpaSample = nullptr;
  PFN_vkGetGpaSessionStatusAMD GetGpaSessionStatus = nullptr;
  PFN_vkGetGpaSessionResultsAMD GetGpaSessionResults = nullptr;
};

// Whether VK_AMD_gpa_interface can carry OpenGPA's counters on `device`: every command of
// GpaInterfaceFunctions resolves for it, and the extension comes from OpenGPA's layer, whose counters are the
// pipeline statistics (vk_gpa_interface_statistics.h). AMD's own driver publishes AMD hardware counters, whose
// tables OpenGPA does not have: there the core queries are used.
bool LoadGpaInterfaceFunctions(const InstanceFunctions& instance_functions, VkPhysicalDevice physical_device,
                               VkDevice device, GpaInterfaceFunctions* out);

// vkGetInstanceProcAddr of the process's Vulkan loader; kGpaStatusErrorLibLoadFailed (logged) if there is none.
GpaStatus LoadVulkanLoader(PFN_vkGetInstanceProcAddr* out);

// Resolves the instance-level functions; kGpaStatusErrorDriverNotSupported (logged) if a required one is missing.
GpaStatus LoadInstanceFunctions(PFN_vkGetInstanceProcAddr get_instance_proc_addr, VkInstance instance,
                                InstanceFunctions* out);

// Resolves the device-level functions; kGpaStatusErrorDriverNotSupported (logged) naming what is missing,
// e.g. host query reset when the application enabled neither Vulkan 1.2 nor VK_EXT_host_query_reset.
GpaStatus LoadDeviceFunctions(const InstanceFunctions& instance_functions, VkDevice device, DeviceFunctions* out);

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_FUNCTIONS_H_
