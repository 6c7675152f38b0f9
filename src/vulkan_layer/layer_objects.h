// What the layer knows about each instance and device it sits on: the next layer's entry points, and for a
// device the few facts the GPA sessions need (timestamp period, which command buffers can count graphics).
//
// Dispatchable handles (instance, physical device, device, queue, command buffer) start with the loader's
// dispatch-table pointer, shared by an instance and its physical devices, and by a device and its queues
// and command buffers; the layer finds its data by that pointer ("dispatch key").
#ifndef OPENGPA_VULKAN_LAYER_LAYER_OBJECTS_H_
#define OPENGPA_VULKAN_LAYER_LAYER_OBJECTS_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "vk_amd_gpa_interface.h"

namespace opengpa::vklayer {

class DeviceSampler;
class GpaSession;

struct PublishedPerformanceCounter {
  VkPerformanceCounterKHR counter{};
  std::string name;
  // Per queue family: the counter's index in that family's list, or -1 where the family lacks it.
  std::vector<std::int32_t> index_in_family;
};

inline void* DispatchKey(const void* handle) { return *static_cast<void* const*>(handle); }

struct InstanceData {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
  PFN_vkDestroyInstance DestroyInstance = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties = nullptr;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties = nullptr;
  PFN_vkGetPhysicalDeviceFeatures GetPhysicalDeviceFeatures = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2 = nullptr;
  PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2 = nullptr;
  PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties = nullptr;
  PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties = nullptr;
  // VK_KHR_performance_query (nullptr where the instance does not resolve them).
  PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR EnumerateQueueFamilyPerformanceQueryCounters =
      nullptr;
  PFN_vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR GetQueueFamilyPerformanceQueryPasses = nullptr;
};

// What a command buffer may record, from the queue family of its pool.
struct CommandBufferInfo {
  VkCommandPool pool = VK_NULL_HANDLE;
  VkQueueFlags queue_flags = 0;
  std::uint32_t queue_family = 0;
  bool secondary = false;
  // The VK_KHR_performance_query pool this recording uses (without performanceCounterMultipleQueryPools a
  // command buffer may use only one).
  VkQueryPool performance_pool = VK_NULL_HANDLE;
  GpaSession* open_session = nullptr;  // begun in this command buffer and not yet ended (VUID ...-12410)
  // Sessions with cumulative samples begun here and not yet ended: the layer ends their queries when the
  // recording ends, since a query left active would make the command buffer invalid.
  std::unordered_set<GpaSession*> sessions_with_open_samples;
};

struct DeviceData {
  VkDevice device = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  InstanceData* instance = nullptr;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  std::vector<VkQueueFamilyProperties> queue_families;
  bool pipeline_statistics = false;    // the pipelineStatisticsQuery feature is enabled
  bool gpa_interface_enabled = false;  // the application enabled VK_AMD_gpa_interface
  // The driver below offers VK_AMD_gpa_interface itself (AMD's): the layer forwards the extension's commands to
  // it and implements nothing (docs/vulkan-layer.md, "Pass-through").
  bool pass_through = false;
  bool has_uuid = false;  // VkPhysicalDeviceIDProperties::deviceUUID was read
  std::uint8_t uuid[VK_UUID_SIZE] = {};
  // VK_KHR_performance_query counters cumulative samples may take: empty unless the layer enabled the
  // extension on this device and holds its profiling lock.
  std::vector<PublishedPerformanceCounter> performance_counters;
  bool multiple_performance_pools = false;  // performanceCounterMultipleQueryPools enabled
  bool profiling_lock_held = false;
  // NVIDIA's GPU periodic sampler, where the physical device has one (physical_sampler.h) and the layer implements
  // VK_AMD_gpa_interface on the device: its block's events are what cumulative samples may count besides. Found at
  // the first need (DeviceSamplerOf, device_sampler.h).
  std::unique_ptr<DeviceSampler> sampler;
  bool sampler_looked_up = false;

  PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
  PFN_vkDestroyDevice DestroyDevice = nullptr;
  PFN_vkCreateCommandPool CreateCommandPool = nullptr;
  PFN_vkDestroyCommandPool DestroyCommandPool = nullptr;
  PFN_vkAllocateCommandBuffers AllocateCommandBuffers = nullptr;
  PFN_vkFreeCommandBuffers FreeCommandBuffers = nullptr;
  PFN_vkBeginCommandBuffer BeginCommandBuffer = nullptr;
  PFN_vkEndCommandBuffer EndCommandBuffer = nullptr;
  PFN_vkCreateQueryPool CreateQueryPool = nullptr;
  PFN_vkDestroyQueryPool DestroyQueryPool = nullptr;
  PFN_vkResetQueryPool ResetQueryPool = nullptr;
  PFN_vkGetQueryPoolResults GetQueryPoolResults = nullptr;
  PFN_vkCmdWriteTimestamp CmdWriteTimestamp = nullptr;
  PFN_vkCmdBeginQuery CmdBeginQuery = nullptr;
  PFN_vkCmdEndQuery CmdEndQuery = nullptr;
  PFN_vkCmdResetQueryPool CmdResetQueryPool = nullptr;
  PFN_vkCmdCopyQueryPoolResults CmdCopyQueryPoolResults = nullptr;
  PFN_vkCmdPipelineBarrier CmdPipelineBarrier = nullptr;
  PFN_vkCreateBuffer CreateBuffer = nullptr;
  PFN_vkDestroyBuffer DestroyBuffer = nullptr;
  PFN_vkGetBufferMemoryRequirements GetBufferMemoryRequirements = nullptr;
  PFN_vkAllocateMemory AllocateMemory = nullptr;
  PFN_vkFreeMemory FreeMemory = nullptr;
  PFN_vkBindBufferMemory BindBufferMemory = nullptr;
  PFN_vkMapMemory MapMemory = nullptr;
  PFN_vkUnmapMemory UnmapMemory = nullptr;
  PFN_vkAcquireProfilingLockKHR AcquireProfilingLock = nullptr;
  PFN_vkReleaseProfilingLockKHR ReleaseProfilingLock = nullptr;

  std::mutex mutex;                                        // guards the maps below and every session of this device
  std::unordered_map<VkCommandPool, std::uint32_t> pools;  // queue family of each command pool
  std::unordered_map<VkCommandBuffer, CommandBufferInfo> command_buffers;
  std::unordered_map<std::uint64_t, std::unique_ptr<GpaSession>> sessions;  // by handle value
};

// The registries: keyed by dispatch key. Lookups return nullptr for handles the layer never saw.
InstanceData* FindInstance(const void* dispatchable);
DeviceData* FindDevice(const void* dispatchable);
InstanceData* AddInstance(VkInstance instance);
DeviceData* AddDevice(VkDevice device);
void RemoveInstance(VkInstance instance);
void RemoveDevice(VkDevice device);

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_LAYER_OBJECTS_H_
