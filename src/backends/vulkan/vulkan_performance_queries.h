// The VK_KHR_performance_query queries one command list records: one query per sample segment, from pools created
// for the counters of the list's GPA pass (vulkan_performance_counters.h), read back without waiting.
//
// What the extension asks of its user, and how it is met here:
//   - the profiling lock is held from before the command buffer began recording until it has run: the context takes
//     it when it opens and releases it when it closes (VulkanContext);
//   - a pool's counters are collected in one driver pass, so the application's plain vkQueueSubmit (counterPassIndex
//     0) is all a GPA pass needs;
//   - a pool belongs to one queue family: the command buffer must come from a command pool of that family;
//   - queries are reset from the host when the pool is made, never in the command buffer that begins them;
//   - results are read with no 64-bit, availability or partial flag, stride = counters x the result union;
//   - a second pool in one command buffer (a list with more than kQueriesPerPool samples) needs
//     performanceCounterMultipleQueryPools, which is checked before it is made.
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_PERFORMANCE_QUERIES_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_PERFORMANCE_QUERIES_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "backends/vulkan/vulkan_functions.h"
#include "backends/vulkan/vulkan_query_pool.h"

namespace opengpa::vulkan {

// What the pools of one GPA pass count.
struct PerformanceQuerySet {
  std::uint32_t queue_family = 0;
  std::vector<std::uint32_t> counter_indices;            // the driver's indices, in result order
  std::vector<VkPerformanceCounterStorageKHR> storages;  // likewise
  bool multiple_pools = false;                           // the device supports performanceCounterMultipleQueryPools
};

class PerformanceQueries {
 public:
  static constexpr std::uint32_t kQueriesPerPool = 256;

  PerformanceQueries(const DeviceFunctions& functions, VkDevice device, const PerformanceQuerySet& set)
      : functions_(functions), device_(device), set_(set) {}

  // The next unused query, adding a pool when the current ones are full.
  GpaStatus Allocate(std::uint32_t* query);
  void Begin(VkCommandBuffer command_buffer, std::uint32_t query);
  void End(VkCommandBuffer command_buffer, std::uint32_t query);

  // Reads every query not yet read; one the GPU has not finished stays unavailable. Values are per query, in the
  // set's counter order.
  GpaStatus Read();
  bool Available(std::uint32_t query) const { return query < available_.size() && available_[query]; }
  double Value(std::uint32_t query, std::size_t counter) const {
    return values_[static_cast<std::size_t>(query) * set_.counter_indices.size() + counter];
  }

 private:
  const DeviceFunctions& functions_;
  VkDevice device_;
  const PerformanceQuerySet& set_;  // owned by the session's plan, which outlives its lists
  std::vector<std::unique_ptr<QueryPool>> pools_;
  std::uint32_t count_ = 0;
  std::vector<bool> available_;
  std::vector<double> values_;
};

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_PERFORMANCE_QUERIES_H_
