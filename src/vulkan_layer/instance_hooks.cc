#include <vulkan/vk_layer.h>

#include <cstring>
#include <string>
#include <vector>

#include "hooks.h"
#include "layer_objects.h"
#include "performance_counters.h"
#include "physical_device_properties.h"
#include "physical_sampler.h"
#include "platform/enum_argument.h"

namespace opengpa::vklayer {
namespace {

// The extensions the layer adds to every device below it.
const VkExtensionProperties kLayerExtensions[] = {
    {VK_AMD_GPA_INTERFACE_EXTENSION_NAME, VK_AMD_GPA_INTERFACE_SPEC_VERSION},
    {VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME, VK_AMD_SHADER_CORE_PROPERTIES_SPEC_VERSION},
};

VkLayerInstanceCreateInfo* FindLinkInfo(const VkInstanceCreateInfo* info) {
  auto* chain = static_cast<VkLayerInstanceCreateInfo*>(const_cast<void*>(info->pNext));
  while (chain != nullptr && !(EnumArgument(chain->sType) == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO &&
                               EnumArgument(chain->function) == VK_LAYER_LINK_INFO)) {
    chain = static_cast<VkLayerInstanceCreateInfo*>(const_cast<void*>(chain->pNext));
  }
  return chain;
}

template <typename T>
T Resolve(PFN_vkGetInstanceProcAddr get, VkInstance instance, const char* name) {
  return reinterpret_cast<T>(get(instance, name));
}

// Takes the structs of `types` out of a pNext chain (so the driver below never sees a struct it may not
// know) and puts them back where they were when destroyed.
class ChainUnlink {
 public:
  ChainUnlink(void* head, const std::vector<VkStructureType>& types) {
    auto* previous = static_cast<VkBaseOutStructure*>(head);
    while (previous->pNext != nullptr) {
      VkBaseOutStructure* node = previous->pNext;
      bool ours = false;
      // The application's sType, read as an int (any value may come from C).
      for (VkStructureType type : types) ours = ours || EnumArgument(node->sType) == type;
      if (ours) {
        removed_.push_back({previous, node});
        previous->pNext = node->pNext;
      } else {
        previous = node;
      }
    }
  }
  ~ChainUnlink() {
    for (auto it = removed_.rbegin(); it != removed_.rend(); ++it) {
      it->node->pNext = it->previous->pNext;
      it->previous->pNext = it->node;
    }
  }
  // The removed struct of `type`, or nullptr.
  template <typename T>
  T* Find(VkStructureType type) const {
    for (const Removed& removed : removed_) {
      if (EnumArgument(removed.node->sType) == type) return reinterpret_cast<T*>(removed.node);
    }
    return nullptr;
  }

