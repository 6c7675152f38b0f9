// A test-only Vulkan layer that plays a driver offering VK_AMD_gpa_interface itself (as AMD's does), placed
// under VK_LAYER_OPENGPA_gpa_interface so that the pass-through can be tested on lavapipe. It lists the two AMD
// extensions, takes them out of vkCreateDevice before lavapipe sees them, answers the physical-device structs
// with marker values, and implements three of the extension's commands with answers OpenGPA's layer never
// gives (kFakeSessionHandle, kFakeStatus): a test that gets them knows its calls reached this "driver".
// Everything else goes straight down the chain.
#include <vulkan/vk_layer.h>

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "fake_gpa_driver_markers.h"
#include "vk_amd_gpa_interface.h"

namespace {

// The next layer's (or the driver's) instance commands, resolved while vkCreateInstance runs: resolved later,
// the loader would answer with the top of the chain.
struct NextInstance {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2 = nullptr;
  PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2 = nullptr;
};

std::mutex g_mutex;
std::unordered_map<void*, NextInstance> g_next_instance;  // by dispatch key
std::unordered_map<void*, PFN_vkGetDeviceProcAddr> g_next_device;

void* Key(const void* handle) { return *static_cast<void* const*>(handle); }

NextInstance Next(const void* handle) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_next_instance[Key(handle)];
}

