#include <vulkan/vk_layer.h>

#include <cstring>
#include <string>
#include <vector>

#include "device_sampler.h"
#include "gpa_session.h"
#include "hooks.h"
#include "layer_log.h"
#include "layer_objects.h"
#include "performance_counters.h"
#include "physical_device_properties.h"
#include "platform/enum_argument.h"

namespace opengpa::vklayer {
namespace {

VkLayerDeviceCreateInfo* FindLinkInfo(const VkDeviceCreateInfo* info) {
  auto* chain = static_cast<VkLayerDeviceCreateInfo*>(const_cast<void*>(info->pNext));
  while (chain != nullptr && !(EnumArgument(chain->sType) == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO &&
                               EnumArgument(chain->function) == VK_LAYER_LINK_INFO)) {
    chain = static_cast<VkLayerDeviceCreateInfo*>(const_cast<void*>(chain->pNext));
  }
  return chain;
}

template <typename T>
T* FindInChain(const void* head, VkStructureType type) {
  for (auto* node = static_cast<const VkBaseInStructure*>(head); node != nullptr; node = node->pNext) {
    // The application's sType, read as an int (any value may come from C).
    if (EnumArgument(node->sType) == type) return reinterpret_cast<T*>(const_cast<VkBaseInStructure*>(node));
  }
  return nullptr;
}

bool Contains(const std::vector<const char*>& names, const char* name) {
  for (const char* n : names) {
    if (std::strcmp(n, name) == 0) return true;
  }
  return false;
}

// Changes the application's VkDeviceCreateInfo for the duration of the driver's vkCreateDevice: the layer's
// own extensions and feature struct come out (the driver does not know them), and what the layer's sessions
// need goes in: pipelineStatisticsQuery, hostQueryReset (with VK_EXT_host_query_reset where the device offers
// it). Every struct of the application's chain that is changed is put back as it was by the destructor.
class DeviceCreateEdit {
 public:
  DeviceCreateEdit(InstanceData& instance, VkPhysicalDevice physical_device, const VkDeviceCreateInfo& original)
      : info_(original) {
    // A driver that offers VK_AMD_gpa_interface itself gets the application's request unchanged: the layer
    // passes the extension through (LayerGetDeviceProcAddr) and needs nothing of the device.
    pass_through_ = DriverOffersExtension(instance, physical_device, VK_AMD_GPA_INTERFACE_EXTENSION_NAME);
    const bool driver_core_properties =
        DriverOffersExtension(instance, physical_device, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME);
    // Extensions: the application's, less those the layer provides, plus host query reset.
    for (std::uint32_t i = 0; i < original.enabledExtensionCount; ++i) {
      const char* name = original.ppEnabledExtensionNames[i];
      if (std::strcmp(name, VK_AMD_GPA_INTERFACE_EXTENSION_NAME) == 0) {
        gpa_interface_enabled_ = true;
        if (!pass_through_) continue;
      }
      if (std::strcmp(name, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME) == 0 && !driver_core_properties) continue;
      extensions_.push_back(name);
    }
    info_.enabledExtensionCount = static_cast<std::uint32_t>(extensions_.size());
    info_.ppEnabledExtensionNames = extensions_.data();
    if (pass_through_) return;

    if (!Contains(extensions_, VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME) &&
        DriverOffersExtension(instance, physical_device, VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME)) {
      extensions_.push_back(VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME);
    }

    // Performance counters, for cumulative samples of a device created with VK_AMD_gpa_interface.
    performance_query_ = gpa_interface_enabled_ && !ReadPerformanceCounters(instance, physical_device).empty();
    if (performance_query_ && !Contains(extensions_, VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME)) {
      extensions_.push_back(VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME);
    }
    info_.enabledExtensionCount = static_cast<std::uint32_t>(extensions_.size());
    info_.ppEnabledExtensionNames = extensions_.data();

    // What the device supports.
    VkPhysicalDevicePerformanceQueryFeaturesKHR supported_performance{};
    supported_performance.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
    VkPhysicalDeviceHostQueryResetFeatures supported_reset{};
    supported_reset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
    if (performance_query_) supported_reset.pNext = &supported_performance;
    VkPhysicalDeviceFeatures2 supported{};
    supported.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    supported.pNext = &supported_reset;
    NextFeatures2(instance, physical_device, &supported);
    if (instance.GetPhysicalDeviceFeatures2 == nullptr) {
      instance.GetPhysicalDeviceFeatures(physical_device, &supported.features);
    }
    const VkBool32 statistics = supported.features.pipelineStatisticsQuery;
    const VkBool32 reset = supported_reset.hostQueryReset;

    // Take VkPhysicalDeviceGpaFeaturesAMD out of the chain.
    auto* previous = reinterpret_cast<VkBaseOutStructure*>(&info_);
    while (previous->pNext != nullptr) {
      VkBaseOutStructure* node = previous->pNext;
      if (EnumArgument(node->sType) == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD) {
        if (previous != reinterpret_cast<VkBaseOutStructure*>(&info_)) unlinked_.push_back({previous, node});
        previous->pNext = node->pNext;
      } else {
        previous = node;
      }
    }

    // pipelineStatisticsQuery.
    if (auto* features2 =
            FindInChain<VkPhysicalDeviceFeatures2>(info_.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)) {
      patched_.push_back({&features2->features.pipelineStatisticsQuery, features2->features.pipelineStatisticsQuery});
      features2->features.pipelineStatisticsQuery |= statistics;
      pipeline_statistics_ = features2->features.pipelineStatisticsQuery == VK_TRUE;
    } else {
      if (original.pEnabledFeatures != nullptr) features_ = *original.pEnabledFeatures;
      features_.pipelineStatisticsQuery |= statistics;
      info_.pEnabledFeatures = &features_;
      pipeline_statistics_ = features_.pipelineStatisticsQuery == VK_TRUE;
    }

    // hostQueryReset.
    if (reset == VK_TRUE) {
      if (auto* v12 = FindInChain<VkPhysicalDeviceVulkan12Features>(
              info_.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)) {
        patched_.push_back({&v12->hostQueryReset, v12->hostQueryReset});
        v12->hostQueryReset = VK_TRUE;
      } else if (auto* own = FindInChain<VkPhysicalDeviceHostQueryResetFeatures>(
                     info_.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES)) {
        patched_.push_back({&own->hostQueryReset, own->hostQueryReset});
        own->hostQueryReset = VK_TRUE;
      } else {
        host_query_reset_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
        host_query_reset_.hostQueryReset = VK_TRUE;
        host_query_reset_.pNext = const_cast<void*>(info_.pNext);
        info_.pNext = &host_query_reset_;
      }
    }

    // performanceCounterQueryPools (and several pools per command buffer where the device allows it).
    if (performance_query_) {
      multiple_performance_pools_ = supported_performance.performanceCounterMultipleQueryPools == VK_TRUE;
      if (auto* own = FindInChain<VkPhysicalDevicePerformanceQueryFeaturesKHR>(
              info_.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR)) {
        patched_.push_back({&own->performanceCounterQueryPools, own->performanceCounterQueryPools});
        patched_.push_back({&own->performanceCounterMultipleQueryPools, own->performanceCounterMultipleQueryPools});
        own->performanceCounterQueryPools = VK_TRUE;
        own->performanceCounterMultipleQueryPools |= supported_performance.performanceCounterMultipleQueryPools;
      } else {
        performance_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
        performance_.performanceCounterQueryPools = VK_TRUE;
        performance_.performanceCounterMultipleQueryPools = supported_performance.performanceCounterMultipleQueryPools;
        performance_.pNext = const_cast<void*>(info_.pNext);
        info_.pNext = &performance_;
      }
    }
  }

