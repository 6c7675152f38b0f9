#include "backends/vulkan/vulkan_functions.h"

#include <memory>
#include <string>

#include "platform/dynamic_library.h"
#include "platform/logging.h"
#include "vk_gpa_interface_statistics.h"

namespace opengpa::vulkan {
namespace {

template <typename Function>
Function InstanceFunction(PFN_vkGetInstanceProcAddr get, VkInstance instance, const char* name) {
  return reinterpret_cast<Function>(get(instance, name));
}

template <typename Function>
Function DeviceFunction(PFN_vkGetDeviceProcAddr get, VkDevice device, const char* name) {
  return reinterpret_cast<Function>(get(device, name));
}

}  // namespace

GpaStatus LoadVulkanLoader(PFN_vkGetInstanceProcAddr* out) {
  // Prefer the loader the application already uses, so both sides share one dispatch chain. The library is
  // deliberately never unloaded: entry points must stay valid for the life of the process.
  std::unique_ptr<DynamicLibrary> library =
      DynamicLibrary::OpenIfLoaded("libvulkan.so.1", DynamicLibrary::Unload::kNever);
  std::string error;
  if (library == nullptr) {
    library = DynamicLibrary::Open({"libvulkan.so.1", "libvulkan.so"}, &error, DynamicLibrary::Unload::kNever);
  }
  if (library == nullptr) {
    return LogError(kGpaStatusErrorLibLoadFailed, "Vulkan loader libvulkan.so.1 could not be loaded: {}", error);
  }
  if (!library->Resolve("vkGetInstanceProcAddr", out)) {
    return LogError(kGpaStatusErrorLibLoadFailed, "libvulkan.so.1 exports no vkGetInstanceProcAddr");
  }
  return kGpaStatusOk;
}

GpaStatus LoadInstanceFunctions(PFN_vkGetInstanceProcAddr get, VkInstance instance, InstanceFunctions* out) {
  InstanceFunctions& f = *out;
  f.GetDeviceProcAddr = InstanceFunction<PFN_vkGetDeviceProcAddr>(get, instance, "vkGetDeviceProcAddr");
  f.EnumeratePhysicalDevices =
      InstanceFunction<PFN_vkEnumeratePhysicalDevices>(get, instance, "vkEnumeratePhysicalDevices");
  f.GetPhysicalDeviceProperties =
      InstanceFunction<PFN_vkGetPhysicalDeviceProperties>(get, instance, "vkGetPhysicalDeviceProperties");
  f.GetPhysicalDeviceFeatures =
      InstanceFunction<PFN_vkGetPhysicalDeviceFeatures>(get, instance, "vkGetPhysicalDeviceFeatures");
  f.GetPhysicalDeviceQueueFamilyProperties = InstanceFunction<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
      get, instance, "vkGetPhysicalDeviceQueueFamilyProperties");
  f.GetPhysicalDeviceProperties2 =
      InstanceFunction<PFN_vkGetPhysicalDeviceProperties2>(get, instance, "vkGetPhysicalDeviceProperties2");
  if (f.GetPhysicalDeviceProperties2 == nullptr) {
    f.GetPhysicalDeviceProperties2 =
        InstanceFunction<PFN_vkGetPhysicalDeviceProperties2>(get, instance, "vkGetPhysicalDeviceProperties2KHR");
  }
  f.GetPhysicalDeviceFeatures2 =
      InstanceFunction<PFN_vkGetPhysicalDeviceFeatures2>(get, instance, "vkGetPhysicalDeviceFeatures2");
  if (f.GetPhysicalDeviceFeatures2 == nullptr) {
    f.GetPhysicalDeviceFeatures2 =
        InstanceFunction<PFN_vkGetPhysicalDeviceFeatures2>(get, instance, "vkGetPhysicalDeviceFeatures2KHR");
  }
  f.GetPhysicalDeviceCalibrateableTimeDomainsEXT = InstanceFunction<PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT>(
      get, instance, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT");
  f.EnumerateDeviceExtensionProperties =
      InstanceFunction<PFN_vkEnumerateDeviceExtensionProperties>(get, instance, "vkEnumerateDeviceExtensionProperties");

  const char* missing = nullptr;
  if (f.GetDeviceProcAddr == nullptr) {
    missing = "vkGetDeviceProcAddr";
  } else if (f.EnumeratePhysicalDevices == nullptr) {
    missing = "vkEnumeratePhysicalDevices";
  } else if (f.GetPhysicalDeviceProperties == nullptr) {
    missing = "vkGetPhysicalDeviceProperties";
  } else if (f.GetPhysicalDeviceFeatures == nullptr) {
    missing = "vkGetPhysicalDeviceFeatures";
  } else if (f.GetPhysicalDeviceQueueFamilyProperties == nullptr) {
    missing = "vkGetPhysicalDeviceQueueFamilyProperties";
  }
  if (missing != nullptr) {
    return LogError(kGpaStatusErrorDriverNotSupported,
                    "GpaVkContextOpenInfo::instance {}: the Vulkan loader resolves no {} for it",
                    static_cast<const void*>(instance), missing);
  }
  return kGpaStatusOk;
}

GpaStatus LoadDeviceFunctions(const InstanceFunctions& instance_functions, VkDevice device, DeviceFunctions* out) {
  PFN_vkGetDeviceProcAddr get = instance_functions.GetDeviceProcAddr;
  DeviceFunctions& f = *out;
  f.CreateQueryPool = DeviceFunction<PFN_vkCreateQueryPool>(get, device, "vkCreateQueryPool");
  f.DestroyQueryPool = DeviceFunction<PFN_vkDestroyQueryPool>(get, device, "vkDestroyQueryPool");
  f.GetQueryPoolResults = DeviceFunction<PFN_vkGetQueryPoolResults>(get, device, "vkGetQueryPoolResults");
  f.CmdWriteTimestamp = DeviceFunction<PFN_vkCmdWriteTimestamp>(get, device, "vkCmdWriteTimestamp");
  f.CmdBeginQuery = DeviceFunction<PFN_vkCmdBeginQuery>(get, device, "vkCmdBeginQuery");
  f.CmdEndQuery = DeviceFunction<PFN_vkCmdEndQuery>(get, device, "vkCmdEndQuery");
  // The loader returns null for entry points of a core version or extension the device was not created with,
  // which is the one way to tell whether the application enabled host query reset at all.
  f.ResetQueryPool = DeviceFunction<PFN_vkResetQueryPool>(get, device, "vkResetQueryPool");
  if (f.ResetQueryPool == nullptr) {
    f.ResetQueryPool = DeviceFunction<PFN_vkResetQueryPool>(get, device, "vkResetQueryPoolEXT");
  }
  f.GetCalibratedTimestampsEXT =
      DeviceFunction<PFN_vkGetCalibratedTimestampsEXT>(get, device, "vkGetCalibratedTimestampsEXT");

  const char* missing = nullptr;
  if (f.CreateQueryPool == nullptr) {
    missing = "vkCreateQueryPool";
  } else if (f.DestroyQueryPool == nullptr) {
    missing = "vkDestroyQueryPool";
  } else if (f.GetQueryPoolResults == nullptr) {
    missing = "vkGetQueryPoolResults";
  } else if (f.CmdWriteTimestamp == nullptr) {
    missing = "vkCmdWriteTimestamp";
  } else if (f.CmdBeginQuery == nullptr) {
    missing = "vkCmdBeginQuery";
  } else if (f.CmdEndQuery == nullptr) {
    missing = "vkCmdEndQuery";
  }
  if (missing != nullptr) {
    return LogError(kGpaStatusErrorDriverNotSupported, "GpaVkContextOpenInfo::device {}: no {} resolves for it",
                    static_cast<const void*>(device), missing);
  }
  if (f.ResetQueryPool == nullptr) {
    return LogError(kGpaStatusErrorDriverNotSupported,
                    "GpaVkContextOpenInfo::device {}: neither vkResetQueryPool nor vkResetQueryPoolEXT resolves; "
                    "create the device with Vulkan 1.2 or VK_EXT_host_query_reset and enable the hostQueryReset "
                    "feature (gpu_perf_api_vk.h)",
                    static_cast<const void*>(device));
  }
  return kGpaStatusOk;
}

bool LoadGpaInterfaceFunctions(const InstanceFunctions& instance_functions, VkPhysicalDevice physical_device,
                               VkDevice device, GpaInterfaceFunctions* out) {
  *out = GpaInterfaceFunctions{};
  // Asked by the layer's name, the loader answers only when that layer is active on the instance.
  std::uint32_t count = 0;
  if (instance_functions.EnumerateDeviceExtensionProperties == nullptr ||
      instance_functions.EnumerateDeviceExtensionProperties(physical_device, "VK_LAYER_OPENGPA_gpa_interface", &count,
                                                            nullptr) != VK_SUCCESS ||
      count == 0) {
    return false;
  }
  PFN_vkGetDeviceProcAddr get = instance_functions.GetDeviceProcAddr;
  // The layer active is not enough: over a driver that offers the extension itself (AMD's) the layer passes it
  // through, and the counters are that driver's hardware counters, whose tables OpenGPA does not have.
  if (get == nullptr || get(device, OPENGPA_LAYER_GPA_INTERFACE_PROBE) == nullptr) return false;
  GpaInterfaceFunctions f;
  f.CreateGpaSession = DeviceFunction<PFN_vkCreateGpaSessionAMD>(get, device, "vkCreateGpaSessionAMD");
  f.DestroyGpaSession = DeviceFunction<PFN_vkDestroyGpaSessionAMD>(get, device, "vkDestroyGpaSessionAMD");
  f.CmdBeginGpaSession = DeviceFunction<PFN_vkCmdBeginGpaSessionAMD>(get, device, "vkCmdBeginGpaSessionAMD");
  f.CmdEndGpaSession = DeviceFunction<PFN_vkCmdEndGpaSessionAMD>(get, device, "vkCmdEndGpaSessionAMD");
  f.CmdBeginGpaSample = DeviceFunction<PFN_vkCmdBeginGpaSampleAMD>(get, device, "vkCmdBeginGpaSampleAMD");
  f.CmdEndGpaSample = DeviceFunction<PFN_vkCmdEndGpaSampleAMD>(get, device, "vkCmdEndGpaSampleAMD");
  f.GetGpaSessionStatus = DeviceFunction<PFN_vkGetGpaSessionStatusAMD>(get, device, "vkGetGpaSessionStatusAMD");
  f.GetGpaSessionResults = DeviceFunction<PFN_vkGetGpaSessionResultsAMD>(get, device, "vkGetGpaSessionResultsAMD");
  const bool all = f.CreateGpaSession && f.DestroyGpaSession && f.CmdBeginGpaSession && f.CmdEndGpaSession &&
                   f.CmdBeginGpaSample && f.CmdEndGpaSample && f.GetGpaSessionStatus && f.GetGpaSessionResults;
  *out = all ? f : GpaInterfaceFunctions{};
  return all;
}

}  // namespace opengpa::vulkan