const VkExtensionProperties kAmdExtensions[] = {
    {VK_AMD_GPA_INTERFACE_EXTENSION_NAME, VK_AMD_GPA_INTERFACE_SPEC_VERSION},
    {VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME, VK_AMD_SHADER_CORE_PROPERTIES_SPEC_VERSION},
};

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                              VkInstance* instance) {
  auto* link = static_cast<VkLayerInstanceCreateInfo*>(const_cast<void*>(info->pNext));
  while (link != nullptr &&
         !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO)) {
    link = static_cast<VkLayerInstanceCreateInfo*>(const_cast<void*>(link->pNext));
  }
  if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
  const VkResult result = create(info, allocator, instance);
  if (result != VK_SUCCESS) return result;
  NextInstance below;
  below.instance = *instance;
  below.GetInstanceProcAddr = next;
  below.EnumerateDeviceExtensionProperties = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(
      next(*instance, "vkEnumerateDeviceExtensionProperties"));
  below.GetPhysicalDeviceFeatures2 =
      reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(next(*instance, "vkGetPhysicalDeviceFeatures2"));
  below.GetPhysicalDeviceProperties2 =
      reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(next(*instance, "vkGetPhysicalDeviceProperties2"));
  std::lock_guard<std::mutex> lock(g_mutex);
  g_next_instance[Key(*instance)] = below;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physical_device, const char* layer,
                                                                  uint32_t* count, VkExtensionProperties* properties) {
  const auto next = Next(physical_device).EnumerateDeviceExtensionProperties;
  if (layer != nullptr) return next(physical_device, layer, count, properties);
  std::uint32_t below = 0;
  next(physical_device, nullptr, &below, nullptr);
  std::vector<VkExtensionProperties> all(below);
  next(physical_device, nullptr, &below, all.data());
  all.resize(below);
  all.insert(all.end(), std::begin(kAmdExtensions), std::end(kAmdExtensions));
  if (properties == nullptr) {
    *count = static_cast<std::uint32_t>(all.size());
    return VK_SUCCESS;
  }
  const std::uint32_t written = std::min<std::uint32_t>(*count, static_cast<std::uint32_t>(all.size()));
  std::memcpy(properties, all.data(), written * sizeof(VkExtensionProperties));
  *count = written;
  return written < all.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice physical_device,
                                                      VkPhysicalDeviceFeatures2* features) {
  Next(physical_device).GetPhysicalDeviceFeatures2(physical_device, features);
  for (auto* node = reinterpret_cast<VkBaseOutStructure*>(features); node != nullptr; node = node->pNext) {
    if (node->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD) {
      reinterpret_cast<VkPhysicalDeviceGpaFeaturesAMD*>(node)->sqThreadTracing = kFakeSqThreadTracing;
    }
  }
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice physical_device,
                                                        VkPhysicalDeviceProperties2* properties) {
  Next(physical_device).GetPhysicalDeviceProperties2(physical_device, properties);
  for (auto* node = reinterpret_cast<VkBaseOutStructure*>(properties); node != nullptr; node = node->pNext) {
    if (node->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD) {
      auto* gpa = reinterpret_cast<VkPhysicalDeviceGpaPropertiesAMD*>(node);
      gpa->shaderEngineCount = kFakeShaderEngineCount;
      if (gpa->pPerfBlocks == nullptr) gpa->perfBlockCount = 0;
    }
    if (node->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD) {
      reinterpret_cast<VkPhysicalDeviceShaderCorePropertiesAMD*>(node)->shaderEngineCount = kFakeShaderEngineCount;
    }
  }
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical_device, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* device) {
  auto* link = static_cast<VkLayerDeviceCreateInfo*>(const_cast<void*>(info->pNext));
  while (link != nullptr &&
         !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO)) {
    link = static_cast<VkLayerDeviceCreateInfo*>(const_cast<void*>(link->pNext));
  }
  if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_instance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr next_device = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const auto create =
      reinterpret_cast<PFN_vkCreateDevice>(next_instance(Next(physical_device).instance, "vkCreateDevice"));
  // lavapipe does not know the AMD extensions this "driver" offers.
  std::vector<const char*> extensions;
  for (std::uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
    const char* name = info->ppEnabledExtensionNames[i];
    if (std::strcmp(name, VK_AMD_GPA_INTERFACE_EXTENSION_NAME) != 0 &&
        std::strcmp(name, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME) != 0) {
      extensions.push_back(name);
    }
  }
  VkDeviceCreateInfo below = *info;
  below.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  below.ppEnabledExtensionNames = extensions.data();
  const VkResult result = create(physical_device, &below, allocator, device);
  if (result != VK_SUCCESS) return result;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_next_device[Key(*device)] = next_device;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateGpaSessionAMD(VkDevice, const VkGpaSessionCreateInfoAMD*,
                                                   const VkAllocationCallbacks*, VkGpaSessionAMD* session) {
  *session = reinterpret_cast<VkGpaSessionAMD>(kFakeSessionHandle);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyGpaSessionAMD(VkDevice, VkGpaSessionAMD, const VkAllocationCallbacks*) {}

VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionStatusAMD(VkDevice, VkGpaSessionAMD) { return kFakeStatus; }

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
#define FAKE_HOOK(vk_name, function) \
  if (std::strcmp(name, vk_name) == 0) return reinterpret_cast<PFN_vkVoidFunction>(&function)
  FAKE_HOOK("vkGetInstanceProcAddr", GetInstanceProcAddr);
  FAKE_HOOK("vkCreateInstance", CreateInstance);
  FAKE_HOOK("vkCreateDevice", CreateDevice);
  FAKE_HOOK("vkEnumerateDeviceExtensionProperties", EnumerateDeviceExtensionProperties);
  FAKE_HOOK("vkGetPhysicalDeviceFeatures2", GetPhysicalDeviceFeatures2);
  FAKE_HOOK("vkGetPhysicalDeviceFeatures2KHR", GetPhysicalDeviceFeatures2);
  FAKE_HOOK("vkGetPhysicalDeviceProperties2", GetPhysicalDeviceProperties2);
  FAKE_HOOK("vkGetPhysicalDeviceProperties2KHR", GetPhysicalDeviceProperties2);
  FAKE_HOOK("vkGetDeviceProcAddr", GetDeviceProcAddr);
  const NextInstance below = Next(instance);
  return below.GetInstanceProcAddr != nullptr ? below.GetInstanceProcAddr(instance, name) : nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  FAKE_HOOK("vkGetDeviceProcAddr", GetDeviceProcAddr);
  FAKE_HOOK("vkCreateGpaSessionAMD", CreateGpaSessionAMD);
  FAKE_HOOK("vkDestroyGpaSessionAMD", DestroyGpaSessionAMD);
  FAKE_HOOK("vkGetGpaSessionStatusAMD", GetGpaSessionStatusAMD);
#undef FAKE_HOOK
  PFN_vkGetDeviceProcAddr next = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    next = g_next_device[Key(device)];
  }
  return next != nullptr ? next(device, name) : nullptr;
}

}  // namespace

extern "C" {

VK_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

}  // extern "C"
