// A test-only Vulkan layer that plays a driver offering VK_KHR_performance_query over lavapipe, so that the backend's
// recording path runs somewhere in CI (RADV's null device lists counters but cannot record them) and is held to the
// extension's rules while it does.
//
// The "driver" offers the counters of fake_performance_query_counters.h on queue family 0, counted from a lavapipe
// pipeline-statistics query hidden behind each performance query, so every value has a truth the tests compute (the
// threads a dispatch ran). It checks, as validation would, the rules OpenGPA must keep (the VUIDs are named in each
// message): the profiling lock taken before a command buffer that uses a performance query begins and held until it
// is submitted; a pool's chain, counters and queue family; at most one performance pool per command buffer
// (performanceCounterMultipleQueryPools is not offered); queries reset before they begin and never reset in the
// command buffer that begins them; results read with the allowed flags and strides, from pools submitted once per
// driver pass. A broken rule is recorded, not fatal, and the tests read the list through kGetViolationsName.
#include <vulkan/vk_layer.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "fake_performance_query_counters.h"

namespace {

using namespace fake_performance_query;

// lavapipe's statistics behind the counters, in bit order (the order a query's results come in).
constexpr VkQueryPipelineStatisticFlags kStatistics =
    VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT | VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT | VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
enum StatisticColumn { kVertex, kClipIn, kClipOut, kFragment, kCompute, kStatisticCount };

struct NextInstance {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2 = nullptr;
};

struct NextDevice {
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
  PFN_vkCreateCommandPool CreateCommandPool = nullptr;
  PFN_vkAllocateCommandBuffers AllocateCommandBuffers = nullptr;
  PFN_vkBeginCommandBuffer BeginCommandBuffer = nullptr;
  PFN_vkCreateQueryPool CreateQueryPool = nullptr;
  PFN_vkDestroyQueryPool DestroyQueryPool = nullptr;
  PFN_vkResetQueryPool ResetQueryPool = nullptr;
  PFN_vkCmdResetQueryPool CmdResetQueryPool = nullptr;
  PFN_vkCmdBeginQuery CmdBeginQuery = nullptr;
  PFN_vkCmdEndQuery CmdEndQuery = nullptr;
  PFN_vkGetQueryPoolResults GetQueryPoolResults = nullptr;
  PFN_vkQueueSubmit QueueSubmit = nullptr;
  bool performance_query = false;  // the device was created with the extension
};

enum class QueryState { kUndefined, kReset, kBegun, kEnded };

struct PerformancePool {
  std::uint32_t queue_family = 0;
  std::vector<std::uint32_t> counters;
  std::uint32_t passes = 1;
  std::vector<QueryState> states;
  std::set<std::uint32_t> submitted_passes;               // counterPassIndex values the pool was submitted with
  std::vector<std::vector<std::uint64_t>> final_results;  // per query once read available (lavapipe re-adds on reads)
};

struct CommandBufferState {
  std::uint32_t queue_family = 0;
  bool lock_held_at_begin = false;
  std::uint64_t lock_generation = 0;  // the lock's generation when recording began
  std::set<VkQueryPool> performance_pools;
  std::vector<std::pair<VkQueryPool, std::uint32_t>> reset_queries;  // vkCmdResetQueryPool on performance pools
};

std::mutex g_mutex;
std::unordered_map<void*, NextInstance> g_instances;  // by dispatch key
std::unordered_map<void*, NextDevice> g_devices;      // by dispatch key (devices, queues and command buffers share it)
std::unordered_map<VkCommandPool, std::uint32_t> g_command_pools;
std::unordered_map<VkCommandBuffer, CommandBufferState> g_command_buffers;
std::unordered_map<VkQueryPool, PerformancePool> g_pools;
int g_lock_holders = 0;
std::uint64_t g_lock_generation = 0;  // increases whenever the lock is let go entirely
std::vector<std::string> g_violations;

void* Key(const void* handle) { return *static_cast<void* const*>(handle); }

void Violation(const std::string& text) { g_violations.push_back(text); }  // g_mutex held

std::uint32_t DriverPasses(std::uint32_t counters) { return (counters + kCountersPerPass - 1) / kCountersPerPass; }

VkPerformanceCounterScopeKHR ScopeOf(std::uint32_t counter) {
  return counter == kCommandBufferScoped ? VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_BUFFER_KHR
                                         : VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR;
}

VkPerformanceCounterResultKHR ResultOf(std::uint32_t counter, const std::uint64_t* statistics) {
  VkPerformanceCounterResultKHR result{};
  switch (counter) {
    case kComputeInvocations: result.uint64 = statistics[kCompute]; break;
    case kFragmentInvocations: result.uint64 = statistics[kFragment]; break;
    case kVertexInvocations: result.uint32 = static_cast<std::uint32_t>(statistics[kVertex]); break;
    case kPrimitivesKept:
      result.float64 = statistics[kClipIn] == 0 ? 0.0
                                                : 100.0 * static_cast<double>(statistics[kClipOut]) /
                                                      static_cast<double>(statistics[kClipIn]);
      break;
    default: result.uint64 = 0; break;
  }
  return result;
}

// ---- instance level --------------------------------------------------------------------------------------------

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
  std::lock_guard<std::mutex> lock(g_mutex);
  g_instances[Key(*instance)] = below;
  return VK_SUCCESS;
}

