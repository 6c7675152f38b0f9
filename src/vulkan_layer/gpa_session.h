// One VkGpaSessionAMD: the samples recorded into command buffers between vkCmdBeginGpaSessionAMD and
// vkCmdEndGpaSessionAMD, the queries that measure them, and their results.
//
//   timing sample      two timestamp queries, written at the stages of timingPreSample / timingPostSample;
//                      its result is the two raw GPU timestamps (ticks of timestampPeriod nanoseconds).
//   cumulative sample  one pipeline-statistics query around the sampled work, one VK_KHR_performance_query
//                      query where it asks for the driver's performance counters, and engine triggers of the GPU
//                      periodic sampler at its begin and end where it asks for the sampler's events
//                      (sampler_range.h); its result is one 64-bit value per requested counter, in the order of
//                      pPerfCounters (perf_blocks.h, performance_counters.h, sampler_events.h).
//   trace sample       refused: no device here produces SQTT or SPM data.
//
// A session created with a secondaryCopySource holds no queries: vkCmdCopyGpaSessionResultsAMD copies the
// source's query results into its buffer on the GPU (with the same sample ids), then resets the source's
// queries, so that a secondary command buffer sampled into the source may execute again.
//
// Every method is called with the device's mutex held, and only with arguments checked for shape by
// gpa_commands.cc; a call out of order is refused here with a log line naming the rule it breaks.
#ifndef OPENGPA_VULKAN_LAYER_GPA_SESSION_H_
#define OPENGPA_VULKAN_LAYER_GPA_SESSION_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "layer_objects.h"
#include "perf_blocks.h"
#include "query_pools.h"
#include "sampler_range.h"
#include "vk_amd_gpa_interface.h"

namespace opengpa::vklayer {

class GpaSession {
 public:
  GpaSession(DeviceData& device, GpaSession* copy_source);
  ~GpaSession();
  GpaSession(const GpaSession&) = delete;
  GpaSession& operator=(const GpaSession&) = delete;

  VkResult CmdBegin(VkCommandBuffer command_buffer, CommandBufferInfo& info);
  VkResult CmdEnd(VkCommandBuffer command_buffer, CommandBufferInfo& info);
  VkResult CmdBeginSample(VkCommandBuffer command_buffer, CommandBufferInfo& info, const VkGpaSampleBeginInfoAMD& begin,
                          std::uint32_t* sample_id);
  void CmdEndSample(VkCommandBuffer command_buffer, CommandBufferInfo& info, std::uint32_t sample_id);
  // This session is the destination; its secondaryCopySource the source.
  void CmdCopyResults(VkCommandBuffer command_buffer);
  // Ends, in `command_buffer`, the cumulative samples still open there (called when its recording ends).
  void CloseOpenSamples(VkCommandBuffer command_buffer);

  VkResult Status();
  VkResult Results(std::uint32_t sample_id, std::size_t* size_in_bytes, void* data);
  VkResult Reset();

  GpaSession* copy_source() const { return copy_source_; }

 private:
  enum class State { kReady, kRecording, kEnded };
  // Where one counter of a cumulative sample comes from: a pipeline statistic of the sample's statistics
  // query, or a value of its performance query.
  struct CounterSource {
    bool performance = false;
    bool sampled = false;  // an event of the GPU periodic sampler's block; position: index among the sample's events
    VkQueryPipelineStatisticFlagBits statistic = VK_QUERY_PIPELINE_STATISTIC_FLAG_BITS_MAX_ENUM;
    std::uint32_t position = 0;  // performance: index among the performance query's counters
    VkPerformanceCounterStorageKHR storage = VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR;
  };
  struct Sample {
    VkGpaSampleTypeAMD type = VK_GPA_SAMPLE_TYPE_TIMING_AMD;
    // timing: 2 timestamps; cumulative: 1 statistics query where it counts a statistic (else none)
    QueryRange queries;
    VkQueryPipelineStatisticFlags statistics = 0;  // of the cumulative sample's pool
    std::vector<CounterSource> counters;           // cumulative: in the order of pPerfCounters
    // cumulative with VK_KHR_performance_query counters: its performance query, the storage of each of the
    // query's counters, and its values once read (the driver's results are read once, as below).
    QueryRange performance;
    std::vector<VkPerformanceCounterStorageKHR> performance_storage;
    std::vector<std::uint64_t> performance_values;
    bool performance_known = false;
    // cumulative with the GPU periodic sampler's events: the range they are counted in, the triggers at the
    // sample's begin and end, each event's column in the range, and whether its values were dropped (the session
    // was reset or recorded again: the triggers are not the range's any more).
    std::shared_ptr<SamplerRange> sampler_range;
    std::uint64_t sampler_begin = 0;
    std::optional<std::uint64_t> sampler_end;
    std::vector<std::size_t> sampler_columns;
    bool sampler_dropped = false;
    VkPipelineStageFlagBits post_stage = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    VkCommandBuffer begun_in = VK_NULL_HANDLE;
    bool ended = false;
    bool abandoned = false;        // closed by the layer (never ended by the application): no results
    VkDeviceSize copy_offset = 0;  // where a copy destination holds this sample's queries
    // The values of the queries the driver has reported available, kept: each query is read from the driver
    // once. lavapipe's pipeline-statistics results change with every read (its llvmpipe adds the fragment
    // count again on each vkGetQueryPoolResults), and AMD's GPA reads the session status before each result.
    std::vector<std::uint64_t> known_values;  // WordsPerQuery - 1 per query
    std::vector<bool> known;                  // per query
  };

