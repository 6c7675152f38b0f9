#include "backends/vulkan/vulkan_query_pool.h"

#include <algorithm>
#include <bitset>

#include "platform/logging.h"

namespace opengpa::vulkan {

GpaStatus QueryPool::Create(const DeviceFunctions& functions, VkDevice device, VkQueryType type,
                            VkQueryPipelineStatisticFlags statistics, std::uint32_t count,
                            std::unique_ptr<QueryPool>* out, const void* next) {
  VkQueryPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  info.pNext = next;
  info.queryType = type;
  info.queryCount = count;
  info.pipelineStatistics = statistics;
  VkQueryPool pool = VK_NULL_HANDLE;
  VkResult result = functions.CreateQueryPool(device, &info, nullptr, &pool);
  if (result != VK_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "vkCreateQueryPool (type {}, {} queries) failed with VkResult {}",
                    static_cast<int>(type), count, static_cast<int>(result));
  }
  functions.ResetQueryPool(device, pool, 0, count);
  *out = std::make_unique<QueryPool>(functions, device, pool);
  return kGpaStatusOk;
}

QueryPool::~QueryPool() { functions_.DestroyQueryPool(device_, pool_, nullptr); }

EntryPools::EntryPools(const DeviceFunctions& functions, VkDevice device, bool timestamps,
                       VkQueryPipelineStatisticFlags statistics)
    : functions_(functions),
      device_(device),
      timestamps_(timestamps),
      statistics_(statistics),
      statistic_count_(static_cast<std::uint32_t>(std::bitset<32>(statistics).count())) {}

GpaStatus EntryPools::Allocate(std::uint32_t* entry) {
  if (entry_count_ == chunks_.size() * kEntriesPerChunk) {
    Chunk chunk;
    if (timestamps_) {
      GpaStatus status =
          QueryPool::Create(functions_, device_, VK_QUERY_TYPE_TIMESTAMP, 0, 3 * kEntriesPerChunk, &chunk.timestamps);
      if (status != kGpaStatusOk) return status;
    }
    if (statistics_ != 0) {
      GpaStatus status = QueryPool::Create(functions_, device_, VK_QUERY_TYPE_PIPELINE_STATISTICS, statistics_,
                                           kEntriesPerChunk, &chunk.statistics);
      if (status != kGpaStatusOk) return status;
    }
    chunks_.push_back(std::move(chunk));
  }
  *entry = entry_count_++;
  return kGpaStatusOk;
}

void EntryPools::WriteTimestamp(VkCommandBuffer command_buffer, std::uint32_t entry, TimestampRole role) {
  if (!timestamps_) return;
  const Chunk& chunk = chunks_[entry / kEntriesPerChunk];
  const std::uint32_t query = 3 * (entry % kEntriesPerChunk) + static_cast<std::uint32_t>(role);
  const VkPipelineStageFlagBits stage =
      role == TimestampRole::kTopBefore ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
  functions_.CmdWriteTimestamp(command_buffer, stage, chunk.timestamps->handle(), query);
}

void EntryPools::BeginStatistics(VkCommandBuffer command_buffer, std::uint32_t entry) {
  if (statistics_ == 0) return;
  functions_.CmdBeginQuery(command_buffer, chunks_[entry / kEntriesPerChunk].statistics->handle(),
                           entry % kEntriesPerChunk, 0);
}

void EntryPools::EndStatistics(VkCommandBuffer command_buffer, std::uint32_t entry) {
  if (statistics_ == 0) return;
  functions_.CmdEndQuery(command_buffer, chunks_[entry / kEntriesPerChunk].statistics->handle(),
                         entry % kEntriesPerChunk);
}

namespace {

// Calls read(first, count) for each run of consecutive queries in [begin, end) not yet available.
template <typename ReadRun>
GpaStatus ForEachUnavailableRun(const std::vector<bool>& available, std::uint32_t begin, std::uint32_t end,
                                ReadRun&& read) {
  std::uint32_t q = begin;
  while (q < end) {
    if (available[q]) {
      ++q;
      continue;
    }
    std::uint32_t run_end = q;
    while (run_end < end && !available[run_end]) ++run_end;
    GpaStatus status = read(q, run_end - q);
    if (status != kGpaStatusOk) return status;
    q = run_end;
  }
  return kGpaStatusOk;
}

}  // namespace

