#include "backends/vulkan/vulkan_performance_queries.h"

#include "backends/vulkan/vulkan_performance_counters.h"
#include "platform/logging.h"

namespace opengpa::vulkan {

GpaStatus PerformanceQueries::Allocate(std::uint32_t* query) {
  if (count_ == pools_.size() * kQueriesPerPool) {
    if (!pools_.empty() && !set_.multiple_pools) {
      return LogError(kGpaStatusErrorFailed,
                      "a command list with VK_KHR_performance_query counters may hold {} sample segments: a second "
                      "performance query pool in one command buffer needs performanceCounterMultipleQueryPools, "
                      "which this device does not support",
                      kQueriesPerPool);
    }
    VkQueryPoolPerformanceCreateInfoKHR performance{};
    performance.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR;
    performance.queueFamilyIndex = set_.queue_family;
    performance.counterIndexCount = static_cast<std::uint32_t>(set_.counter_indices.size());
    performance.pCounterIndices = set_.counter_indices.data();
    std::unique_ptr<QueryPool> pool;
    GpaStatus status = QueryPool::Create(functions_, device_, VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR, 0, kQueriesPerPool,
                                         &pool, &performance);
    if (status != kGpaStatusOk) return status;
    pools_.push_back(std::move(pool));
  }
  *query = count_++;
  available_.resize(count_, false);
  values_.resize(std::size_t{count_} * set_.counter_indices.size(), 0.0);
  return kGpaStatusOk;
}

void PerformanceQueries::Begin(VkCommandBuffer command_buffer, std::uint32_t query) {
  functions_.CmdBeginQuery(command_buffer, pools_[query / kQueriesPerPool]->handle(), query % kQueriesPerPool, 0);
}

void PerformanceQueries::End(VkCommandBuffer command_buffer, std::uint32_t query) {
  functions_.CmdEndQuery(command_buffer, pools_[query / kQueriesPerPool]->handle(), query % kQueriesPerPool);
}

GpaStatus PerformanceQueries::Read() {
  const std::size_t counters = set_.counter_indices.size();
  std::vector<VkPerformanceCounterResultKHR> results(counters);
  for (std::uint32_t query = 0; query < count_; ++query) {
    if (available_[query]) continue;  // final once read
    // One query per call: without an availability word, VK_NOT_READY for a range says nothing about its members.
    const VkResult result =
        functions_.GetQueryPoolResults(device_, pools_[query / kQueriesPerPool]->handle(), query % kQueriesPerPool, 1,
                                       counters * sizeof(VkPerformanceCounterResultKHR), results.data(),
                                       counters * sizeof(VkPerformanceCounterResultKHR), 0);
    if (result == VK_NOT_READY) continue;
    if (result != VK_SUCCESS) {
      return LogError(kGpaStatusErrorReadingSampleResult,
                      "vkGetQueryPoolResults on a VK_KHR_performance_query pool failed with VkResult {}",
                      static_cast<int>(result));
    }
    for (std::size_t c = 0; c < counters; ++c) {
      values_[std::size_t{query} * counters + c] = ValueOf(results[c], set_.storages[c]);
    }
    available_[query] = true;
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::vulkan
