// The layer's exported symbols: the loader negotiates the interface version, then finds every other entry point
// through vkGetInstanceProcAddr / vkGetDeviceProcAddr. Every function handed out runs behind Guarded: no exception
// (the standard library's allocations) reaches the program; the call answers VK_ERROR_OUT_OF_HOST_MEMORY, VK_FALSE
// or nothing, and says so on stderr.
#include <cstring>
#include <exception>
#include <type_traits>

#include "headless_layer.h"
#include "hooks.h"

namespace opengpa::headless {

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL LayerGetDeviceProcAddr(VkDevice device, const char* pName);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL LayerGetInstanceProcAddr(VkInstance instance, const char* pName);

namespace {

template <auto Function>
struct Guarded;

template <typename Result, typename... Args, Result(VKAPI_PTR* Function)(Args...)>
struct Guarded<Function> {
  static VKAPI_ATTR Result VKAPI_CALL Call(Args... args) noexcept {
    try {
      return Function(args...);
    } catch (const std::exception& error) {
      Log(std::string(__PRETTY_FUNCTION__) + ": " + error.what());
    } catch (...) {
      Log(std::string(__PRETTY_FUNCTION__) + ": unknown exception");
    }
    if constexpr (std::is_same_v<Result, VkResult>) {
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    } else if constexpr (!std::is_void_v<Result>) {
      return Result{};
    }
  }
};

struct NamedFunction {
  const char* name;
  PFN_vkVoidFunction function;
};

#define OPENGPA_HEADLESS_FUNCTION(name, implementation) \
  { name, reinterpret_cast<PFN_vkVoidFunction>(&Guarded<&(implementation)>::Call) }

const NamedFunction kDeviceFunctions[] = {
    OPENGPA_HEADLESS_FUNCTION("vkGetDeviceProcAddr", LayerGetDeviceProcAddr),
    OPENGPA_HEADLESS_FUNCTION("vkDestroyDevice", DestroyDevice),
    OPENGPA_HEADLESS_FUNCTION("vkGetDeviceQueue", GetDeviceQueue),
    OPENGPA_HEADLESS_FUNCTION("vkGetDeviceQueue2", GetDeviceQueue2),
    OPENGPA_HEADLESS_FUNCTION("vkCreateSwapchainKHR", CreateSwapchainKHR),
    OPENGPA_HEADLESS_FUNCTION("vkDestroySwapchainKHR", DestroySwapchainKHR),
    OPENGPA_HEADLESS_FUNCTION("vkGetSwapchainImagesKHR", GetSwapchainImagesKHR),
    OPENGPA_HEADLESS_FUNCTION("vkAcquireNextImageKHR", AcquireNextImageKHR),
    OPENGPA_HEADLESS_FUNCTION("vkAcquireNextImage2KHR", AcquireNextImage2KHR),
    OPENGPA_HEADLESS_FUNCTION("vkQueuePresentKHR", QueuePresentKHR),
};

const NamedFunction kInstanceFunctions[] = {
    OPENGPA_HEADLESS_FUNCTION("vkGetInstanceProcAddr", LayerGetInstanceProcAddr),
    OPENGPA_HEADLESS_FUNCTION("vkCreateInstance", CreateInstance),
    OPENGPA_HEADLESS_FUNCTION("vkDestroyInstance", DestroyInstance),
    OPENGPA_HEADLESS_FUNCTION("vkEnumerateDeviceExtensionProperties", EnumerateDeviceExtensionProperties),
    OPENGPA_HEADLESS_FUNCTION("vkCreateDevice", CreateDevice),
    OPENGPA_HEADLESS_FUNCTION("vkCreateXcbSurfaceKHR", CreateXcbSurfaceKHR),
    OPENGPA_HEADLESS_FUNCTION("vkCreateXlibSurfaceKHR", CreateXlibSurfaceKHR),
    OPENGPA_HEADLESS_FUNCTION("vkDestroySurfaceKHR", DestroySurfaceKHR),
    OPENGPA_HEADLESS_FUNCTION("vkGetPhysicalDeviceSurfaceSupportKHR", GetPhysicalDeviceSurfaceSupportKHR),
    OPENGPA_HEADLESS_FUNCTION("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", GetPhysicalDeviceSurfaceCapabilitiesKHR),
    OPENGPA_HEADLESS_FUNCTION("vkGetPhysicalDeviceSurfaceFormatsKHR", GetPhysicalDeviceSurfaceFormatsKHR),
    OPENGPA_HEADLESS_FUNCTION("vkGetPhysicalDeviceSurfacePresentModesKHR", GetPhysicalDeviceSurfacePresentModesKHR),
    OPENGPA_HEADLESS_FUNCTION("vkGetPhysicalDevicePresentRectanglesKHR", GetPhysicalDevicePresentRectanglesKHR),
    OPENGPA_HEADLESS_FUNCTION("vkGetPhysicalDeviceXcbPresentationSupportKHR",
                              GetPhysicalDeviceXcbPresentationSupportKHR),
    OPENGPA_HEADLESS_FUNCTION("vkGetPhysicalDeviceXlibPresentationSupportKHR",
                              GetPhysicalDeviceXlibPresentationSupportKHR),
};

template <std::size_t N>
PFN_vkVoidFunction Find(const NamedFunction (&table)[N], const char* name) {
  for (const NamedFunction& entry : table) {
    if (std::strcmp(entry.name, name) == 0) return entry.function;
  }
  return nullptr;
}

}  // namespace

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL LayerGetDeviceProcAddr(VkDevice device, const char* pName) {
  if (pName == nullptr) return nullptr;
  if (PFN_vkVoidFunction own = Find(kDeviceFunctions, pName)) return own;
  DeviceState* state = FindDevice(device);
  return state != nullptr ? state->GetDeviceProcAddr(device, pName) : nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL LayerGetInstanceProcAddr(VkInstance instance, const char* pName) {
  if (pName == nullptr) return nullptr;
  if (PFN_vkVoidFunction own = Find(kInstanceFunctions, pName)) return own;
  if (PFN_vkVoidFunction own = Find(kDeviceFunctions, pName)) return own;
  InstanceState* state = FindInstance(instance);
  return state != nullptr ? state->GetInstanceProcAddr(instance, pName) : nullptr;
}

}  // namespace opengpa::headless

using opengpa::headless::Guarded;
using opengpa::headless::LayerGetDeviceProcAddr;
using opengpa::headless::LayerGetInstanceProcAddr;

extern "C" {

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* pName) {
  return Guarded<&LayerGetDeviceProcAddr>::Call(device, pName);
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* pName) {
  return Guarded<&LayerGetInstanceProcAddr>::Call(instance, pName);
}

VK_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* pVersionStruct) {
  if (pVersionStruct == nullptr || pVersionStruct->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  if (pVersionStruct->loaderLayerInterfaceVersion > 2) pVersionStruct->loaderLayerInterfaceVersion = 2;
  pVersionStruct->pfnGetInstanceProcAddr = &Guarded<&LayerGetInstanceProcAddr>::Call;
  pVersionStruct->pfnGetDeviceProcAddr = &Guarded<&LayerGetDeviceProcAddr>::Call;
  pVersionStruct->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

}  // extern "C"