NextInstance InstanceOf(const void* handle) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_instances[Key(handle)];
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physical_device, const char* layer,
                                                                  uint32_t* count, VkExtensionProperties* properties) {
  const auto next = InstanceOf(physical_device).EnumerateDeviceExtensionProperties;
  if (layer != nullptr) return next(physical_device, layer, count, properties);
  std::uint32_t below = 0;
  next(physical_device, nullptr, &below, nullptr);
  std::vector<VkExtensionProperties> all(below);
  next(physical_device, nullptr, &below, all.data());
  all.resize(below);
  all.push_back({VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME, VK_KHR_PERFORMANCE_QUERY_SPEC_VERSION});
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
  InstanceOf(physical_device).GetPhysicalDeviceFeatures2(physical_device, features);
  for (auto* node = reinterpret_cast<VkBaseOutStructure*>(features); node != nullptr; node = node->pNext) {
    if (node->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR) {
      auto* performance = reinterpret_cast<VkPhysicalDevicePerformanceQueryFeaturesKHR*>(node);
      performance->performanceCounterQueryPools = VK_TRUE;
      performance->performanceCounterMultipleQueryPools = VK_FALSE;
    }
  }
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateCounters(VkPhysicalDevice, uint32_t queue_family, uint32_t* count,
                                                 VkPerformanceCounterKHR* counters,
                                                 VkPerformanceCounterDescriptionKHR* descriptions) {
  const std::uint32_t offered = queue_family == 0 ? std::uint32_t{kCounterCount} : 0;
  if (counters == nullptr && descriptions == nullptr) {
    *count = offered;
    return VK_SUCCESS;
  }
  const std::uint32_t written = std::min(*count, offered);
  for (std::uint32_t i = 0; i < written; ++i) {
    if (counters != nullptr) {
      counters[i].scope = ScopeOf(i);
      counters[i].unit =
          i == kPrimitivesKept ? VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR : VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR;
      counters[i].storage = i == kPrimitivesKept      ? VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR
                            : i == kVertexInvocations ? VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR
                                                      : VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR;
      std::memset(counters[i].uuid, 0, VK_UUID_SIZE);
      counters[i].uuid[0] = static_cast<std::uint8_t>(0xF0 + i);
    }
    if (descriptions != nullptr) {
      descriptions[i].flags = 0;
      std::snprintf(descriptions[i].name, VK_MAX_DESCRIPTION_SIZE, "%s", kNames[i]);
      std::snprintf(descriptions[i].category, VK_MAX_DESCRIPTION_SIZE, "%s", "Fake");
      std::snprintf(descriptions[i].description, VK_MAX_DESCRIPTION_SIZE, "%s (a test driver over lavapipe)",
                    kNames[i]);
    }
  }
  *count = written;
  return written < offered ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetPasses(VkPhysicalDevice, const VkQueryPoolPerformanceCreateInfoKHR* info,
                                     uint32_t* passes) {
  *passes = DriverPasses(info->counterIndexCount);
}

// ---- device level ----------------------------------------------------------------------------------------------

NextDevice DeviceOf(const void* handle) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_devices[Key(handle)];
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
      reinterpret_cast<PFN_vkCreateDevice>(next_instance(InstanceOf(physical_device).instance, "vkCreateDevice"));
  // lavapipe knows neither the extension nor its feature struct: both are taken out on the way down (the struct by
  // unlinking it for the call and linking it back after).
  std::vector<const char*> extensions;
  bool performance_query = false;
  for (std::uint32_t i = 0; i < info->enabledExtensionCount; ++i) {
    if (std::strcmp(info->ppEnabledExtensionNames[i], VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME) == 0) {
      performance_query = true;
    } else {
      extensions.push_back(info->ppEnabledExtensionNames[i]);
    }
  }
  VkBaseOutStructure* unlinked_after = nullptr;
  VkBaseOutStructure* unlinked = nullptr;
  for (auto* node = reinterpret_cast<VkBaseOutStructure*>(const_cast<VkDeviceCreateInfo*>(info));
       node->pNext != nullptr; node = node->pNext) {
    if (node->pNext->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR) {
      unlinked_after = node;
      unlinked = node->pNext;
      node->pNext = unlinked->pNext;
      break;
    }
  }
  VkDeviceCreateInfo below = *info;
  below.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  below.ppEnabledExtensionNames = extensions.data();
  const VkResult result = create(physical_device, &below, allocator, device);
  if (unlinked_after != nullptr) unlinked_after->pNext = unlinked;
  if (result != VK_SUCCESS) return result;
  NextDevice next;
  next.GetDeviceProcAddr = next_device;
#define NEXT(name) next.name = reinterpret_cast<PFN_vk##name>(next_device(*device, "vk" #name))
  NEXT(CreateCommandPool);
  NEXT(AllocateCommandBuffers);
  NEXT(BeginCommandBuffer);
  NEXT(CreateQueryPool);
  NEXT(DestroyQueryPool);
  NEXT(ResetQueryPool);
  NEXT(CmdResetQueryPool);
  NEXT(CmdBeginQuery);
  NEXT(CmdEndQuery);
  NEXT(GetQueryPoolResults);
  NEXT(QueueSubmit);
#undef NEXT
  next.performance_query = performance_query;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_devices[Key(*device)] = next;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL AcquireProfilingLock(VkDevice, const VkAcquireProfilingLockInfoKHR* info) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (info == nullptr || info->sType != VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR) {
    Violation("VUID-vkAcquireProfilingLockKHR-pInfo-parameter: not a VkAcquireProfilingLockInfoKHR");
  }
  ++g_lock_holders;  // several holders are allowed ("Implementations may allow multiple actors")
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL ReleaseProfilingLock(VkDevice) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_lock_holders == 0) {
    Violation("VUID-vkReleaseProfilingLockKHR-device-03235: the profiling lock is released without being held");
    return;
  }
  if (--g_lock_holders == 0) ++g_lock_generation;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateCommandPool(VkDevice device, const VkCommandPoolCreateInfo* info,
                                                 const VkAllocationCallbacks* allocator, VkCommandPool* pool) {
  const VkResult result = DeviceOf(device).CreateCommandPool(device, info, allocator, pool);
  if (result == VK_SUCCESS) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_command_pools[*pool] = info->queueFamilyIndex;
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice device, const VkCommandBufferAllocateInfo* info,
                                                      VkCommandBuffer* command_buffers) {
  const VkResult result = DeviceOf(device).AllocateCommandBuffers(device, info, command_buffers);
  if (result == VK_SUCCESS) {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (std::uint32_t i = 0; i < info->commandBufferCount; ++i) {
      CommandBufferState state;
      state.queue_family = g_command_pools[info->commandPool];
      g_command_buffers[command_buffers[i]] = state;
    }
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer command_buffer,
                                                  const VkCommandBufferBeginInfo* info) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    CommandBufferState& state = g_command_buffers[command_buffer];
    state.lock_held_at_begin = g_lock_holders > 0;
    state.lock_generation = g_lock_generation;
    state.performance_pools.clear();
    state.reset_queries.clear();
  }
  return DeviceOf(command_buffer).BeginCommandBuffer(command_buffer, info);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateQueryPool(VkDevice device, const VkQueryPoolCreateInfo* info,
                                               const VkAllocationCallbacks* allocator, VkQueryPool* pool) {
  const NextDevice next = DeviceOf(device);
  if (info->queryType != VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR)
    return next.CreateQueryPool(device, info, allocator, pool);
  const VkQueryPoolPerformanceCreateInfoKHR* performance = nullptr;
  for (auto* node = static_cast<const VkBaseInStructure*>(info->pNext); node != nullptr; node = node->pNext) {
    if (node->sType == VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR) {
      performance = reinterpret_cast<const VkQueryPoolPerformanceCreateInfoKHR*>(node);
    }
  }
  PerformancePool record;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!next.performance_query) {
      Violation("VUID-VkQueryPoolCreateInfo-queryType: a performance query pool on a device without the extension");
    }
    if (performance == nullptr) {
      Violation("VUID-VkQueryPoolCreateInfo-queryType-03222: no VkQueryPoolPerformanceCreateInfoKHR in pNext");
      return VK_ERROR_INITIALIZATION_FAILED;
    }
    if (performance->queueFamilyIndex != 0) {
      Violation("VUID-VkQueryPoolPerformanceCreateInfoKHR-queueFamilyIndex-03236: queue family " +
                std::to_string(performance->queueFamilyIndex) + " has no counters");
    }
    for (std::uint32_t i = 0; i < performance->counterIndexCount; ++i) {
      if (performance->pCounterIndices[i] >= kCounterCount) {
        Violation("VUID-VkQueryPoolPerformanceCreateInfoKHR-pCounterIndices-03321: counter index " +
                  std::to_string(performance->pCounterIndices[i]) + " is not offered");
      }
    }
    record.queue_family = performance->queueFamilyIndex;
    record.counters.assign(performance->pCounterIndices, performance->pCounterIndices + performance->counterIndexCount);
    record.passes = DriverPasses(performance->counterIndexCount);
    record.states.assign(info->queryCount, QueryState::kUndefined);
    record.final_results.assign(info->queryCount, {});
  }
  VkQueryPoolCreateInfo statistics = *info;
  statistics.pNext = nullptr;
  statistics.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
  statistics.pipelineStatistics = kStatistics;
  const VkResult result = next.CreateQueryPool(device, &statistics, allocator, pool);
  if (result == VK_SUCCESS) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_pools[*pool] = std::move(record);
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyQueryPool(VkDevice device, VkQueryPool pool, const VkAllocationCallbacks* allocator) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_pools.erase(pool);
  }
  DeviceOf(device).DestroyQueryPool(device, pool, allocator);
}