  // Ends a cumulative sample's queries, the performance query first (the reverse of their beginning).
  void EndCumulativeQueries(VkCommandBuffer command_buffer, const Sample& sample);
  std::size_t ResultSize(const Sample& sample) const;
  // Words per query as the copy writes them: the values, then the availability word.
  static std::uint32_t WordsPerQuery(const Sample& sample);
  // The sample's query values (from the copy, or from the driver, each available query read there once);
  // *available is false while some query has no final value.
  VkResult ReadQueries(Sample& sample, std::vector<std::uint64_t>* values, bool* available);
  // Forgets what was read: the queries are reset (and may be written again).
  void ForgetReadValues();
  bool EnsureCopyBuffer(VkDeviceSize size);
  void ReleaseCopyBuffer();
  QueryPools& StatisticsPools(bool graphics);
  // The performance query of a cumulative sample's VK_KHR_performance_query counters (indices of the
  // family's list, in the sample's order): VK_SUCCESS with the query begun, or the refusal (logged).
  VkResult BeginPerformanceQuery(VkCommandBuffer command_buffer, CommandBufferInfo& info,
                                 const std::vector<std::uint32_t>& counter_indices, Sample* sample);
  // The sample's performance values: VK_SUCCESS, VK_NOT_READY, or the driver's error.
  VkResult ReadPerformance(Sample& sample);
  // The range of a cumulative sample's GPU periodic sampler events (the sampler block's event ids, each once, in the
  // sample's order), with its begin trigger recorded: VK_SUCCESS, or the refusal (logged).
  VkResult BeginSamplerEvents(VkCommandBuffer command_buffer, const CommandBufferInfo& info,
                              const std::vector<std::uint32_t>& events, Sample* sample);
  // The sample's sampler values (doubles, by its events): VK_SUCCESS, VK_NOT_READY, or the refusal (logged).
  VkResult ReadSampler(const Sample& sample, std::vector<double>* values);
  // The samples' triggers are no longer awaited by their ranges (reset, recorded again, destroyed).
  void ReleaseSamplerTriggers();

  DeviceData& device_;
  GpaSession* copy_source_;
  State state_ = State::kReady;
  bool recorded_ = false;  // ended (or copied into) since the last vkCmdBeginGpaSessionAMD: results may come
  std::vector<Sample> samples_;
  // Sampler ranges with triggers in the recording under way: each gets a last boundary at vkCmdEndGpaSessionAMD.
  std::vector<std::shared_ptr<SamplerRange>> recording_ranges_;
  QueryPools timestamps_;
  std::unique_ptr<QueryPools> graphics_statistics_;
  std::unique_ptr<QueryPools> compute_statistics_;
  // By queue family and counter indices (a performance query pool counts one fixed set).
  std::map<std::pair<std::uint32_t, std::vector<std::uint32_t>>, std::unique_ptr<QueryPools>> performance_pools_;
  // Copy destinations only: host-visible, coherent, mapped; zero until the copy has run.
  VkBuffer copy_buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory copy_memory_ = VK_NULL_HANDLE;
  VkDeviceSize copy_size_ = 0;
  std::uint64_t* copy_words_ = nullptr;
  bool copied_ = false;
};

// The single stage a timestamp is written at for a VkGpaSampleBeginInfoAMD stage mask: one stage as given;
// several graphics stages, the last of them in pipeline order; any other mix, BOTTOM_OF_PIPE (the timestamp
// must wait for every stage named). Graphics stages on a queue without graphics become COMPUTE_SHADER.
VkPipelineStageFlagBits TimestampStage(VkPipelineStageFlags mask, VkQueueFlags queue_flags);

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_GPA_SESSION_H_