 private:
  struct Removed {
    VkBaseOutStructure* previous;
    VkBaseOutStructure* node;
  };
  std::vector<Removed> removed_;
};

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* pCreateInfo,
                                              const VkAllocationCallbacks* pAllocator, VkInstance* pInstance) {
  VkLayerInstanceCreateInfo* link = FindLinkInfo(pCreateInfo);
  if (link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_get = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer finds its own link
  const auto create = Resolve<PFN_vkCreateInstance>(next_get, VK_NULL_HANDLE, "vkCreateInstance");
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult result = create(pCreateInfo, pAllocator, pInstance);
  if (result != VK_SUCCESS) return result;

  InstanceData* data = AddInstance(*pInstance);
  const VkInstance instance = *pInstance;
  data->GetInstanceProcAddr = next_get;
  data->DestroyInstance = Resolve<PFN_vkDestroyInstance>(next_get, instance, "vkDestroyInstance");
  data->EnumerateDeviceExtensionProperties =
      Resolve<PFN_vkEnumerateDeviceExtensionProperties>(next_get, instance, "vkEnumerateDeviceExtensionProperties");
  data->GetPhysicalDeviceProperties =
      Resolve<PFN_vkGetPhysicalDeviceProperties>(next_get, instance, "vkGetPhysicalDeviceProperties");
  data->GetPhysicalDeviceFeatures =
      Resolve<PFN_vkGetPhysicalDeviceFeatures>(next_get, instance, "vkGetPhysicalDeviceFeatures");
  data->GetPhysicalDeviceQueueFamilyProperties = Resolve<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
      next_get, instance, "vkGetPhysicalDeviceQueueFamilyProperties");
  data->GetPhysicalDeviceMemoryProperties =
      Resolve<PFN_vkGetPhysicalDeviceMemoryProperties>(next_get, instance, "vkGetPhysicalDeviceMemoryProperties");
  data->EnumerateQueueFamilyPerformanceQueryCounters =
      Resolve<PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR>(
          next_get, instance, "vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR");
  data->GetQueueFamilyPerformanceQueryPasses = Resolve<PFN_vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR>(
      next_get, instance, "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR");
  // Core in Vulkan 1.1, else VK_KHR_get_physical_device_properties2 (AMD_GPA_REQUIRED_INSTANCE_EXTENSION_NAME_LIST).
  const std::uint32_t api = pCreateInfo->pApplicationInfo != nullptr ? pCreateInfo->pApplicationInfo->apiVersion : 0;
  if (api >= VK_API_VERSION_1_1) {
    data->GetPhysicalDeviceFeatures2 =
        Resolve<PFN_vkGetPhysicalDeviceFeatures2>(next_get, instance, "vkGetPhysicalDeviceFeatures2");
    data->GetPhysicalDeviceProperties2 =
        Resolve<PFN_vkGetPhysicalDeviceProperties2>(next_get, instance, "vkGetPhysicalDeviceProperties2");
  }
  if (data->GetPhysicalDeviceFeatures2 == nullptr) {
    data->GetPhysicalDeviceFeatures2 =
        Resolve<PFN_vkGetPhysicalDeviceFeatures2>(next_get, instance, "vkGetPhysicalDeviceFeatures2KHR");
  }
  if (data->GetPhysicalDeviceProperties2 == nullptr) {
    data->GetPhysicalDeviceProperties2 =
        Resolve<PFN_vkGetPhysicalDeviceProperties2>(next_get, instance, "vkGetPhysicalDeviceProperties2KHR");
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* pAllocator) {
  InstanceData* data = FindInstance(instance);
  if (data == nullptr) return;
  const PFN_vkDestroyInstance destroy = data->DestroyInstance;
  ForgetPhysicalSamplers(instance);
  RemoveInstance(instance);
  if (destroy != nullptr) destroy(instance, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice,
                                                                  const char* pLayerName, uint32_t* pPropertyCount,
                                                                  VkExtensionProperties* pProperties) {
  constexpr std::uint32_t kOurs = sizeof(kLayerExtensions) / sizeof(kLayerExtensions[0]);
  if (pPropertyCount == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (pLayerName != nullptr && std::strcmp(pLayerName, kLayerName) == 0) {
    if (pProperties == nullptr) {
      *pPropertyCount = kOurs;
      return VK_SUCCESS;
    }
    const std::uint32_t written = std::min(*pPropertyCount, kOurs);
    std::memcpy(pProperties, kLayerExtensions, written * sizeof(VkExtensionProperties));
    *pPropertyCount = written;
    return written < kOurs ? VK_INCOMPLETE : VK_SUCCESS;
  }
  InstanceData* data = FindInstance(physicalDevice);
  if (data == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (pLayerName != nullptr) {
    return data->EnumerateDeviceExtensionProperties(physicalDevice, pLayerName, pPropertyCount, pProperties);
  }
  // The driver's extensions, then ours that it does not list itself.
  std::uint32_t count = 0;
  VkResult result = data->EnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, nullptr);
  if (result != VK_SUCCESS) return result;
  std::vector<VkExtensionProperties> all(count);
  result = data->EnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, all.data());
  if (result < 0) return result;
  all.resize(count);
  for (const VkExtensionProperties& ours : kLayerExtensions) {
    bool listed = false;
    for (const VkExtensionProperties& theirs : all) {
      listed = listed || std::strcmp(theirs.extensionName, ours.extensionName) == 0;
    }
    if (!listed) all.push_back(ours);
  }
  const auto total = static_cast<std::uint32_t>(all.size());
  if (pProperties == nullptr) {
    *pPropertyCount = total;
    return VK_SUCCESS;
  }
  const std::uint32_t written = std::min(*pPropertyCount, total);
  std::memcpy(pProperties, all.data(), written * sizeof(VkExtensionProperties));
  *pPropertyCount = written;
  return written < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                      VkPhysicalDeviceFeatures2* pFeatures) {
  InstanceData* data = FindInstance(physicalDevice);
  if (data == nullptr || pFeatures == nullptr) return;
  if (DriverOffersExtension(*data, physicalDevice, VK_AMD_GPA_INTERFACE_EXTENSION_NAME)) {
    NextFeatures2(*data, physicalDevice, pFeatures);  // passed through: the driver fills its own struct
    return;
  }
  ChainUnlink ours(pFeatures, {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD});
  NextFeatures2(*data, physicalDevice, pFeatures);
  if (auto* gpa = ours.Find<VkPhysicalDeviceGpaFeaturesAMD>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD)) {
    FillGpaFeatures(gpa, pFeatures->features.pipelineStatisticsQuery == VK_TRUE,
                    !ReadPerformanceCounters(*data, physicalDevice).empty() ||
                        PhysicalSamplerOf(*data, physicalDevice).EventCount() > 0);
  }
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                                        VkPhysicalDeviceProperties2* pProperties) {
  InstanceData* data = FindInstance(physicalDevice);
  if (data == nullptr || pProperties == nullptr) return;
  // What the driver offers itself, it fills (passed through); the layer fills the rest.
  std::vector<VkStructureType> layer_filled;
  if (!DriverOffersExtension(*data, physicalDevice, VK_AMD_GPA_INTERFACE_EXTENSION_NAME)) {
    layer_filled.push_back(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD);
    layer_filled.push_back(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD);
  }
  if (!DriverOffersExtension(*data, physicalDevice, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
    layer_filled.push_back(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD);
  }
  ChainUnlink ours(pProperties, layer_filled);
  NextProperties2(*data, physicalDevice, pProperties);
  if (auto* gpa = ours.Find<VkPhysicalDeviceGpaPropertiesAMD>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD)) {
    FillGpaProperties(gpa, static_cast<std::uint32_t>(ReadPerformanceCounters(*data, physicalDevice).size()),
                      PhysicalSamplerOf(*data, physicalDevice).EventCount());
  }
  if (auto* gpa2 =
          ours.Find<VkPhysicalDeviceGpaProperties2AMD>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD)) {
    FillGpaProperties2(gpa2);
  }
  if (auto* core = ours.Find<VkPhysicalDeviceShaderCorePropertiesAMD>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD)) {
    FillShaderCoreProperties(*data, physicalDevice, core);
  }
}

}  // namespace opengpa::vklayer
