// RAII for VkQueryPool, and the growing set of query pools one command list records its samples into.
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_QUERY_POOL_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_QUERY_POOL_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "backends/vulkan/vulkan_functions.h"
#include "backends/vulkan/vulkan_sample_recorder.h"

namespace opengpa::vulkan {

class QueryPool {
 public:
  // Creates a pool and resets it from the host, so it can be written by any command buffer straight away.
  // `next`: the create info's pNext chain (VkQueryPoolPerformanceCreateInfoKHR for performance queries).
  static GpaStatus Create(const DeviceFunctions& functions, VkDevice device, VkQueryType type,
                          VkQueryPipelineStatisticFlags statistics, std::uint32_t count,
                          std::unique_ptr<QueryPool>* out, const void* next = nullptr);
  QueryPool(const DeviceFunctions& functions, VkDevice device, VkQueryPool pool)  // takes ownership of `pool`
      : functions_(functions), device_(device), pool_(pool) {}
  ~QueryPool();
  QueryPool(const QueryPool&) = delete;
  QueryPool& operator=(const QueryPool&) = delete;

  VkQueryPool handle() const { return pool_; }

 private:
  const DeviceFunctions& functions_;
  VkDevice device_;
  VkQueryPool pool_;
};

// The core-query recorder: each entry's three timestamps and statistics query live in chunks of pools that are
// added as samples grow, so a command list never has to be re-recorded for lack of queries.
class EntryPools final : public SampleRecorder {
 public:
  static constexpr std::uint32_t kEntriesPerChunk = 64;

  EntryPools(const DeviceFunctions& functions, VkDevice device, bool timestamps,
             VkQueryPipelineStatisticFlags statistics);

  // The next unused entry, adding a chunk of pools when the current ones are full.
  GpaStatus Allocate(std::uint32_t* entry) override;

  void WriteTimestamp(VkCommandBuffer command_buffer, std::uint32_t entry, TimestampRole role) override;
  void BeginStatistics(VkCommandBuffer command_buffer, std::uint32_t entry) override;
  void EndStatistics(VkCommandBuffer command_buffer, std::uint32_t entry) override;

  GpaStatus Read(EntryResults* out) override;

  std::uint32_t entry_count() const override { return entry_count_; }
  std::uint32_t statistic_count() const override { return statistic_count_; }

 private:
  struct Chunk {
    std::unique_ptr<QueryPool> timestamps;
    std::unique_ptr<QueryPool> statistics;
  };
  const DeviceFunctions& functions_;
  VkDevice device_;
  bool timestamps_;
  VkQueryPipelineStatisticFlags statistics_;
  std::uint32_t statistic_count_;
  std::vector<Chunk> chunks_;
  std::uint32_t entry_count_ = 0;
};

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_QUERY_POOL_H_
