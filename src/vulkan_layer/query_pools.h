// Growing sets of Vulkan query pools of one kind (timestamps, or pipeline statistics of one set of flags):
// a GPA session takes query ranges from them as samples are recorded, without knowing how many samples
// will come. Every pool is reset from the host when created and when the session is reset, so a query is
// always reset before its first use (hostQueryReset, which the layer enables on the device).
#ifndef OPENGPA_VULKAN_LAYER_QUERY_POOLS_H_
#define OPENGPA_VULKAN_LAYER_QUERY_POOLS_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace opengpa::vklayer {

struct DeviceData;

struct QueryRange {
  VkQueryPool pool = VK_NULL_HANDLE;
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};

class QueryPools {
 public:
  QueryPools(DeviceData& device, VkQueryType type, VkQueryPipelineStatisticFlags statistics);
  // VK_KHR_performance_query pools counting `counter_indices` of `queue_family`'s list.
  QueryPools(DeviceData& device, std::uint32_t queue_family, std::vector<std::uint32_t> counter_indices);
  ~QueryPools();
  QueryPools(const QueryPools&) = delete;
  QueryPools& operator=(const QueryPools&) = delete;

  // `count` consecutive queries of one pool; false (and a log line) when the driver cannot create a pool.
  bool Take(std::uint32_t count, QueryRange* range);
  // Resets every query from the host and makes them all free again.
  void ResetAll();

  VkQueryPipelineStatisticFlags statistics() const { return statistics_; }

 private:
  std::uint32_t QueriesPerPool() const;
  static constexpr std::uint32_t kQueriesPerPool = 256;
  // Performance queries can be large (every counter of a query is kept by the driver): smaller pools.
  static constexpr std::uint32_t kPerformanceQueriesPerPool = 32;
  DeviceData& device_;
  VkQueryType type_;
  VkQueryPipelineStatisticFlags statistics_;
  std::uint32_t queue_family_ = 0;
  std::vector<std::uint32_t> counter_indices_;
  std::vector<VkQueryPool> pools_;
  std::uint32_t used_in_last_ = 0;
  std::size_t current_ = 0;  // the pool queries are taken from
};

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_QUERY_POOLS_H_
