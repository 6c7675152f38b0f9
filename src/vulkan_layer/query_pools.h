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
  ~QueryPools();
  QueryPools(const QueryPools&) = delete;
  QueryPools& operator=(const QueryPools&) = delete;

  // `count` consecutive queries of one pool; false (and a log line) when the driver cannot create a pool.
  bool Take(std::uint32_t count, QueryRange* range);
  // Resets every query from the host and makes them all free again.
  void ResetAll();

  VkQueryPipelineStatisticFlags statistics() const { return statistics_; }

 private:
  static constexpr std::uint32_t kQueriesPerPool = 256;
  DeviceData& device_;
  VkQueryType type_;
  VkQueryPipelineStatisticFlags statistics_;
  std::vector<VkQueryPool> pools_;
  std::uint32_t used_in_last_ = 0;
  std::size_t current_ = 0;  // the pool queries are taken from
};

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_QUERY_POOLS_H_
