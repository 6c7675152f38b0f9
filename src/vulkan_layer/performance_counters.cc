#include "performance_counters.h"

#include <cstring>

#include "physical_device_properties.h"

namespace opengpa::vklayer {

std::vector<PublishedPerformanceCounter> ReadPerformanceCounters(InstanceData& instance,
                                                                 VkPhysicalDevice physical_device) {
  std::vector<PublishedPerformanceCounter> published;
  if (instance.EnumerateQueueFamilyPerformanceQueryCounters == nullptr ||
      !DriverOffersExtension(instance, physical_device, VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME)) {
    return published;
  }
  VkPhysicalDevicePerformanceQueryFeaturesKHR performance{};
  performance.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &performance;
  NextFeatures2(instance, physical_device, &features);
  if (performance.performanceCounterQueryPools != VK_TRUE) return published;

  std::uint32_t families = 0;
  instance.GetPhysicalDeviceQueueFamilyProperties(physical_device, &families, nullptr);
  for (std::uint32_t family = 0; family < families; ++family) {
    std::uint32_t count = 0;
    if (instance.EnumerateQueueFamilyPerformanceQueryCounters(physical_device, family, &count, nullptr, nullptr) !=
        VK_SUCCESS) {
      continue;
    }
    std::vector<VkPerformanceCounterKHR> counters(count);
    std::vector<VkPerformanceCounterDescriptionKHR> descriptions(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      counters[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_KHR;
      descriptions[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_KHR;
    }
    if (instance.EnumerateQueueFamilyPerformanceQueryCounters(physical_device, family, &count, counters.data(),
                                                              descriptions.data()) < 0) {
      continue;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
      if (counters[i].scope != VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR) continue;
      PublishedPerformanceCounter* same = nullptr;
      for (PublishedPerformanceCounter& known : published) {
        if (std::memcmp(known.counter.uuid, counters[i].uuid, VK_UUID_SIZE) == 0) same = &known;
      }
      if (same == nullptr) {
        PublishedPerformanceCounter added;
        added.counter = counters[i];
        added.counter.pNext = nullptr;
        added.name = descriptions[i].name;
        added.index_in_family.assign(families, -1);
        published.push_back(std::move(added));
        same = &published.back();
      }
      same->index_in_family[family] = static_cast<std::int32_t>(i);
    }
  }
  return published;
}

VkGpaPerfBlockPropertiesAMD PerformanceCounterBlock(std::uint32_t count) {
  VkGpaPerfBlockPropertiesAMD block{};
  block.blockType = OPENGPA_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY;
  block.instanceCount = 1;
  block.maxEventID = count - 1;
  block.maxGlobalOnlyCounters = count;
  block.maxGlobalSharedCounters = 0;
  block.maxStreamingCounters = 0;
  return block;
}

std::uint64_t WidenedResult(VkPerformanceCounterStorageKHR storage, const VkPerformanceCounterResultKHR& result) {
  std::uint64_t bits = 0;
  switch (storage) {
    case VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR:
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(result.int32));
    case VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR: return static_cast<std::uint64_t>(result.int64);
    case VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR: return result.uint32;
    case VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR: return result.uint64;
    case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR: {
      const double widened = result.float32;
      std::memcpy(&bits, &widened, sizeof(bits));
      return bits;
    }
    case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR: std::memcpy(&bits, &result.float64, sizeof(bits)); return bits;
    default: return result.uint64;
  }
}

}  // namespace opengpa::vklayer