VKAPI_ATTR void VKAPI_CALL ResetQueryPool(VkDevice device, VkQueryPool pool, uint32_t first, uint32_t count) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (auto found = g_pools.find(pool); found != g_pools.end()) {
      for (std::uint32_t q = first; q < first + count && q < found->second.states.size(); ++q) {
        found->second.states[q] = QueryState::kReset;
        found->second.final_results[q].clear();
      }
      found->second.submitted_passes.clear();
    }
  }
  DeviceOf(device).ResetQueryPool(device, pool, first, count);
}

VKAPI_ATTR void VKAPI_CALL CmdResetQueryPool(VkCommandBuffer command_buffer, VkQueryPool pool, uint32_t first,
                                             uint32_t count) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_pools.count(pool) != 0) {
      for (std::uint32_t q = first; q < first + count; ++q) {
        g_command_buffers[command_buffer].reset_queries.emplace_back(pool, q);
      }
    }
  }
  DeviceOf(command_buffer).CmdResetQueryPool(command_buffer, pool, first, count);
}

VKAPI_ATTR void VKAPI_CALL CmdBeginQuery(VkCommandBuffer command_buffer, VkQueryPool pool, uint32_t query,
                                         VkQueryControlFlags flags) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (auto found = g_pools.find(pool); found != g_pools.end()) {
      PerformancePool& performance = found->second;
      CommandBufferState& state = g_command_buffers[command_buffer];
      if (!state.lock_held_at_begin) {
        Violation(
            "VUID-vkCmdBeginQuery-queryPool-03223: the profiling lock was not held when the command buffer began");
      }
      if (state.queue_family != performance.queue_family) {
        Violation("VUID-vkCmdBeginQuery-queryPool-07289: the pool's queue family " +
                  std::to_string(performance.queue_family) + " is not the command buffer's " +
                  std::to_string(state.queue_family));
      }
      state.performance_pools.insert(pool);
      if (state.performance_pools.size() > 1) {
        Violation(
            "VUID-vkCmdBeginQuery-queryPool-03226: a second performance query pool in one command buffer "
            "without performanceCounterMultipleQueryPools");
      }
      if (std::find(state.reset_queries.begin(), state.reset_queries.end(), std::make_pair(pool, query)) !=
          state.reset_queries.end()) {
        Violation("VUID-vkCmdBeginQuery-None-02863: the query is reset in the command buffer that begins it");
      }
      if (query >= performance.states.size() || performance.states[query] != QueryState::kReset) {
        Violation("VUID-vkCmdBeginQuery-None-00807: query " + std::to_string(query) +
                  " begins without a reset since it was created or last used");
      } else {
        performance.states[query] = QueryState::kBegun;
      }
    }
  }
  DeviceOf(command_buffer).CmdBeginQuery(command_buffer, pool, query, flags);
}

