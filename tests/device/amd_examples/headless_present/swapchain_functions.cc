// VK_KHR_swapchain over ordinary images. A swapchain is its images (the program's usage plus TRANSFER_SRC, so a
// frame can be read back) with device-local memory of their own. Acquire hands the images out in turn and signals
// the program's semaphore and fence with an empty submit; a semaphore signal waits for all work submitted before it
// on that queue, so an image comes back only after the work that presented it. Present waits the program's
// semaphores with an empty submit on the program's queue and counts the frame.
#include <algorithm>
#include <string>

#include "frame_dump.h"
#include "headless_layer.h"
#include "hooks.h"

namespace opengpa::headless {
namespace {

void DestroyImages(DeviceState& device, Swapchain& swapchain) {
  for (VkImage image : swapchain.images) device.DestroyImage(device.device, image, nullptr);
  for (VkDeviceMemory memory : swapchain.memory) device.FreeMemory(device.device, memory, nullptr);
  swapchain.images.clear();
  swapchain.memory.clear();
}

VkResult MakeImage(DeviceState& device, const VkSwapchainCreateInfoKHR& info, Swapchain& swapchain) {
  VkImageCreateInfo image_info{};
  image_info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  if ((info.flags & VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR) != 0) {
    image_info.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  }
  image_info.imageType = VK_IMAGE_TYPE_2D;
  image_info.format = info.imageFormat;
  image_info.extent = {info.imageExtent.width, info.imageExtent.height, 1};
  image_info.mipLevels = 1;
  image_info.arrayLayers = info.imageArrayLayers;
  image_info.samples = VK_SAMPLE_COUNT_1_BIT;
  image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
  image_info.usage = info.imageUsage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  image_info.sharingMode = info.imageSharingMode;
  image_info.queueFamilyIndexCount = info.queueFamilyIndexCount;
  image_info.pQueueFamilyIndices = info.pQueueFamilyIndices;
  image_info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImage image = VK_NULL_HANDLE;
  VkResult result = device.CreateImage(device.device, &image_info, nullptr, &image);
  if (result != VK_SUCCESS) return result;
  swapchain.images.push_back(image);

  VkMemoryRequirements requirements{};
  device.GetImageMemoryRequirements(device.device, image, &requirements);
  VkPhysicalDeviceMemoryProperties memory_properties{};
  device.instance->GetPhysicalDeviceMemoryProperties(device.physical_device, &memory_properties);
  std::uint32_t type =
      FindMemoryType(memory_properties, requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type == UINT32_MAX) type = FindMemoryType(memory_properties, requirements.memoryTypeBits, 0);
  if (type == UINT32_MAX) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  result = device.AllocateMemory(device.device, &allocate, nullptr, &memory);
  if (result != VK_SUCCESS) return result;
  swapchain.memory.push_back(memory);
  return device.BindImageMemory(device.device, image, memory, 0);
}

// Signals `semaphore` and `fence` (either may be null) once all work submitted to the layer's queue before is done.
VkResult SignalOnQueue(DeviceState& device, VkSemaphore semaphore, VkFence fence) {
  if (semaphore == VK_NULL_HANDLE && fence == VK_NULL_HANDLE) return VK_SUCCESS;
  if (device.queue == VK_NULL_HANDLE) {
    Log("vkAcquireNextImageKHR: the device has no queue the layer could take to signal the semaphore or fence");
    return VK_ERROR_DEVICE_LOST;
  }
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.signalSemaphoreCount = semaphore != VK_NULL_HANDLE ? 1 : 0;
  submit.pSignalSemaphores = &semaphore;
  std::lock_guard<std::mutex> lock(device.mutex);
  return device.QueueSubmit(device.queue, 1, &submit, fence);
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR* pCreateInfo,
                                                  const VkAllocationCallbacks*, VkSwapchainKHR* pSwapchain) {
  DeviceState* state = FindDevice(device);
  if (state == nullptr || pCreateInfo == nullptr || pSwapchain == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (LiveSurface(pCreateInfo->surface) == nullptr) {
    Log("vkCreateSwapchainKHR: a surface this layer did not create");
    return VK_ERROR_SURFACE_LOST_KHR;
  }
  if (pCreateInfo->imageExtent.width == 0 || pCreateInfo->imageExtent.height == 0 ||
      pCreateInfo->imageArrayLayers == 0) {
    Log("vkCreateSwapchainKHR: an empty image extent or no array layer");
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  auto swapchain = std::make_unique<Swapchain>();
  swapchain->device = device;
  swapchain->extent = pCreateInfo->imageExtent;
  swapchain->format = pCreateInfo->imageFormat;
  const std::uint32_t count = std::clamp(pCreateInfo->minImageCount, kMinImages, kMaxImages);
  for (std::uint32_t i = 0; i < count; ++i) {
    const VkResult result = MakeImage(*state, *pCreateInfo, *swapchain);
    if (result != VK_SUCCESS) {
      Log("vkCreateSwapchainKHR: image " + std::to_string(i) + " could not be made (VkResult " +
          std::to_string(result) + ")");
      DestroyImages(*state, *swapchain);
      return result;
    }
  }
  Log("swapchain of " + std::to_string(count) + " off-screen images, " + std::to_string(swapchain->extent.width) +
      " x " + std::to_string(swapchain->extent.height) + ", format " + std::to_string(swapchain->format));
  *pSwapchain = ToHandle<VkSwapchainKHR>(swapchain.release());
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                               const VkAllocationCallbacks*) {
  DeviceState* state = FindDevice(device);
  if (state == nullptr || swapchain == VK_NULL_HANDLE) return;
  std::unique_ptr<Swapchain> owned(FromHandle<Swapchain>(swapchain));
  Log("swapchain destroyed after " + std::to_string(owned->presented) + " presented frames");
  DestroyImages(*state, *owned);
}

VKAPI_ATTR VkResult VKAPI_CALL GetSwapchainImagesKHR(VkDevice, VkSwapchainKHR swapchain, uint32_t* pCount,
                                                     VkImage* pImages) {
  if (swapchain == VK_NULL_HANDLE || pCount == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const std::vector<VkImage>& images = FromHandle<Swapchain>(swapchain)->images;
  if (pImages == nullptr) {
    *pCount = static_cast<std::uint32_t>(images.size());
    return VK_SUCCESS;
  }
  const std::uint32_t written = std::min<std::uint32_t>(*pCount, static_cast<std::uint32_t>(images.size()));
  std::copy_n(images.begin(), written, pImages);
  *pCount = written;
  return written < images.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL AcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain, uint64_t,
                                                   VkSemaphore semaphore, VkFence fence, uint32_t* pImageIndex) {
  DeviceState* state = FindDevice(device);
  if (state == nullptr || swapchain == VK_NULL_HANDLE || pImageIndex == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  Swapchain* chain = FromHandle<Swapchain>(swapchain);
  const VkResult result = SignalOnQueue(*state, semaphore, fence);
  if (result != VK_SUCCESS) return result;
  std::lock_guard<std::mutex> lock(state->mutex);
  *pImageIndex = chain->next_image;
  chain->next_image = (chain->next_image + 1) % static_cast<std::uint32_t>(chain->images.size());
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL AcquireNextImage2KHR(VkDevice device, const VkAcquireNextImageInfoKHR* pAcquireInfo,
                                                    uint32_t* pImageIndex) {
  if (pAcquireInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  return AcquireNextImageKHR(device, pAcquireInfo->swapchain, pAcquireInfo->timeout, pAcquireInfo->semaphore,
                             pAcquireInfo->fence, pImageIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* pPresentInfo) {
  DeviceState* state = FindDevice(queue);
  if (state == nullptr || pPresentInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (pPresentInfo->waitSemaphoreCount > 0) {
    std::vector<VkPipelineStageFlags> stages(pPresentInfo->waitSemaphoreCount, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.waitSemaphoreCount = pPresentInfo->waitSemaphoreCount;
    submit.pWaitSemaphores = pPresentInfo->pWaitSemaphores;
    submit.pWaitDstStageMask = stages.data();
    std::lock_guard<std::mutex> lock(state->mutex);
    const VkResult result = state->QueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
    if (result != VK_SUCCESS) return result;
  }
  for (std::uint32_t i = 0; i < pPresentInfo->swapchainCount; ++i) {
    Swapchain* chain = FromHandle<Swapchain>(pPresentInfo->pSwapchains[i]);
    const std::uint32_t index = pPresentInfo->pImageIndices[i];
    VkResult result = VK_SUCCESS;
    std::uint64_t frame = 0;
    {
      std::lock_guard<std::mutex> lock(state->mutex);
      frame = chain->presented++;
    }
    if (index >= chain->images.size()) {
      Log("vkQueuePresentKHR: image index " + std::to_string(index) + " of a swapchain of " +
          std::to_string(chain->images.size()));
      result = VK_ERROR_OUT_OF_DATE_KHR;
    } else {
      DumpFrameIfAsked(*state, queue, *chain, index, frame);
    }
    if (pPresentInfo->pResults != nullptr) pPresentInfo->pResults[i] = result;
  }
  return VK_SUCCESS;
}

}  // namespace opengpa::headless