GpaStatus EntryPools::Read(EntryResults* out) {
  // No VK_QUERY_RESULT_WAIT_BIT: a query whose command buffer is never submitted would block forever.
  // Availability words tell, per query, whether the value is final. A query once available is not read again:
  // its value is final, and lavapipe's pipeline-statistics results change with every read (llvmpipe adds the
  // fragment count again each time), so a pass polled between its submissions would count fragments twice.
  constexpr VkQueryResultFlags kFlags = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
  const std::size_t timestamp_count = timestamps_ ? 3 * std::size_t{entry_count_} : 0;
  if (out->timestamps.size() != timestamp_count) {
    out->timestamps.assign(timestamp_count, 0);
    out->timestamp_available.assign(timestamp_count, false);
  }
  const std::size_t statistic_values = statistics_ != 0 ? std::size_t{statistic_count_} * entry_count_ : 0;
  if (out->statistics.size() != statistic_values ||
      out->statistics_available.size() != (statistics_ != 0 ? entry_count_ : 0)) {
    out->statistics.assign(statistic_values, 0);
    out->statistics_available.assign(statistics_ != 0 ? entry_count_ : 0, false);
  }
  std::vector<std::uint64_t> words;
  for (std::uint32_t c = 0; c < chunks_.size(); ++c) {
    const std::uint32_t first_entry = c * kEntriesPerChunk;
    const std::uint32_t entries = std::min(kEntriesPerChunk, entry_count_ - first_entry);
    if (timestamps_) {
      GpaStatus status = ForEachUnavailableRun(
          out->timestamp_available, 3 * first_entry, 3 * (first_entry + entries),
          [&](std::uint32_t first, std::uint32_t count) {
            words.assign(2 * std::size_t{count}, 0);
            VkResult result = functions_.GetQueryPoolResults(
                device_, chunks_[c].timestamps->handle(), first - 3 * first_entry, count,
                words.size() * sizeof(std::uint64_t), words.data(), 2 * sizeof(std::uint64_t), kFlags);
            if (result != VK_SUCCESS && result != VK_NOT_READY) {
              return LogError(kGpaStatusErrorReadingSampleResult,
                              "vkGetQueryPoolResults on timestamp pool {} failed with VkResult {}", c,
                              static_cast<int>(result));
            }
            for (std::uint32_t q = 0; q < count; ++q) {
              out->timestamps[first + q] = words[2 * std::size_t{q}];
              out->timestamp_available[first + q] = words[2 * std::size_t{q} + 1] != 0;
            }
            return kGpaStatusOk;
          });
      if (status != kGpaStatusOk) return status;
    }
    if (statistics_ != 0) {
      const std::uint32_t stride = statistic_count_ + 1;
      GpaStatus status = ForEachUnavailableRun(
          out->statistics_available, first_entry, first_entry + entries, [&](std::uint32_t first, std::uint32_t count) {
            words.assign(std::size_t{stride} * count, 0);
            VkResult result = functions_.GetQueryPoolResults(
                device_, chunks_[c].statistics->handle(), first - first_entry, count,
                words.size() * sizeof(std::uint64_t), words.data(), stride * sizeof(std::uint64_t), kFlags);
            if (result != VK_SUCCESS && result != VK_NOT_READY) {
              return LogError(kGpaStatusErrorReadingSampleResult,
                              "vkGetQueryPoolResults on pipeline-statistics pool {} failed with VkResult {}", c,
                              static_cast<int>(result));
            }
            for (std::uint32_t e = 0; e < count; ++e) {
              for (std::uint32_t s = 0; s < statistic_count_; ++s) {
                out->statistics[(first + e) * std::size_t{statistic_count_} + s] = words[e * stride + s];
              }
              out->statistics_available[first + e] = words[e * stride + statistic_count_] != 0;
            }
            return kGpaStatusOk;
          });
      if (status != kGpaStatusOk) return status;
    }
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::vulkan
