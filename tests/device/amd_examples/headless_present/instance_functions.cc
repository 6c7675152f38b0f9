// Instance and device creation: the layer records the next layer's entry points, takes one queue of its own (for
// acquire's signal), and keeps VK_KHR_swapchain from a driver that does not offer it.
//
// The instance's WSI extensions are passed on as the program asked: the loader gives each driver only the instance
// extensions that driver lists (terminator_CreateInstance), and accepts the program's list because this layer's
// manifest names them. A device's VK_KHR_swapchain is passed on where the driver offers it (the images' layout
// VK_IMAGE_LAYOUT_PRESENT_SRC_KHR belongs to that extension) and taken out where it does not.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "headless_layer.h"
#include "hooks.h"

namespace opengpa::headless {
namespace {

template <typename T>
T Resolve(PFN_vkGetInstanceProcAddr get, VkInstance instance, const char* name) {
  return reinterpret_cast<T>(get(instance, name));
}
template <typename T>
T ResolveDevice(PFN_vkGetDeviceProcAddr get, VkDevice device, const char* name) {
  return reinterpret_cast<T>(get(device, name));
}

// The loader's struct of `function` in a create info's pNext chain (VK_LAYER_LINK_INFO or VK_LOADER_DATA_CALLBACK).
template <typename Info, typename CreateInfo>
Info* FindLoaderInfo(const CreateInfo* info, VkStructureType type, VkLayerFunction function) {
  auto* node = static_cast<const VkBaseInStructure*>(info->pNext);
  for (; node != nullptr; node = node->pNext) {
    if (node->sType == type && reinterpret_cast<const Info*>(node)->function == function) {
      return const_cast<Info*>(reinterpret_cast<const Info*>(node));
    }
  }
  return nullptr;
}

bool Lists(const std::vector<VkExtensionProperties>& extensions, const char* name) {
  for (const VkExtensionProperties& extension : extensions) {
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  }
  return false;
}

std::vector<VkExtensionProperties> DriverExtensions(const InstanceState& instance, VkPhysicalDevice physical_device) {
  std::uint32_t count = 0;
  if (instance.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkExtensionProperties> extensions(count);
  if (instance.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, extensions.data()) != VK_SUCCESS) {
    return {};
  }
  extensions.resize(count);
  return extensions;
}

const VkExtensionProperties kSwapchainExtension = {VK_KHR_SWAPCHAIN_EXTENSION_NAME, VK_KHR_SWAPCHAIN_SPEC_VERSION};

VkResult CopyOut(const std::vector<VkExtensionProperties>& list, std::uint32_t* count, VkExtensionProperties* out) {
  if (out == nullptr) {
    *count = static_cast<std::uint32_t>(list.size());
    return VK_SUCCESS;
  }
  const std::uint32_t written = std::min<std::uint32_t>(*count, static_cast<std::uint32_t>(list.size()));
  for (std::uint32_t i = 0; i < written; ++i) out[i] = list[i];
  *count = written;
  return written < list.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* pCreateInfo,
                                              const VkAllocationCallbacks* pAllocator, VkInstance* pInstance) {
  auto* link = FindLoaderInfo<VkLayerInstanceCreateInfo>(pCreateInfo, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO,
                                                         VK_LAYER_LINK_INFO);
  if (link == nullptr || link->u.pLayerInfo == nullptr) {
    Log("vkCreateInstance: no loader link info (the layer must be loaded by the Vulkan loader)");
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  const PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer finds its own link
  const auto create = Resolve<PFN_vkCreateInstance>(next, VK_NULL_HANDLE, "vkCreateInstance");
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult result = create(pCreateInfo, pAllocator, pInstance);
  if (result != VK_SUCCESS) return result;

  InstanceState* state = AddInstance(*pInstance);
  const VkInstance instance = *pInstance;
  state->GetInstanceProcAddr = next;
  state->DestroyInstance = Resolve<PFN_vkDestroyInstance>(next, instance, "vkDestroyInstance");
  state->EnumerateDeviceExtensionProperties =
      Resolve<PFN_vkEnumerateDeviceExtensionProperties>(next, instance, "vkEnumerateDeviceExtensionProperties");
  state->GetPhysicalDeviceProperties =
      Resolve<PFN_vkGetPhysicalDeviceProperties>(next, instance, "vkGetPhysicalDeviceProperties");
  state->GetPhysicalDeviceFormatProperties =
      Resolve<PFN_vkGetPhysicalDeviceFormatProperties>(next, instance, "vkGetPhysicalDeviceFormatProperties");
  state->GetPhysicalDeviceQueueFamilyProperties =
      Resolve<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(next, instance, "vkGetPhysicalDeviceQueueFamilyProperties");
  state->GetPhysicalDeviceMemoryProperties =
      Resolve<PFN_vkGetPhysicalDeviceMemoryProperties>(next, instance, "vkGetPhysicalDeviceMemoryProperties");
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* pAllocator) {
  InstanceState* state = FindInstance(instance);
  if (state == nullptr) return;
  const PFN_vkDestroyInstance destroy = state->DestroyInstance;
  RemoveInstance(instance);
  if (destroy != nullptr) destroy(instance, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice,
                                                                  const char* pLayerName, uint32_t* pPropertyCount,
                                                                  VkExtensionProperties* pProperties) {
  if (pPropertyCount == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (pLayerName != nullptr && std::strcmp(pLayerName, kLayerName) == 0) {
    return CopyOut({kSwapchainExtension}, pPropertyCount, pProperties);
  }
  InstanceState* instance = FindInstance(physicalDevice);
  if (instance == nullptr || instance->EnumerateDeviceExtensionProperties == nullptr) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  if (pLayerName != nullptr) {
    return instance->EnumerateDeviceExtensionProperties(physicalDevice, pLayerName, pPropertyCount, pProperties);
  }
  std::vector<VkExtensionProperties> extensions = DriverExtensions(*instance, physicalDevice);
  if (!Lists(extensions, VK_KHR_SWAPCHAIN_EXTENSION_NAME)) extensions.push_back(kSwapchainExtension);
  return CopyOut(extensions, pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
  InstanceState* instance = FindInstance(physicalDevice);
  auto* link = FindLoaderInfo<VkLayerDeviceCreateInfo>(pCreateInfo, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO,
                                                       VK_LAYER_LINK_INFO);
  auto* callback = FindLoaderInfo<VkLayerDeviceCreateInfo>(pCreateInfo, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO,
                                                           VK_LOADER_DATA_CALLBACK);
  if (instance == nullptr || link == nullptr || link->u.pLayerInfo == nullptr || callback == nullptr) {
    Log("vkCreateDevice: no loader link info or instance (the layer must be loaded by the Vulkan loader)");
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  const PFN_vkGetInstanceProcAddr next_instance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr next_device = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const auto create = Resolve<PFN_vkCreateDevice>(next_instance, instance->instance, "vkCreateDevice");
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;

  const bool swapchain_below = Lists(DriverExtensions(*instance, physicalDevice), VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  std::vector<const char*> extensions;
  for (std::uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
    const char* name = pCreateInfo->ppEnabledExtensionNames[i];
    if (swapchain_below || std::strcmp(name, VK_KHR_SWAPCHAIN_EXTENSION_NAME) != 0) extensions.push_back(name);
  }
  VkDeviceCreateInfo info = *pCreateInfo;
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  const VkResult result = create(physicalDevice, &info, pAllocator, pDevice);
  if (result != VK_SUCCESS) return result;

  DeviceState* state = AddDevice(*pDevice);
  const VkDevice device = *pDevice;
  state->physical_device = physicalDevice;
  state->instance = instance;
  state->swapchain_below = swapchain_below;
  state->SetDeviceLoaderData = callback->u.pfnSetDeviceLoaderData;
  state->GetDeviceProcAddr = next_device;
#define OPENGPA_HEADLESS_RESOLVE(member) \
  state->member = ResolveDevice<PFN_vk##member>(next_device, device, "vk" #member)
  OPENGPA_HEADLESS_RESOLVE(DestroyDevice);
  OPENGPA_HEADLESS_RESOLVE(GetDeviceQueue);
  OPENGPA_HEADLESS_RESOLVE(GetDeviceQueue2);
  OPENGPA_HEADLESS_RESOLVE(QueueSubmit);
  OPENGPA_HEADLESS_RESOLVE(QueueWaitIdle);
  OPENGPA_HEADLESS_RESOLVE(CreateImage);
  OPENGPA_HEADLESS_RESOLVE(DestroyImage);
  OPENGPA_HEADLESS_RESOLVE(GetImageMemoryRequirements);
  OPENGPA_HEADLESS_RESOLVE(AllocateMemory);
  OPENGPA_HEADLESS_RESOLVE(FreeMemory);
  OPENGPA_HEADLESS_RESOLVE(BindImageMemory);
  OPENGPA_HEADLESS_RESOLVE(MapMemory);
  OPENGPA_HEADLESS_RESOLVE(UnmapMemory);
  OPENGPA_HEADLESS_RESOLVE(CreateBuffer);
  OPENGPA_HEADLESS_RESOLVE(DestroyBuffer);
  OPENGPA_HEADLESS_RESOLVE(GetBufferMemoryRequirements);
  OPENGPA_HEADLESS_RESOLVE(BindBufferMemory);
  OPENGPA_HEADLESS_RESOLVE(CreateCommandPool);
  OPENGPA_HEADLESS_RESOLVE(DestroyCommandPool);
  OPENGPA_HEADLESS_RESOLVE(AllocateCommandBuffers);
  OPENGPA_HEADLESS_RESOLVE(BeginCommandBuffer);
  OPENGPA_HEADLESS_RESOLVE(EndCommandBuffer);
  OPENGPA_HEADLESS_RESOLVE(CmdPipelineBarrier);
  OPENGPA_HEADLESS_RESOLVE(CmdCopyImageToBuffer);
#undef OPENGPA_HEADLESS_RESOLVE

  // Acquire has no queue of its own: it signals on queue 0 of the first family the program created (with no
  // flags, so vkGetDeviceQueue may fetch it). The queue is made known to the loader as a queue it handed out.
  for (std::uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo& queue_info = pCreateInfo->pQueueCreateInfos[i];
    if (queue_info.flags != 0 || queue_info.queueCount == 0) continue;
    state->GetDeviceQueue(device, queue_info.queueFamilyIndex, 0, &state->queue);
    if (state->queue != VK_NULL_HANDLE) {
      state->SetDeviceLoaderData(device, state->queue);
      state->queue_families[state->queue] = queue_info.queueFamilyIndex;
    }
    break;
  }
  if (state->queue == VK_NULL_HANDLE) Log("vkCreateDevice: no queue without flags: vkAcquireNextImageKHR will fail");
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* pAllocator) {
  DeviceState* state = FindDevice(device);
  if (state == nullptr) return;
  const PFN_vkDestroyDevice destroy = state->DestroyDevice;
  RemoveDevice(device);
  if (destroy != nullptr) destroy(device, pAllocator);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex, uint32_t queueIndex,
                                          VkQueue* pQueue) {
  DeviceState* state = FindDevice(device);
  if (state == nullptr || pQueue == nullptr) return;
  state->GetDeviceQueue(device, queueFamilyIndex, queueIndex, pQueue);
  std::lock_guard<std::mutex> lock(state->mutex);
  if (*pQueue != VK_NULL_HANDLE) state->queue_families[*pQueue] = queueFamilyIndex;
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* pQueueInfo, VkQueue* pQueue) {
  DeviceState* state = FindDevice(device);
  if (state == nullptr || state->GetDeviceQueue2 == nullptr || pQueueInfo == nullptr || pQueue == nullptr) return;
  state->GetDeviceQueue2(device, pQueueInfo, pQueue);
  std::lock_guard<std::mutex> lock(state->mutex);
  if (*pQueue != VK_NULL_HANDLE) state->queue_families[*pQueue] = pQueueInfo->queueFamilyIndex;
}

}  // namespace opengpa::headless
