// The layer's exported symbols: the loader negotiates the interface version, then finds every other entry
// point through vkGetInstanceProcAddr / vkGetDeviceProcAddr.
#include <vulkan/vk_layer.h>

#include <cstring>

#include "event_queries.h"
#include "gpa_commands.h"
#include "guarded_hook.h"
#include "hooks.h"
#include "layer_objects.h"
#include "platform/enum_argument.h"
#include "vk_gpa_interface_statistics.h"

// The loader is given the layer's own functions by address (never the exported names: inside this library
// those would bind to the loader's vkGetInstanceProcAddr, which the application's process loaded first).
namespace opengpa::vklayer {
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL LayerGetDeviceProcAddr(VkDevice device, const char* pName);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL LayerGetInstanceProcAddr(VkInstance instance, const char* pName);
namespace {

// The probe's function: never called for a result, its presence is the answer.
VKAPI_ATTR VkBool32 VKAPI_CALL LayerImplementsGpaInterface() { return VK_TRUE; }

struct NamedFunction {
  const char* name;
  PFN_vkVoidFunction function;
};

// Each behind GuardedHook: no exception reaches the application.
#define OPENGPA_LAYER_FUNCTION(name, implementation) \
  { name, reinterpret_cast<PFN_vkVoidFunction>(&GuardedHook<&(implementation)>::Call) }

// VK_AMD_gpa_interface: offered for a device only when the application enabled the extension.
const NamedFunction kGpaFunctions[] = {
    OPENGPA_LAYER_FUNCTION("vkCreateGpaSessionAMD", CreateGpaSessionAMD),
    OPENGPA_LAYER_FUNCTION("vkDestroyGpaSessionAMD", DestroyGpaSessionAMD),
    OPENGPA_LAYER_FUNCTION("vkCmdBeginGpaSessionAMD", CmdBeginGpaSessionAMD),
    OPENGPA_LAYER_FUNCTION("vkCmdEndGpaSessionAMD", CmdEndGpaSessionAMD),
    OPENGPA_LAYER_FUNCTION("vkCmdBeginGpaSampleAMD", CmdBeginGpaSampleAMD),
    OPENGPA_LAYER_FUNCTION("vkCmdEndGpaSampleAMD", CmdEndGpaSampleAMD),
    OPENGPA_LAYER_FUNCTION("vkGetGpaSessionStatusAMD", GetGpaSessionStatusAMD),
    OPENGPA_LAYER_FUNCTION("vkGetGpaSessionResultsAMD", GetGpaSessionResultsAMD),
    OPENGPA_LAYER_FUNCTION("vkResetGpaSessionAMD", ResetGpaSessionAMD),
    OPENGPA_LAYER_FUNCTION("vkCmdCopyGpaSessionResultsAMD", CmdCopyGpaSessionResultsAMD),
    OPENGPA_LAYER_FUNCTION("vkSetGpaDeviceClockModeAMD", SetGpaDeviceClockModeAMD),
    OPENGPA_LAYER_FUNCTION("vkGetGpaDeviceClockInfoAMD", GetGpaDeviceClockInfoAMD),
};

// The layer's own commands: what its blocks hold (vk_gpa_interface_sampler_counters.h).
const NamedFunction kLayerCommands[] = {
    OPENGPA_LAYER_FUNCTION(OPENGPA_GET_PERF_BLOCK_EVENTS_NAME, GetPerfBlockEventsOPENGPA),
    OPENGPA_LAYER_FUNCTION(OPENGPA_GET_PERF_COUNTER_PASS_COUNT_NAME, GetPerfCounterPassCountOPENGPA),
};

// Core device commands the layer watches.
const NamedFunction kDeviceHooks[] = {
    OPENGPA_LAYER_FUNCTION("vkGetDeviceProcAddr", LayerGetDeviceProcAddr),
    OPENGPA_LAYER_FUNCTION("vkDestroyDevice", DestroyDevice),
    OPENGPA_LAYER_FUNCTION("vkCreateCommandPool", CreateCommandPool),
    OPENGPA_LAYER_FUNCTION("vkDestroyCommandPool", DestroyCommandPool),
    OPENGPA_LAYER_FUNCTION("vkAllocateCommandBuffers", AllocateCommandBuffers),
    OPENGPA_LAYER_FUNCTION("vkFreeCommandBuffers", FreeCommandBuffers),
    OPENGPA_LAYER_FUNCTION("vkBeginCommandBuffer", BeginCommandBuffer),
    OPENGPA_LAYER_FUNCTION("vkEndCommandBuffer", EndCommandBuffer),
};

// Instance and physical-device commands the layer watches.
const NamedFunction kInstanceHooks[] = {
    OPENGPA_LAYER_FUNCTION("vkGetInstanceProcAddr", LayerGetInstanceProcAddr),
    OPENGPA_LAYER_FUNCTION("vkCreateInstance", CreateInstance),
    OPENGPA_LAYER_FUNCTION("vkDestroyInstance", DestroyInstance),
    OPENGPA_LAYER_FUNCTION("vkCreateDevice", CreateDevice),
    OPENGPA_LAYER_FUNCTION("vkEnumerateDeviceExtensionProperties", EnumerateDeviceExtensionProperties),
    OPENGPA_LAYER_FUNCTION("vkGetPhysicalDeviceFeatures2", GetPhysicalDeviceFeatures2),
    OPENGPA_LAYER_FUNCTION("vkGetPhysicalDeviceFeatures2KHR", GetPhysicalDeviceFeatures2),
    OPENGPA_LAYER_FUNCTION("vkGetPhysicalDeviceProperties2", GetPhysicalDeviceProperties2),
    OPENGPA_LAYER_FUNCTION("vkGetPhysicalDeviceProperties2KHR", GetPhysicalDeviceProperties2),
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
  DeviceData* data = FindDevice(device);
  if (PFN_vkVoidFunction gpa = Find(kGpaFunctions, pName)) {
    if (data != nullptr && data->pass_through) return data->GetDeviceProcAddr(device, pName);  // the driver's own
    return (data != nullptr && data->gpa_interface_enabled) ? gpa : nullptr;
  }
  // Where the layer implements VK_AMD_gpa_interface itself, a client may ask which mapping the counters follow
  // (vk_gpa_interface_statistics.h); a pass-through device, or one without the extension, answers nothing.
  if (std::strcmp(pName, OPENGPA_LAYER_GPA_INTERFACE_PROBE) == 0) {
    return (data != nullptr && data->gpa_interface_enabled && !data->pass_through)
               ? reinterpret_cast<PFN_vkVoidFunction>(&LayerImplementsGpaInterface)
               : nullptr;
  }
  if (PFN_vkVoidFunction command = Find(kLayerCommands, pName)) {
    return (data != nullptr && data->gpa_interface_enabled && !data->pass_through) ? command : nullptr;
  }
  if (PFN_vkVoidFunction hook = Find(kDeviceHooks, pName)) return hook;
  if (data == nullptr || data->GetDeviceProcAddr == nullptr) return nullptr;
  return data->GetDeviceProcAddr(device, pName);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL LayerGetInstanceProcAddr(VkInstance instance, const char* pName) {
  if (pName == nullptr) return nullptr;
  if (PFN_vkVoidFunction hook = Find(kInstanceHooks, pName)) return hook;
  if (PFN_vkVoidFunction hook = Find(kDeviceHooks, pName)) return hook;
  if (PFN_vkVoidFunction gpa = Find(kGpaFunctions, pName)) return gpa;  // checked per device when called
  InstanceData* data = FindInstance(instance);
  if (data == nullptr || data->GetInstanceProcAddr == nullptr) return nullptr;
  return data->GetInstanceProcAddr(instance, pName);
}

}  // namespace opengpa::vklayer

using namespace opengpa::vklayer;

extern "C" {

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* pName) {
  return GuardedHook<&LayerGetDeviceProcAddr>::Call(device, pName);
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* pName) {
  return GuardedHook<&LayerGetInstanceProcAddr>::Call(instance, pName);
}

VK_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* pVersionStruct) {
  if (pVersionStruct == nullptr || opengpa::EnumArgument(pVersionStruct->sType) != LAYER_NEGOTIATE_INTERFACE_STRUCT) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  if (pVersionStruct->loaderLayerInterfaceVersion > 2) pVersionStruct->loaderLayerInterfaceVersion = 2;
  pVersionStruct->pfnGetInstanceProcAddr = &GuardedHook<&LayerGetInstanceProcAddr>::Call;
  pVersionStruct->pfnGetDeviceProcAddr = &GuardedHook<&LayerGetDeviceProcAddr>::Call;
  pVersionStruct->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

}  // extern "C"