  ~DeviceCreateEdit() {
    for (const Patched& patched : patched_) *patched.field = patched.value;
    for (auto it = unlinked_.rbegin(); it != unlinked_.rend(); ++it) {
      it->node->pNext = it->previous->pNext;
      it->previous->pNext = it->node;
    }
  }

  const VkDeviceCreateInfo& info() const { return info_; }
  bool gpa_interface_enabled() const { return gpa_interface_enabled_; }
  bool pass_through() const { return pass_through_; }
  bool pipeline_statistics() const { return pipeline_statistics_; }
  bool performance_query() const { return performance_query_; }
  bool multiple_performance_pools() const { return multiple_performance_pools_; }

 private:
  struct Patched {
    VkBool32* field;
    VkBool32 value;
  };
  struct Unlinked {
    VkBaseOutStructure* previous;
    VkBaseOutStructure* node;
  };
  VkDeviceCreateInfo info_;
  std::vector<const char*> extensions_;
  VkPhysicalDeviceFeatures features_{};
  VkPhysicalDeviceHostQueryResetFeatures host_query_reset_{};
  VkPhysicalDevicePerformanceQueryFeaturesKHR performance_{};
  std::vector<Patched> patched_;
  std::vector<Unlinked> unlinked_;
  bool gpa_interface_enabled_ = false;
  bool pass_through_ = false;
  bool pipeline_statistics_ = false;
  bool performance_query_ = false;
  bool multiple_performance_pools_ = false;
};

template <typename T>
void Load(DeviceData& data, T* slot, const char* name) {
  *slot = reinterpret_cast<T>(data.GetDeviceProcAddr(data.device, name));
}

void LoadDeviceFunctions(DeviceData& d) {
  Load(d, &d.DestroyDevice, "vkDestroyDevice");
  Load(d, &d.CreateCommandPool, "vkCreateCommandPool");
  Load(d, &d.DestroyCommandPool, "vkDestroyCommandPool");
  Load(d, &d.AllocateCommandBuffers, "vkAllocateCommandBuffers");
  Load(d, &d.FreeCommandBuffers, "vkFreeCommandBuffers");
  Load(d, &d.BeginCommandBuffer, "vkBeginCommandBuffer");
  Load(d, &d.EndCommandBuffer, "vkEndCommandBuffer");
  Load(d, &d.CreateQueryPool, "vkCreateQueryPool");
  Load(d, &d.DestroyQueryPool, "vkDestroyQueryPool");
  Load(d, &d.ResetQueryPool, "vkResetQueryPool");
  if (d.ResetQueryPool == nullptr) Load(d, &d.ResetQueryPool, "vkResetQueryPoolEXT");
  Load(d, &d.GetQueryPoolResults, "vkGetQueryPoolResults");
  Load(d, &d.CmdWriteTimestamp, "vkCmdWriteTimestamp");
  Load(d, &d.CmdBeginQuery, "vkCmdBeginQuery");
  Load(d, &d.CmdEndQuery, "vkCmdEndQuery");
  Load(d, &d.CmdResetQueryPool, "vkCmdResetQueryPool");
  Load(d, &d.CmdCopyQueryPoolResults, "vkCmdCopyQueryPoolResults");
  Load(d, &d.CmdPipelineBarrier, "vkCmdPipelineBarrier");
  Load(d, &d.CreateBuffer, "vkCreateBuffer");
  Load(d, &d.DestroyBuffer, "vkDestroyBuffer");
  Load(d, &d.GetBufferMemoryRequirements, "vkGetBufferMemoryRequirements");
  Load(d, &d.AllocateMemory, "vkAllocateMemory");
  Load(d, &d.FreeMemory, "vkFreeMemory");
  Load(d, &d.BindBufferMemory, "vkBindBufferMemory");
  Load(d, &d.MapMemory, "vkMapMemory");
  Load(d, &d.UnmapMemory, "vkUnmapMemory");
  Load(d, &d.AcquireProfilingLock, "vkAcquireProfilingLockKHR");
  Load(d, &d.ReleaseProfilingLock, "vkReleaseProfilingLockKHR");
}

// VK_KHR_performance_query asks for the profiling lock before any command buffer that uses a performance
// query begins recording, and until it has run: the layer cannot know which will, so a device it enabled
// performance queries on holds the lock from its creation to its destruction.
void AcquireProfilingLock(DeviceData& d) {
  if (d.AcquireProfilingLock == nullptr) {
    LogProblem("vkAcquireProfilingLockKHR is missing: VK_KHR_performance_query counters are not offered");
    return;
  }
  VkAcquireProfilingLockInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR;
  info.timeout = 1000000000;  // 1 s: another profiler may hold it
  const VkResult result = d.AcquireProfilingLock(d.device, &info);
  if (result != VK_SUCCESS) {
    LogProblem("vkAcquireProfilingLockKHR failed (VkResult " + std::to_string(result) +
               "): VK_KHR_performance_query counters are not offered on this device");
    return;
  }
  d.profiling_lock_held = true;
  d.performance_counters = ReadPerformanceCounters(*d.instance, d.physical_device);
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
  InstanceData* instance = FindInstance(physicalDevice);
  VkLayerDeviceCreateInfo* link = pCreateInfo != nullptr ? FindLinkInfo(pCreateInfo) : nullptr;
  if (instance == nullptr || link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_instance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr next_device = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  const auto create = reinterpret_cast<PFN_vkCreateDevice>(next_instance(instance->instance, "vkCreateDevice"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;

  bool gpa_interface_enabled = false;
  bool pipeline_statistics = false;
  bool performance_query = false;
  bool multiple_performance_pools = false;
  bool pass_through = false;
  VkResult result;
  {
    DeviceCreateEdit edit(*instance, physicalDevice, *pCreateInfo);
    gpa_interface_enabled = edit.gpa_interface_enabled();
    pipeline_statistics = edit.pipeline_statistics();
    performance_query = edit.performance_query();
    multiple_performance_pools = edit.multiple_performance_pools();
    pass_through = edit.pass_through();
    result = create(physicalDevice, &edit.info(), pAllocator, pDevice);
  }
  if (result != VK_SUCCESS) return result;

  DeviceData* data = AddDevice(*pDevice);
  data->physical_device = physicalDevice;
  data->instance = instance;
  data->GetDeviceProcAddr = next_device;
  data->gpa_interface_enabled = gpa_interface_enabled;
  data->pass_through = pass_through;
  data->pipeline_statistics = pipeline_statistics;
  instance->GetPhysicalDeviceProperties(physicalDevice, &data->properties);
  instance->GetPhysicalDeviceMemoryProperties(physicalDevice, &data->memory);
  std::uint32_t families = 0;
  instance->GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &families, nullptr);
  data->queue_families.resize(families);
  instance->GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &families, data->queue_families.data());
  VkPhysicalDeviceIDProperties id{};
  id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &id;
  if (instance->GetPhysicalDeviceProperties2 != nullptr) {
    instance->GetPhysicalDeviceProperties2(physicalDevice, &properties);
    std::memcpy(data->uuid, id.deviceUUID, VK_UUID_SIZE);
    data->has_uuid = true;
  }
  LoadDeviceFunctions(*data);
  data->multiple_performance_pools = multiple_performance_pools;
  if (performance_query) AcquireProfilingLock(*data);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* pAllocator) {
  DeviceData* data = FindDevice(device);
  if (data == nullptr) return;
  const PFN_vkDestroyDevice destroy = data->DestroyDevice;
  {
    std::lock_guard<std::mutex> lock(data->mutex);
    if (!data->sessions.empty()) {
      LogProblem("vkDestroyDevice: " + std::to_string(data->sessions.size()) +
                 " GPA session(s) were never destroyed; the layer destroys them");
    }
    data->sessions.clear();  // their query pools and buffers, while the device still exists
    data->sampler.reset();   // likewise its sampler ranges' timestamp pools
  }
  if (data->profiling_lock_held) data->ReleaseProfilingLock(device);
  RemoveDevice(device);
  if (destroy != nullptr) destroy(device, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateCommandPool(VkDevice device, const VkCommandPoolCreateInfo* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator, VkCommandPool* pCommandPool) {
  DeviceData* data = FindDevice(device);
  if (data == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult result = data->CreateCommandPool(device, pCreateInfo, pAllocator, pCommandPool);
  if (result == VK_SUCCESS) {
    std::lock_guard<std::mutex> lock(data->mutex);
    data->pools[*pCommandPool] = pCreateInfo->queueFamilyIndex;
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice device, VkCommandPool commandPool,
                                              const VkAllocationCallbacks* pAllocator) {
  DeviceData* data = FindDevice(device);
  if (data == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(data->mutex);
    data->pools.erase(commandPool);
    for (auto it = data->command_buffers.begin(); it != data->command_buffers.end();) {
      it = it->second.pool == commandPool ? data->command_buffers.erase(it) : std::next(it);
    }
  }
  data->DestroyCommandPool(device, commandPool, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice device, const VkCommandBufferAllocateInfo* pAllocateInfo,
                                                      VkCommandBuffer* pCommandBuffers) {
  DeviceData* data = FindDevice(device);
  if (data == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult result = data->AllocateCommandBuffers(device, pAllocateInfo, pCommandBuffers);
  if (result != VK_SUCCESS) return result;
  std::lock_guard<std::mutex> lock(data->mutex);
  const auto pool = data->pools.find(pAllocateInfo->commandPool);
  CommandBufferInfo info;
  info.pool = pAllocateInfo->commandPool;
  info.secondary = pAllocateInfo->level == VK_COMMAND_BUFFER_LEVEL_SECONDARY;
  if (pool != data->pools.end() && pool->second < data->queue_families.size()) {
    info.queue_family = pool->second;
    info.queue_flags = data->queue_families[pool->second].queueFlags;
  }
  for (std::uint32_t i = 0; i < pAllocateInfo->commandBufferCount; ++i) {
    data->command_buffers[pCommandBuffers[i]] = info;
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool commandPool, uint32_t commandBufferCount,
                                              const VkCommandBuffer* pCommandBuffers) {
  DeviceData* data = FindDevice(device);
  if (data == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(data->mutex);
    for (std::uint32_t i = 0; i < commandBufferCount; ++i) data->command_buffers.erase(pCommandBuffers[i]);
  }
  data->FreeCommandBuffers(device, commandPool, commandBufferCount, pCommandBuffers);
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                  const VkCommandBufferBeginInfo* pBeginInfo) {
  DeviceData* data = FindDevice(commandBuffer);
  if (data == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  {
    // A new recording: nothing of the last one stays open in it.
    std::lock_guard<std::mutex> lock(data->mutex);
    auto it = data->command_buffers.find(commandBuffer);
    if (it != data->command_buffers.end()) {
      it->second.open_session = nullptr;
      it->second.sessions_with_open_samples.clear();
      it->second.performance_pool = VK_NULL_HANDLE;
    }
  }
  return data->BeginCommandBuffer(commandBuffer, pBeginInfo);
}

VKAPI_ATTR VkResult VKAPI_CALL EndCommandBuffer(VkCommandBuffer commandBuffer) {
  DeviceData* data = FindDevice(commandBuffer);
  if (data == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  {
    std::lock_guard<std::mutex> lock(data->mutex);
    auto it = data->command_buffers.find(commandBuffer);
    if (it != data->command_buffers.end()) {
      for (GpaSession* session : it->second.sessions_with_open_samples) session->CloseOpenSamples(commandBuffer);
      it->second.sessions_with_open_samples.clear();
    }
  }
  return data->EndCommandBuffer(commandBuffer);
}

}  // namespace opengpa::vklayer
