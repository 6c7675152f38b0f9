#include "gpa_session.h"

#include <algorithm>
#include <bitset>
#include <cstring>
#include <string>

#include "device_sampler.h"
#include "layer_log.h"
#include "performance_counters.h"
#include "platform/enum_argument.h"
#include "vk_gpa_interface_sampler_counters.h"

namespace opengpa::vklayer {
namespace {

constexpr VkQueryResultFlags kCopyFlags =
    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;

std::string SampleName(std::uint32_t sample_id) { return "sample " + std::to_string(sample_id); }

}  // namespace

VkPipelineStageFlagBits TimestampStage(VkPipelineStageFlags mask, VkQueueFlags queue_flags) {
  // Graphics stages in pipeline order.
  static constexpr VkPipelineStageFlagBits kGraphicsOrder[] = {
      VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
      VK_PIPELINE_STAGE_VERTEX_INPUT_BIT,
      VK_PIPELINE_STAGE_VERTEX_SHADER_BIT,
      VK_PIPELINE_STAGE_TESSELLATION_CONTROL_SHADER_BIT,
      VK_PIPELINE_STAGE_TESSELLATION_EVALUATION_SHADER_BIT,
      VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT,
      VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT,
      VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
      VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
      VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
  };
  VkPipelineStageFlags graphics_bits = 0;
  for (VkPipelineStageFlagBits stage : kGraphicsOrder) graphics_bits |= stage;
  const bool has_graphics = (queue_flags & VK_QUEUE_GRAPHICS_BIT) != 0;
  if (std::bitset<32>(mask).count() == 1) {
    const auto stage = static_cast<VkPipelineStageFlagBits>(mask);
    if ((mask & graphics_bits) != 0 && !has_graphics && stage != VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT) {
      return VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    }
    if (stage == VK_PIPELINE_STAGE_HOST_BIT || stage == VK_PIPELINE_STAGE_ALL_COMMANDS_BIT ||
        stage == VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT) {
      return VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    }
    return stage;
  }
  const VkPipelineStageFlags without_top = mask & ~static_cast<VkPipelineStageFlags>(VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
  if (without_top != 0 && (without_top & ~graphics_bits) == 0 && has_graphics) {
    VkPipelineStageFlagBits last = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    for (VkPipelineStageFlagBits stage : kGraphicsOrder) {
      if (without_top & stage) last = stage;
    }
    return last;
  }
  return VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
}

GpaSession::GpaSession(DeviceData& device, GpaSession* copy_source)
    : device_(device), copy_source_(copy_source), timestamps_(device, VK_QUERY_TYPE_TIMESTAMP, 0) {}

GpaSession::~GpaSession() {
  ReleaseSamplerTriggers();
  ReleaseCopyBuffer();
}

void GpaSession::ReleaseSamplerTriggers() {
  for (Sample& sample : samples_) {
    if (sample.sampler_range == nullptr || sample.sampler_dropped) continue;
    std::vector<std::uint64_t> keys = {sample.sampler_begin};
    if (sample.sampler_end) keys.push_back(*sample.sampler_end);
    sample.sampler_range->Forget(keys);
    sample.sampler_dropped = true;
  }
}

VkResult GpaSession::BeginSamplerEvents(VkCommandBuffer command_buffer, const CommandBufferInfo& info,
                                        const std::vector<std::uint32_t>& events, Sample* sample) {
  if (info.secondary) {
    // A secondary may run several times, or never, for one recording: its triggers could not be placed.
    LogProblem(
        "vkCmdBeginGpaSampleAMD: the GPU periodic sampler's counters are counted only in primary command "
        "buffers");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  const VkResult result = device_.sampler->RangeFor(events, &sample->sampler_range, &sample->sampler_columns);
  if (result != VK_SUCCESS) return result;
  if (!sample->sampler_range->RecordBoundary(command_buffer, &sample->sampler_begin)) {
    sample->sampler_range.reset();
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  if (std::find(recording_ranges_.begin(), recording_ranges_.end(), sample->sampler_range) == recording_ranges_.end()) {
    recording_ranges_.push_back(sample->sampler_range);
  }
  return VK_SUCCESS;
}

VkResult GpaSession::ReadSampler(const Sample& sample, std::vector<double>* values) {
  if (sample.sampler_dropped) {
    LogProblem(
        "vkGetGpaSessionResultsAMD: a sample's GPU periodic sampler counters are counted once, in the "
        "execution that follows its recording; the session was reset since: record it again");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  if (!sample.sampler_end) {
    LogProblem("vkGetGpaSessionResultsAMD: the sample's end trigger could not be recorded: no hardware counters");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  const VkResult polled = sample.sampler_range->Poll();
  if (polled != VK_SUCCESS) return polled;
  return sample.sampler_range->Values(sample.sampler_begin, *sample.sampler_end, sample.sampler_columns, values);
}

QueryPools& GpaSession::StatisticsPools(bool graphics) {
  std::unique_ptr<QueryPools>& pools = graphics ? graphics_statistics_ : compute_statistics_;
  if (!pools) {
    const VkQueryPipelineStatisticFlags statistics =
        graphics
            ? AllStatistics()
            : static_cast<VkQueryPipelineStatisticFlags>(VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT);
    pools = std::make_unique<QueryPools>(device_, VK_QUERY_TYPE_PIPELINE_STATISTICS, statistics);
  }
  return *pools;
}

VkResult GpaSession::BeginPerformanceQuery(VkCommandBuffer command_buffer, CommandBufferInfo& info,
                                           const std::vector<std::uint32_t>& counter_indices, Sample* sample) {
  (void)command_buffer;
  if (info.secondary) {
    // A performance query may be neither reset nor copied in the command buffer that runs it, which is
    // what vkCmdCopyGpaSessionResultsAMD does for a secondary's samples.
    LogProblem("vkCmdBeginGpaSampleAMD: VK_KHR_performance_query counters are counted only in primary command buffers");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  VkQueryPoolPerformanceCreateInfoKHR create{};
  create.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR;
  create.queueFamilyIndex = info.queue_family;
  create.counterIndexCount = static_cast<std::uint32_t>(counter_indices.size());
  create.pCounterIndices = counter_indices.data();
  std::uint32_t passes = 0;
  if (device_.instance->GetQueueFamilyPerformanceQueryPasses != nullptr) {
    device_.instance->GetQueueFamilyPerformanceQueryPasses(device_.physical_device, &create, &passes);
  }
  if (passes != 1) {
    // A GPA session records its command buffers once and the application submits them once: there is no
    // replay for the driver's further passes (VkPerformanceQuerySubmitInfoKHR::counterPassIndex).
    LogProblem("vkCmdBeginGpaSampleAMD: the driver needs " + std::to_string(passes) + " passes to count these " +
               std::to_string(counter_indices.size()) +
               " performance counters together, and a GPA session is recorded and submitted once: sample "
               "fewer counters at a time");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  std::unique_ptr<QueryPools>& pools = performance_pools_[{info.queue_family, counter_indices}];
  if (!pools) pools = std::make_unique<QueryPools>(device_, info.queue_family, counter_indices);
  QueryRange range;
  if (!pools->Take(1, &range)) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  if (!device_.multiple_performance_pools && info.performance_pool != VK_NULL_HANDLE &&
      info.performance_pool != range.pool) {
    LogProblem(
        "vkCmdBeginGpaSampleAMD: the device counts performance counters with one query pool per command buffer "
        "(no performanceCounterMultipleQueryPools), and this command buffer already samples another set");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  info.performance_pool = range.pool;
  sample->performance = range;
  for (std::uint32_t index : counter_indices) {
    VkPerformanceCounterStorageKHR storage = VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR;
    for (const PublishedPerformanceCounter& published : device_.performance_counters) {
      if (info.queue_family < published.index_in_family.size() &&
          published.index_in_family[info.queue_family] == static_cast<std::int32_t>(index)) {
        storage = published.counter.storage;
      }
    }
    sample->performance_storage.push_back(storage);
  }
  return VK_SUCCESS;
}

VkResult GpaSession::ReadPerformance(Sample& sample) {
  if (sample.performance.count == 0 || sample.performance_known) return VK_SUCCESS;
  // Performance queries report no availability word: VK_NOT_READY says the values are not there yet.
  std::vector<VkPerformanceCounterResultKHR> results(sample.performance_storage.size());
  const std::size_t size = results.size() * sizeof(VkPerformanceCounterResultKHR);
  const VkResult result = device_.GetQueryPoolResults(device_.device, sample.performance.pool, sample.performance.first,
                                                      1, size, results.data(), size, 0);
  if (result != VK_SUCCESS) return result;
  sample.performance_values.clear();
  for (std::size_t i = 0; i < results.size(); ++i) {
    sample.performance_values.push_back(WidenedResult(sample.performance_storage[i], results[i]));
  }
  sample.performance_known = true;
  return VK_SUCCESS;
}

VkResult GpaSession::CmdBegin(VkCommandBuffer command_buffer, CommandBufferInfo& info) {
  if (copy_source_ != nullptr) {
    LogProblem(
        "vkCmdBeginGpaSessionAMD: this session was created with a secondaryCopySource; it only receives "
        "results through vkCmdCopyGpaSessionResultsAMD");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  if (state_ != State::kReady) {
    LogProblem(
        "vkCmdBeginGpaSessionAMD: the session was already begun; call vkResetGpaSessionAMD before reusing "
        "it (VUID-vkCmdBeginGpaSessionAMD-gpaSession-12409)");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  if (info.open_session != nullptr) {
    LogProblem(
        "vkCmdBeginGpaSessionAMD: another GPA session begun in this command buffer has not been ended "
        "(VUID-vkCmdBeginGpaSessionAMD-commandBuffer-12410)");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  (void)command_buffer;
  ReleaseSamplerTriggers();
  samples_.clear();
  recording_ranges_.clear();
  timestamps_.ResetAll();
  if (graphics_statistics_) graphics_statistics_->ResetAll();
  if (compute_statistics_) compute_statistics_->ResetAll();
  for (auto& [key, pools] : performance_pools_) pools->ResetAll();
  state_ = State::kRecording;
  recorded_ = false;
  info.open_session = this;
  return VK_SUCCESS;
}

VkResult GpaSession::CmdEnd(VkCommandBuffer command_buffer, CommandBufferInfo& info) {
  if (state_ != State::kRecording) {
    LogProblem("vkCmdEndGpaSessionAMD: the session is not begun");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  CloseOpenSamples(command_buffer);
  info.sessions_with_open_samples.erase(this);
  for (const std::shared_ptr<SamplerRange>& range : recording_ranges_) range->RecordEnd(command_buffer);
  recording_ranges_.clear();
  for (std::uint32_t id = 0; id < samples_.size(); ++id) {
    Sample& sample = samples_[id];
    if (!sample.ended && !sample.abandoned) {
      // A timing sample never ended, or a cumulative one open in another command buffer (closed when that
      // recording ends): it has no result.
      LogProblem("vkCmdEndGpaSessionAMD: " + SampleName(id) + " was never ended; it will have no result");
      sample.abandoned = true;
    }
  }
  if (info.open_session == this) info.open_session = nullptr;
  state_ = State::kEnded;
  recorded_ = true;
  return VK_SUCCESS;
}

VkResult GpaSession::CmdBeginSample(VkCommandBuffer command_buffer, CommandBufferInfo& info,
                                    const VkGpaSampleBeginInfoAMD& begin, std::uint32_t* sample_id) {
  if (state_ != State::kRecording) {
    LogProblem("vkCmdBeginGpaSampleAMD: the session is not begun (call vkCmdBeginGpaSessionAMD first)");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  Sample sample;
  // Enum fields are read as ints: a C caller may store any value, and loading it as the enum is undefined.
  const int sample_type = EnumArgument(begin.sampleType);
  if (sample_type == VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD || sample_type == VK_GPA_SAMPLE_TYPE_TIMING_AMD) {
    sample.type = static_cast<VkGpaSampleTypeAMD>(sample_type);
  }
  sample.begun_in = command_buffer;
  const auto id = static_cast<std::uint32_t>(samples_.size());
  switch (sample_type) {
    case VK_GPA_SAMPLE_TYPE_TRACE_AMD:
      LogProblem(
          "vkCmdBeginGpaSampleAMD: trace samples (SQTT, SPM) are not supported on this device: "
          "VkPhysicalDeviceGpaFeaturesAMD::sqThreadTracing and ::streamingPerfCounters are VK_FALSE");
      return VK_ERROR_FEATURE_NOT_PRESENT;
    case VK_GPA_SAMPLE_TYPE_TIMING_AMD: {
      if (begin.timingPreSample == 0 || begin.timingPostSample == 0) {
        LogProblem("vkCmdBeginGpaSampleAMD: timingPreSample and timingPostSample must not be 0");
        return VK_ERROR_VALIDATION_FAILED_EXT;
      }
      const std::uint32_t family = info.queue_family;
      if (family >= device_.queue_families.size() || device_.queue_families[family].timestampValidBits == 0) {
        LogProblem("vkCmdBeginGpaSampleAMD: the command buffer's queue family writes no timestamps");
        return VK_ERROR_FEATURE_NOT_PRESENT;
      }
      if (!timestamps_.Take(2, &sample.queries)) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
      sample.post_stage = TimestampStage(begin.timingPostSample, info.queue_flags);
      device_.CmdWriteTimestamp(command_buffer, TimestampStage(begin.timingPreSample, info.queue_flags),
                                sample.queries.pool, sample.queries.first);
      break;
    }
    case VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD: {
      if (begin.perfCounterCount == 0 || begin.pPerfCounters == nullptr) {
        LogProblem("vkCmdBeginGpaSampleAMD: a cumulative sample needs perfCounterCount > 0 and pPerfCounters");
        return VK_ERROR_VALIDATION_FAILED_EXT;
      }
      const bool graphics = (info.queue_flags & VK_QUEUE_GRAPHICS_BIT) != 0;
      std::vector<std::uint32_t> performance_indices;  // in the family's list, in the sample's order
      std::vector<std::uint32_t> sampler_events;       // the sampler block's events, each once, in the sample's order
      for (std::uint32_t i = 0; i < begin.perfCounterCount; ++i) {
        const VkGpaPerfCounterAMD& counter = begin.pPerfCounters[i];
        const int block = EnumArgument(counter.blockType);
        const std::string what = "pPerfCounters[" + std::to_string(i) + "] (block " + std::to_string(block) +
                                 ", instance " + std::to_string(counter.blockInstance) + ", event " +
                                 std::to_string(counter.eventID) + ")";
        CounterSource source;
        if (block == OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER && counter.blockInstance == 0 &&
            DeviceSamplerOf(device_) != nullptr && counter.eventID < device_.sampler->EventCount()) {
          source.sampled = true;
          const auto known = std::find(sampler_events.begin(), sampler_events.end(), counter.eventID);
          source.position = static_cast<std::uint32_t>(known - sampler_events.begin());
          if (known == sampler_events.end()) sampler_events.push_back(counter.eventID);
        } else if (block == OPENGPA_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY && counter.blockInstance == 0 &&
                   counter.eventID < device_.performance_counters.size()) {
          const PublishedPerformanceCounter& published = device_.performance_counters[counter.eventID];
          const std::int32_t index =
              info.queue_family < published.index_in_family.size() ? published.index_in_family[info.queue_family] : -1;
          if (index < 0) {
            LogProblem("vkCmdBeginGpaSampleAMD: " + what + ", " + published.name +
                       ", is not offered on the command buffer's queue family");
            return VK_ERROR_FEATURE_NOT_PRESENT;
          }
          source.performance = true;
          source.storage = published.counter.storage;
          const auto known =
              std::find(performance_indices.begin(), performance_indices.end(), static_cast<std::uint32_t>(index));
          source.position = static_cast<std::uint32_t>(known - performance_indices.begin());
          if (known == performance_indices.end()) performance_indices.push_back(static_cast<std::uint32_t>(index));
        } else {
          const std::optional<PipelineStatisticEvent> event = FindEvent(block, counter.eventID);
          if (!event || counter.blockInstance != 0) {
            LogProblem("vkCmdBeginGpaSampleAMD: " + what +
                       " is not a counter of this device (see VkPhysicalDeviceGpaPropertiesAMD::pPerfBlocks)");
            return VK_ERROR_FEATURE_NOT_PRESENT;
          }
          if (!device_.pipeline_statistics) {
            LogProblem("vkCmdBeginGpaSampleAMD: the device has no pipeline-statistics queries, so no " +
                       std::string(event->name));
            return VK_ERROR_FEATURE_NOT_PRESENT;
          }
          if (event->graphics && !graphics) {
            LogProblem(std::string("vkCmdBeginGpaSampleAMD: ") + event->name +
                       " cannot be counted in a command buffer whose queue family has no graphics");
            return VK_ERROR_FEATURE_NOT_PRESENT;
          }
          source.statistic = event->statistic;
        }
        sample.counters.push_back(source);
      }
      const bool any_statistic =
          std::any_of(sample.counters.begin(), sample.counters.end(),
                      [](const CounterSource& source) { return !source.performance && !source.sampled; });
      if (any_statistic) {
        QueryPools& pools = StatisticsPools(graphics);
        if (!pools.Take(1, &sample.queries)) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
        sample.statistics = pools.statistics();
      }
      if (!performance_indices.empty()) {
        const VkResult result = BeginPerformanceQuery(command_buffer, info, performance_indices, &sample);
        if (result != VK_SUCCESS) return result;  // (the statistics query taken stays unused until a reset)
      }
      // The begin trigger comes before the queries begin, as libGPUPerfAPIVK records it on its core path.
      if (!sampler_events.empty()) {
        const VkResult result = BeginSamplerEvents(command_buffer, info, sampler_events, &sample);
        if (result != VK_SUCCESS) return result;  // (queries taken stay unused until a reset)
      }
      if (any_statistic) device_.CmdBeginQuery(command_buffer, sample.queries.pool, sample.queries.first, 0);
      if (!performance_indices.empty()) {
        device_.CmdBeginQuery(command_buffer, sample.performance.pool, sample.performance.first, 0);
      }
      info.sessions_with_open_samples.insert(this);
      break;
    }
    default:
      LogProblem("vkCmdBeginGpaSampleAMD: sampleType " + std::to_string(sample_type) + " is not a VkGpaSampleTypeAMD");
      return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  samples_.push_back(std::move(sample));
  *sample_id = id;
  return VK_SUCCESS;
}

void GpaSession::CmdEndSample(VkCommandBuffer command_buffer, CommandBufferInfo& info, std::uint32_t sample_id) {
  if (sample_id >= samples_.size() || state_ != State::kRecording) {
    LogProblem("vkCmdEndGpaSampleAMD: " + SampleName(sample_id) + " was not begun in this session's recording");
    return;
  }
  Sample& sample = samples_[sample_id];
  if (sample.type == VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD && sample.begun_in != command_buffer) {
    LogProblem("vkCmdEndGpaSampleAMD: cumulative " + SampleName(sample_id) +
               " must begin and end in the same command buffer; it has no result");
    return;
  }
  if (sample.ended || sample.abandoned) {
    LogProblem("vkCmdEndGpaSampleAMD: " + SampleName(sample_id) + " was already ended");
    return;
  }
  if (sample.type == VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD) {
    EndCumulativeQueries(command_buffer, sample);
    std::uint64_t end = 0;
    if (sample.sampler_range != nullptr && sample.sampler_range->RecordBoundary(command_buffer, &end)) {
      sample.sampler_end = end;
    }
  } else {
    device_.CmdWriteTimestamp(command_buffer, sample.post_stage, sample.queries.pool, sample.queries.first + 1);
  }
  sample.ended = true;
  (void)info;
}

void GpaSession::EndCumulativeQueries(VkCommandBuffer command_buffer, const Sample& sample) {
  if (sample.performance.count != 0) {
    device_.CmdEndQuery(command_buffer, sample.performance.pool, sample.performance.first);
  }
  if (sample.queries.count != 0) device_.CmdEndQuery(command_buffer, sample.queries.pool, sample.queries.first);
}

void GpaSession::CloseOpenSamples(VkCommandBuffer command_buffer) {
  for (std::uint32_t id = 0; id < samples_.size(); ++id) {
    Sample& sample = samples_[id];
    if (sample.type != VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD || sample.begun_in != command_buffer || sample.ended ||
        sample.abandoned) {
      continue;
    }
    LogProblem("cumulative " + SampleName(id) +
               " was still open when its command buffer's recording ended; "
               "the layer ended it, and it will have no result");
    EndCumulativeQueries(command_buffer, sample);
    if (sample.sampler_range != nullptr) {
      sample.sampler_range->Forget({sample.sampler_begin});
      sample.sampler_dropped = true;
    }
    sample.abandoned = true;
  }
}

std::uint32_t GpaSession::WordsPerQuery(const Sample& sample) {
  if (sample.type == VK_GPA_SAMPLE_TYPE_TIMING_AMD) return 2;
  return static_cast<std::uint32_t>(std::bitset<32>(sample.statistics).count()) + 1;
}

std::size_t GpaSession::ResultSize(const Sample& sample) const {
  if (sample.type == VK_GPA_SAMPLE_TYPE_TIMING_AMD) return 2 * sizeof(std::uint64_t);
  return sample.counters.size() * sizeof(std::uint64_t);
}

bool GpaSession::EnsureCopyBuffer(VkDeviceSize size) {
  if (copy_buffer_ != VK_NULL_HANDLE && copy_size_ >= size) {
    std::memset(copy_words_, 0, static_cast<std::size_t>(copy_size_));
    return true;
  }
  ReleaseCopyBuffer();
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (device_.CreateBuffer(device_.device, &info, nullptr, &copy_buffer_) != VK_SUCCESS) {
    copy_buffer_ = VK_NULL_HANDLE;
    LogProblem("vkCmdCopyGpaSessionResultsAMD: vkCreateBuffer failed");
    return false;
  }
  VkMemoryRequirements requirements{};
  device_.GetBufferMemoryRequirements(device_.device, copy_buffer_, &requirements);
  constexpr VkMemoryPropertyFlags kWanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  std::uint32_t type = UINT32_MAX;
  for (std::uint32_t i = 0; i < device_.memory.memoryTypeCount; ++i) {
    if ((requirements.memoryTypeBits & (1u << i)) &&
        (device_.memory.memoryTypes[i].propertyFlags & kWanted) == kWanted) {
      type = i;
      break;
    }
  }
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type;
  void* mapped = nullptr;
  if (type == UINT32_MAX || device_.AllocateMemory(device_.device, &allocate, nullptr, &copy_memory_) != VK_SUCCESS ||
      device_.BindBufferMemory(device_.device, copy_buffer_, copy_memory_, 0) != VK_SUCCESS ||
      device_.MapMemory(device_.device, copy_memory_, 0, VK_WHOLE_SIZE, 0, &mapped) != VK_SUCCESS) {
    LogProblem("vkCmdCopyGpaSessionResultsAMD: no host-visible coherent memory for the copied results");
    ReleaseCopyBuffer();
    return false;
  }
  copy_words_ = static_cast<std::uint64_t*>(mapped);
  copy_size_ = size;
  std::memset(copy_words_, 0, static_cast<std::size_t>(copy_size_));
  return true;
}

void GpaSession::ReleaseCopyBuffer() {
  if (copy_memory_ != VK_NULL_HANDLE && copy_words_ != nullptr) device_.UnmapMemory(device_.device, copy_memory_);
  if (copy_buffer_ != VK_NULL_HANDLE) device_.DestroyBuffer(device_.device, copy_buffer_, nullptr);
  if (copy_memory_ != VK_NULL_HANDLE) device_.FreeMemory(device_.device, copy_memory_, nullptr);
  copy_buffer_ = VK_NULL_HANDLE;
  copy_memory_ = VK_NULL_HANDLE;
  copy_words_ = nullptr;
  copy_size_ = 0;
}

void GpaSession::CmdCopyResults(VkCommandBuffer command_buffer) {
  GpaSession& source = *copy_source_;
  if (source.state_ != State::kEnded) {
    LogProblem("vkCmdCopyGpaSessionResultsAMD: the secondaryCopySource session has not been ended");
    return;
  }
  samples_ = source.samples_;
  ForgetReadValues();
  for (std::uint32_t id = 0; id < samples_.size(); ++id) {
    Sample& sample = samples_[id];
    if (sample.performance.count != 0 && !sample.abandoned) {
      // A performance query may not be copied on the GPU (allowCommandBufferQueryCopies aside, its reset would
      // share the command buffer with its begin): it is read only from the session that recorded it.
      LogProblem("vkCmdCopyGpaSessionResultsAMD: " + SampleName(id) +
                 " counts VK_KHR_performance_query counters, which are not copied; it has no result here");
      sample.abandoned = true;
    }
    if (sample.sampler_range != nullptr && !sample.abandoned) {
      // Its triggers belong to the source's recording, which owns them; its values are read there.
      LogProblem("vkCmdCopyGpaSessionResultsAMD: " + SampleName(id) +
                 " counts the GPU periodic sampler's counters, which are not copied; it has no result here");
      sample.abandoned = true;
    }
    sample.sampler_range.reset();  // the source's triggers stay the source's
  }
  // The copy's command buffer resets the source's queries: what was read from them is stale once it runs.
  source.ForgetReadValues();
  VkDeviceSize offset = 0;
  for (Sample& sample : samples_) {
    sample.copy_offset = offset;
    offset += VkDeviceSize{WordsPerQuery(sample)} * sample.queries.count * sizeof(std::uint64_t);
  }
  if (offset == 0 || !EnsureCopyBuffer(offset)) {
    copied_ = true;
    state_ = State::kEnded;
    recorded_ = true;
    return;
  }
  for (const Sample& sample : samples_) {
    if (sample.abandoned || !sample.ended || sample.queries.count == 0) continue;
    device_.CmdCopyQueryPoolResults(command_buffer, sample.queries.pool, sample.queries.first, sample.queries.count,
                                    copy_buffer_, sample.copy_offset, WordsPerQuery(sample) * sizeof(std::uint64_t),
                                    kCopyFlags);
  }
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  device_.CmdPipelineBarrier(command_buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                             0, nullptr, 0, nullptr);
  // The source's queries are free for the secondary command buffer's next execution.
  for (const Sample& sample : samples_) {
    if (sample.queries.count == 0) continue;
    device_.CmdResetQueryPool(command_buffer, sample.queries.pool, sample.queries.first, sample.queries.count);
  }
  copied_ = true;
  state_ = State::kEnded;
  recorded_ = true;
}

VkResult GpaSession::ReadQueries(Sample& sample, std::vector<std::uint64_t>* values, bool* available) {
  const std::uint32_t words = WordsPerQuery(sample);
  const std::uint32_t values_per_query = words - 1;
  // A copy destination reads its own memory, which a later execution of the copy may rewrite: read it anew.
  if (sample.known.size() != sample.queries.count || copy_source_ != nullptr) {
    sample.known.assign(sample.queries.count, false);
    sample.known_values.assign(std::size_t{values_per_query} * sample.queries.count, 0);
  }
  std::vector<std::uint64_t> raw(words, 0);
  for (std::uint32_t q = 0; q < sample.queries.count; ++q) {
    if (sample.known[q]) continue;
    if (copy_source_ != nullptr) {
      if (copy_words_ == nullptr) break;
      std::memcpy(raw.data(),
                  reinterpret_cast<const char*>(copy_words_) + sample.copy_offset +
                      std::size_t{q} * words * sizeof(std::uint64_t),
                  words * sizeof(std::uint64_t));
    } else {
      std::fill(raw.begin(), raw.end(), 0);
      const VkResult result = device_.GetQueryPoolResults(
          device_.device, sample.queries.pool, sample.queries.first + q, 1, raw.size() * sizeof(std::uint64_t),
          raw.data(), words * sizeof(std::uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
      if (result != VK_SUCCESS && result != VK_NOT_READY) return result;
    }
    if (raw[words - 1] == 0) continue;  // not written yet
    std::copy(raw.begin(), raw.begin() + values_per_query,
              sample.known_values.begin() + std::ptrdiff_t{q} * values_per_query);
    sample.known[q] = true;
  }
  *available = std::all_of(sample.known.begin(), sample.known.end(), [](bool known) { return known; });
  *values = sample.known_values;
  return VK_SUCCESS;
}

void GpaSession::ForgetReadValues() {
  for (Sample& sample : samples_) {
    sample.known.clear();
    sample.known_values.clear();
    sample.performance_known = false;
    sample.performance_values.clear();
  }
}

VkResult GpaSession::Status() {
  if (state_ == State::kRecording || !recorded_) return VK_NOT_READY;
  if (copy_source_ != nullptr && !copied_) return VK_NOT_READY;
  std::vector<std::uint64_t> values;
  for (Sample& sample : samples_) {
    if (sample.abandoned || !sample.ended) continue;
    bool available = false;
    const VkResult result = ReadQueries(sample, &values, &available);
    if (result != VK_SUCCESS) return result;
    if (!available) return VK_NOT_READY;
    const VkResult performance = ReadPerformance(sample);
    if (performance != VK_SUCCESS) return performance;
    if (sample.sampler_range != nullptr && !sample.sampler_dropped && sample.sampler_end) {
      const VkResult sampled = sample.sampler_range->Poll();
      if (sampled != VK_SUCCESS) return sampled;
    }
  }
  return VK_SUCCESS;
}

VkResult GpaSession::Results(std::uint32_t sample_id, std::size_t* size_in_bytes, void* data) {
  if (sample_id >= samples_.size()) {
    LogProblem("vkGetGpaSessionResultsAMD: the session has no " + SampleName(sample_id));
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  Sample& sample = samples_[sample_id];
  const std::size_t needed = ResultSize(sample);
  if (data == nullptr) {
    *size_in_bytes = needed;
    return VK_SUCCESS;
  }
  if (*size_in_bytes < needed) {
    *size_in_bytes = 0;
    return VK_INCOMPLETE;
  }
  if (sample.abandoned || !sample.ended) {
    LogProblem("vkGetGpaSessionResultsAMD: " + SampleName(sample_id) + " was never ended, so it has no result");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  if (state_ == State::kRecording || !recorded_ || (copy_source_ != nullptr && !copied_)) return VK_NOT_READY;
  std::vector<std::uint64_t> values;
  bool available = false;
  const VkResult result = ReadQueries(sample, &values, &available);
  if (result != VK_SUCCESS) return result;
  if (!available) return VK_NOT_READY;
  std::vector<std::uint64_t> out;
  if (sample.type == VK_GPA_SAMPLE_TYPE_TIMING_AMD) {
    out = values;  // the begin and end timestamps
  } else {
    const VkResult performance = ReadPerformance(sample);
    if (performance != VK_SUCCESS) return performance;
    std::vector<double> sampled;
    if (sample.sampler_range != nullptr) {
      const VkResult result = ReadSampler(sample, &sampled);
      if (result != VK_SUCCESS) return result;
    }
    for (const CounterSource& source : sample.counters) {
      if (source.sampled) {
        if (source.position >= sampled.size()) {
          LogProblem("vkGetGpaSessionResultsAMD: " + SampleName(sample_id) + " has no GPU periodic sampler values");
          return VK_ERROR_FEATURE_NOT_PRESENT;
        }
        std::uint64_t bits = 0;  // the double's bits (vk_gpa_interface_sampler_counters.h)
        std::memcpy(&bits, &sampled[source.position], sizeof bits);
        out.push_back(bits);
      } else {
        out.push_back(source.performance ? sample.performance_values[source.position]
                                         : values[StatisticIndex(sample.statistics, source.statistic)]);
      }
    }
  }
  std::memcpy(data, out.data(), needed);
  *size_in_bytes = needed;
  return VK_SUCCESS;
}

VkResult GpaSession::Reset() {
  if (state_ == State::kRecording) {
    LogProblem("vkResetGpaSessionAMD: the session is being recorded (end it first)");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  if (copy_source_ != nullptr) {
    samples_.clear();
    copied_ = false;
    recorded_ = false;
    if (copy_words_ != nullptr) std::memset(copy_words_, 0, static_cast<std::size_t>(copy_size_));
  } else {
    // Samples stay: a command buffer recorded once may be submitted again and read again (their sampler counters
    // excepted: a range counts the triggers of one execution).
    ReleaseSamplerTriggers();
    ForgetReadValues();
    timestamps_.ResetAll();
    if (graphics_statistics_) graphics_statistics_->ResetAll();
    if (compute_statistics_) compute_statistics_->ResetAll();
    for (auto& [key, pools] : performance_pools_) pools->ResetAll();
  }
  state_ = State::kReady;
  return VK_SUCCESS;
}

}  // namespace opengpa::vklayer