VKAPI_ATTR void VKAPI_CALL CmdEndQuery(VkCommandBuffer command_buffer, VkQueryPool pool, uint32_t query) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (auto found = g_pools.find(pool); found != g_pools.end()) {
      if (query >= found->second.states.size() || found->second.states[query] != QueryState::kBegun) {
        Violation("VUID-vkCmdEndQuery-None-01923: query " + std::to_string(query) + " ends without being active");
      } else {
        found->second.states[query] = QueryState::kEnded;
      }
    }
  }
  DeviceOf(command_buffer).CmdEndQuery(command_buffer, pool, query);
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits, VkFence fence) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (std::uint32_t s = 0; s < count; ++s) {
      std::uint32_t pass = 0;  // the default when no VkPerformanceQuerySubmitInfoKHR is chained
      for (auto* node = static_cast<const VkBaseInStructure*>(submits[s].pNext); node != nullptr; node = node->pNext) {
        if (node->sType == VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR) {
          pass = reinterpret_cast<const VkPerformanceQuerySubmitInfoKHR*>(node)->counterPassIndex;
        }
      }
      for (std::uint32_t c = 0; c < submits[s].commandBufferCount; ++c) {
        const CommandBufferState& state = g_command_buffers[submits[s].pCommandBuffers[c]];
        if (state.performance_pools.empty()) continue;
        if (g_lock_holders == 0 || state.lock_generation != g_lock_generation) {
          Violation(
              "VUID-vkQueueSubmit-pCommandBuffers-03220: the profiling lock was not held continuously from "
              "recording to submission");
        }
        for (VkQueryPool pool : state.performance_pools) {
          if (auto found = g_pools.find(pool); found != g_pools.end()) found->second.submitted_passes.insert(pass);
        }
      }
    }
  }
  return DeviceOf(queue).QueueSubmit(queue, count, submits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL GetQueryPoolResults(VkDevice device, VkQueryPool pool, uint32_t first, uint32_t count,
                                                   size_t size, void* data, VkDeviceSize stride,
                                                   VkQueryResultFlags flags) {
  const NextDevice next = DeviceOf(device);
  std::vector<std::uint32_t> counters;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto found = g_pools.find(pool);
    if (found == g_pools.end()) return next.GetQueryPoolResults(device, pool, first, count, size, data, stride, flags);
    counters = found->second.counters;
    constexpr VkQueryResultFlags kForbidden =
        VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_PARTIAL_BIT | VK_QUERY_RESULT_64_BIT;
    if (flags & kForbidden) Violation("VUID-vkGetQueryPoolResults-queryType-03230: flags " + std::to_string(flags));
    if (stride % sizeof(VkPerformanceCounterResultKHR) != 0) {
      Violation("VUID-vkGetQueryPoolResults-queryType-03229: stride " + std::to_string(stride));
    }
    if (stride < counters.size() * sizeof(VkPerformanceCounterResultKHR)) {
      Violation("VUID-vkGetQueryPoolResults-queryType-04519: stride " + std::to_string(stride) + " for " +
                std::to_string(counters.size()) + " counters");
    }
    if (size < (count - 1) * stride + counters.size() * sizeof(VkPerformanceCounterResultKHR)) {
      Violation("VUID-vkGetQueryPoolResults-dataSize-00817: " + std::to_string(size) + " bytes are too few");
      return VK_ERROR_UNKNOWN;
    }
  }
  VkResult result = VK_SUCCESS;
  std::uint64_t words[kStatisticCount + 1];
  for (std::uint32_t q = first; q < first + count; ++q) {
    std::vector<std::uint64_t> statistics;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      statistics = g_pools[pool].final_results[q];
    }
    if (statistics.empty()) {
      next.GetQueryPoolResults(device, pool, q, 1, sizeof(words), words, sizeof(words),
                               VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
      if (words[kStatisticCount] == 0) {
        result = VK_NOT_READY;
        continue;
      }
      statistics.assign(words, words + kStatisticCount);
      std::lock_guard<std::mutex> lock(g_mutex);
      PerformancePool& performance = g_pools[pool];
      performance.final_results[q] = statistics;
      if (performance.submitted_passes.size() < performance.passes) {
        Violation("VUID-vkGetQueryPoolResults-queryType-03231: a pool of " + std::to_string(performance.passes) +
                  " passes was submitted with " + std::to_string(performance.submitted_passes.size()) +
                  " counterPassIndex value(s)");
      }
    }
    auto* out = reinterpret_cast<VkPerformanceCounterResultKHR*>(static_cast<char*>(data) + (q - first) * stride);
    for (std::size_t c = 0; c < counters.size(); ++c) out[c] = ResultOf(counters[c], statistics.data());
  }
  return result;
}

