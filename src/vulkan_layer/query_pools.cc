#include "query_pools.h"

#include <utility>

#include "layer_log.h"
#include "layer_objects.h"

namespace opengpa::vklayer {

QueryPools::QueryPools(DeviceData& device, VkQueryType type, VkQueryPipelineStatisticFlags statistics)
    : device_(device), type_(type), statistics_(statistics) {}

QueryPools::QueryPools(DeviceData& device, std::uint32_t queue_family, std::vector<std::uint32_t> counter_indices)
    : device_(device),
      type_(VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR),
      statistics_(0),
      queue_family_(queue_family),
      counter_indices_(std::move(counter_indices)) {}

std::uint32_t QueryPools::QueriesPerPool() const {
  return type_ == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR ? kPerformanceQueriesPerPool : kQueriesPerPool;
}

QueryPools::~QueryPools() {
  for (VkQueryPool pool : pools_) device_.DestroyQueryPool(device_.device, pool, nullptr);
}

bool QueryPools::Take(std::uint32_t count, QueryRange* range) {
  const std::uint32_t per_pool = QueriesPerPool();
  if (count == 0 || count > per_pool) return false;
  if (current_ < pools_.size() && used_in_last_ + count > per_pool) {
    ++current_;
    used_in_last_ = 0;
  }
  if (current_ >= pools_.size()) {
    VkQueryPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    info.queryType = type_;
    info.queryCount = per_pool;
    info.pipelineStatistics = type_ == VK_QUERY_TYPE_PIPELINE_STATISTICS ? statistics_ : 0;
    VkQueryPoolPerformanceCreateInfoKHR performance{};
    if (type_ == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR) {
      performance.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR;
      performance.queueFamilyIndex = queue_family_;
      performance.counterIndexCount = static_cast<std::uint32_t>(counter_indices_.size());
      performance.pCounterIndices = counter_indices_.data();
      info.pNext = &performance;
    }
    VkQueryPool pool = VK_NULL_HANDLE;
    const VkResult result = device_.CreateQueryPool(device_.device, &info, nullptr, &pool);
    if (result != VK_SUCCESS) {
      LogProblem("vkCreateQueryPool failed (VkResult " + std::to_string(result) + "): no room for more samples");
      return false;
    }
    device_.ResetQueryPool(device_.device, pool, 0, per_pool);
    pools_.push_back(pool);
    current_ = pools_.size() - 1;
    used_in_last_ = 0;
  }
  range->pool = pools_[current_];
  range->first = used_in_last_;
  range->count = count;
  used_in_last_ += count;
  return true;
}

void QueryPools::ResetAll() {
  for (VkQueryPool pool : pools_) device_.ResetQueryPool(device_.device, pool, 0, QueriesPerPool());
  current_ = 0;
  used_in_last_ = 0;
}

}  // namespace opengpa::vklayer
