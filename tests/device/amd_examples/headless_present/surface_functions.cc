// VK_KHR_surface and its XCB and Xlib surfaces, answered by the layer: any queue family may present (presenting is
// an empty submit on the program's queue), in FIFO mode (images come back in turn, as AMD's vk_color_cube assumes),
// to B8G8R8A8 images of the window's size.
#include <algorithm>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "headless_layer.h"
#include "hooks.h"
#include "window_extent.h"

namespace opengpa::headless {
namespace {

std::mutex surfaces_mutex;
std::unordered_set<Surface*>& Surfaces() {
  static auto* surfaces = new std::unordered_set<Surface*>();
  return *surfaces;
}

VkResult AddSurface(std::unique_ptr<Surface> surface, VkSurfaceKHR* out) {
  if (out == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  std::lock_guard<std::mutex> lock(surfaces_mutex);
  Surfaces().insert(surface.get());
  *out = ToHandle<VkSurfaceKHR>(surface.release());
  return VK_SUCCESS;
}

template <typename T>
VkResult CopyOut(const std::vector<T>& list, std::uint32_t* count, T* out) {
  if (count == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (out == nullptr) {
    *count = static_cast<std::uint32_t>(list.size());
    return VK_SUCCESS;
  }
  const std::uint32_t written = std::min<std::uint32_t>(*count, static_cast<std::uint32_t>(list.size()));
  std::copy_n(list.begin(), written, out);
  *count = written;
  return written < list.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

// A surface query's physical device and surface, both known to the layer; logs the one that is not.
bool KnownQuery(const char* command, VkPhysicalDevice physical_device, VkSurfaceKHR surface) {
  if (FindInstance(physical_device) == nullptr) {
    Log(std::string(command) + ": a physical device of an instance the layer did not see created");
    return false;
  }
  if (LiveSurface(surface) == nullptr) {
    Log(std::string(command) + ": a surface this layer did not create (or already destroyed)");
    return false;
  }
  return true;
}

}  // namespace

Surface* LiveSurface(VkSurfaceKHR handle) {
  auto* surface = FromHandle<Surface>(handle);
  std::lock_guard<std::mutex> lock(surfaces_mutex);
  return Surfaces().count(surface) != 0 ? surface : nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateXcbSurfaceKHR(VkInstance instance, const VkXcbSurfaceCreateInfoKHR* pCreateInfo,
                                                   const VkAllocationCallbacks*, VkSurfaceKHR* pSurface) {
  if (FindInstance(instance) == nullptr || pCreateInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  auto surface = std::make_unique<Surface>();
  surface->kind = Surface::Kind::kXcb;
  surface->connection = pCreateInfo->connection;
  surface->window = pCreateInfo->window;
  return AddSurface(std::move(surface), pSurface);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateXlibSurfaceKHR(VkInstance instance, const VkXlibSurfaceCreateInfoKHR* pCreateInfo,
                                                    const VkAllocationCallbacks*, VkSurfaceKHR* pSurface) {
  if (FindInstance(instance) == nullptr || pCreateInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  auto surface = std::make_unique<Surface>();
  surface->kind = Surface::Kind::kXlib;
  surface->connection = pCreateInfo->dpy;
  surface->window = static_cast<std::uint32_t>(pCreateInfo->window);
  return AddSurface(std::move(surface), pSurface);
}

VKAPI_ATTR void VKAPI_CALL DestroySurfaceKHR(VkInstance, VkSurfaceKHR surface, const VkAllocationCallbacks*) {
  if (surface == VK_NULL_HANDLE) return;
  std::unique_ptr<Surface> owned;
  {
    std::lock_guard<std::mutex> lock(surfaces_mutex);
    if (Surfaces().erase(FromHandle<Surface>(surface)) == 0) {
      Log("vkDestroySurfaceKHR: a surface this layer did not create (ignored)");
      return;
    }
    owned.reset(FromHandle<Surface>(surface));
  }
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceSupportKHR(VkPhysicalDevice physicalDevice,
                                                                  uint32_t queueFamilyIndex, VkSurfaceKHR surface,
                                                                  VkBool32* pSupported) {
  if (pSupported == nullptr || !KnownQuery("vkGetPhysicalDeviceSurfaceSupportKHR", physicalDevice, surface)) {
    return VK_ERROR_SURFACE_LOST_KHR;
  }
  InstanceState* instance = FindInstance(physicalDevice);
  std::uint32_t families = 0;
  instance->GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &families, nullptr);
  *pSupported = queueFamilyIndex < families ? VK_TRUE : VK_FALSE;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceCapabilitiesKHR(VkPhysicalDevice physicalDevice,
                                                                       VkSurfaceKHR surface,
                                                                       VkSurfaceCapabilitiesKHR* pCapabilities) {
  if (pCapabilities == nullptr || !KnownQuery("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", physicalDevice, surface)) {
    return VK_ERROR_SURFACE_LOST_KHR;
  }
  VkPhysicalDeviceProperties properties{};
  FindInstance(physicalDevice)->GetPhysicalDeviceProperties(physicalDevice, &properties);
  const std::uint32_t largest = properties.limits.maxImageDimension2D;
  VkSurfaceCapabilitiesKHR capabilities{};
  capabilities.minImageCount = kMinImages;
  capabilities.maxImageCount = kMaxImages;
  // 0xFFFFFFFF: "the swapchain's extent decides", where the window's size cannot be read.
  capabilities.currentExtent = WindowExtent(*LiveSurface(surface)).value_or(VkExtent2D{UINT32_MAX, UINT32_MAX});
  capabilities.minImageExtent = {1, 1};
  capabilities.maxImageExtent = {largest, largest};
  capabilities.maxImageArrayLayers = 1;
  capabilities.supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  capabilities.currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  capabilities.supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR | VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
  capabilities.supportedUsageFlags = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  *pCapabilities = capabilities;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfaceFormatsKHR(VkPhysicalDevice physicalDevice, VkSurfaceKHR surface,
                                                                  uint32_t* pCount, VkSurfaceFormatKHR* pFormats) {
  if (!KnownQuery("vkGetPhysicalDeviceSurfaceFormatsKHR", physicalDevice, surface)) return VK_ERROR_SURFACE_LOST_KHR;
  std::vector<VkSurfaceFormatKHR> formats;
  // Only formats the device can render to: the images are the program's render targets.
  for (VkFormat format : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB}) {
    VkFormatProperties properties{};
    FindInstance(physicalDevice)->GetPhysicalDeviceFormatProperties(physicalDevice, format, &properties);
    if ((properties.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT) != 0) {
      formats.push_back({format, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR});
    }
  }
  if (formats.empty()) Log("vkGetPhysicalDeviceSurfaceFormatsKHR: the device renders to no B8G8R8A8 format");
  return CopyOut(formats, pCount, pFormats);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceSurfacePresentModesKHR(VkPhysicalDevice physicalDevice,
                                                                       VkSurfaceKHR surface, uint32_t* pCount,
                                                                       VkPresentModeKHR* pModes) {
  if (!KnownQuery("vkGetPhysicalDeviceSurfacePresentModesKHR", physicalDevice, surface)) {
    return VK_ERROR_SURFACE_LOST_KHR;
  }
  return CopyOut(std::vector<VkPresentModeKHR>{VK_PRESENT_MODE_FIFO_KHR}, pCount, pModes);
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDevicePresentRectanglesKHR(VkPhysicalDevice physicalDevice,
                                                                     VkSurfaceKHR surface, uint32_t* pCount,
                                                                     VkRect2D* pRects) {
  if (!KnownQuery("vkGetPhysicalDevicePresentRectanglesKHR", physicalDevice, surface)) {
    return VK_ERROR_SURFACE_LOST_KHR;
  }
  const auto extent = WindowExtent(*LiveSurface(surface));
  std::vector<VkRect2D> rects;
  if (extent) rects.push_back({{0, 0}, *extent});
  return CopyOut(rects, pCount, pRects);
}

VKAPI_ATTR VkBool32 VKAPI_CALL GetPhysicalDeviceXcbPresentationSupportKHR(VkPhysicalDevice physicalDevice,
                                                                          uint32_t queueFamilyIndex, xcb_connection_t*,
                                                                          xcb_visualid_t) {
  InstanceState* instance = FindInstance(physicalDevice);
  if (instance == nullptr) return VK_FALSE;
  std::uint32_t families = 0;
  instance->GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &families, nullptr);
  return queueFamilyIndex < families ? VK_TRUE : VK_FALSE;
}

VKAPI_ATTR VkBool32 VKAPI_CALL GetPhysicalDeviceXlibPresentationSupportKHR(VkPhysicalDevice physicalDevice,
                                                                           uint32_t queueFamilyIndex, Display*,
                                                                           VisualID) {
  return GetPhysicalDeviceXcbPresentationSupportKHR(physicalDevice, queueFamilyIndex, nullptr, 0);
}

}  // namespace opengpa::headless