std::uint32_t GetViolations(char* text, std::uint32_t size) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::string all;
  for (const std::string& violation : g_violations) all += violation + "\n";
  if (text != nullptr && size > 0) std::snprintf(text, size, "%s", all.c_str());
  return static_cast<std::uint32_t>(g_violations.size());
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

#define FAKE_HOOK(vk_name, function) \
  if (std::strcmp(name, vk_name) == 0) return reinterpret_cast<PFN_vkVoidFunction>(&function)

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  FAKE_HOOK("vkGetInstanceProcAddr", GetInstanceProcAddr);
  FAKE_HOOK("vkCreateInstance", CreateInstance);
  FAKE_HOOK("vkCreateDevice", CreateDevice);
  FAKE_HOOK("vkEnumerateDeviceExtensionProperties", EnumerateDeviceExtensionProperties);
  FAKE_HOOK("vkGetPhysicalDeviceFeatures2", GetPhysicalDeviceFeatures2);
  FAKE_HOOK("vkGetPhysicalDeviceFeatures2KHR", GetPhysicalDeviceFeatures2);
  FAKE_HOOK("vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR", EnumerateCounters);
  FAKE_HOOK("vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR", GetPasses);
  FAKE_HOOK("vkGetDeviceProcAddr", GetDeviceProcAddr);
  const NextInstance below = InstanceOf(instance);
  return below.GetInstanceProcAddr != nullptr ? below.GetInstanceProcAddr(instance, name) : nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  const NextDevice next = DeviceOf(device);
  FAKE_HOOK("vkGetDeviceProcAddr", GetDeviceProcAddr);
  // As the loader does for a driver: the extension's commands only for a device created with it.
  if (next.performance_query) {
    FAKE_HOOK("vkAcquireProfilingLockKHR", AcquireProfilingLock);
    FAKE_HOOK("vkReleaseProfilingLockKHR", ReleaseProfilingLock);
  }
  FAKE_HOOK("vkCreateCommandPool", CreateCommandPool);
  FAKE_HOOK("vkAllocateCommandBuffers", AllocateCommandBuffers);
  FAKE_HOOK("vkBeginCommandBuffer", BeginCommandBuffer);
  FAKE_HOOK("vkCreateQueryPool", CreateQueryPool);
  FAKE_HOOK("vkDestroyQueryPool", DestroyQueryPool);
  FAKE_HOOK("vkResetQueryPool", ResetQueryPool);
  FAKE_HOOK("vkResetQueryPoolEXT", ResetQueryPool);
  FAKE_HOOK("vkCmdResetQueryPool", CmdResetQueryPool);
  FAKE_HOOK("vkCmdBeginQuery", CmdBeginQuery);
  FAKE_HOOK("vkCmdEndQuery", CmdEndQuery);
  FAKE_HOOK("vkGetQueryPoolResults", GetQueryPoolResults);
  FAKE_HOOK("vkQueueSubmit", QueueSubmit);
  FAKE_HOOK(kGetViolationsName, GetViolations);
  return next.GetDeviceProcAddr != nullptr ? next.GetDeviceProcAddr(device, name) : nullptr;
}

#undef FAKE_HOOK

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
