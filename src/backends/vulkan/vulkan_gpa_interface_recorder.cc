#include "backends/vulkan/vulkan_gpa_interface_recorder.h"

#include "platform/logging.h"
#include "vk_gpa_interface_statistics.h"

namespace opengpa::vulkan {

GpaInterfaceRecorder::GpaInterfaceRecorder(const GpaInterfaceFunctions& functions, VkDevice device, bool timestamps,
                                           VkQueryPipelineStatisticFlags statistics)
    : functions_(functions), device_(device), timestamps_(timestamps) {
  // Bit order, as EntryResults::statistics holds them.
  for (VkQueryPipelineStatisticFlags bit = 1; bit != 0 && bit <= statistics; bit <<= 1) {
    if ((statistics & bit) == 0) continue;
    for (const OpenGpaPipelineStatisticCounter& counter : kOpenGpaPipelineStatisticCounters) {
      if (counter.statistic == bit) counters_.push_back({counter.block, 0, counter.event_id});
    }
  }
}

GpaInterfaceRecorder::~GpaInterfaceRecorder() {
  if (session_ != VK_NULL_HANDLE) functions_.DestroyGpaSession(device_, session_, nullptr);
}

GpaStatus GpaInterfaceRecorder::BeginList(VkCommandBuffer command_buffer) {
  VkGpaSessionCreateInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
  VkResult result = functions_.CreateGpaSession(device_, &info, nullptr, &session_);
  if (result != VK_SUCCESS) {
    session_ = VK_NULL_HANDLE;
    return LogError(kGpaStatusErrorFailed, "vkCreateGpaSessionAMD failed with VkResult {}", static_cast<int>(result));
  }
  result = functions_.CmdBeginGpaSession(command_buffer, session_);
  if (result != VK_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "vkCmdBeginGpaSessionAMD failed with VkResult {}", static_cast<int>(result));
  }
  return kGpaStatusOk;
}

GpaStatus GpaInterfaceRecorder::EndList(VkCommandBuffer command_buffer) {
  if (session_ == VK_NULL_HANDLE || ended_) return kGpaStatusOk;
  CloseOpenTiming(command_buffer);
  ended_ = true;
  const VkResult result = functions_.CmdEndGpaSession(command_buffer, session_);
  if (result != VK_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "vkCmdEndGpaSessionAMD failed with VkResult {}", static_cast<int>(result));
  }
  return kGpaStatusOk;
}

GpaStatus GpaInterfaceRecorder::Allocate(std::uint32_t* entry) {
  if (session_ == VK_NULL_HANDLE) {
    return LogError(kGpaStatusErrorFailed, "the command list has no VkGpaSessionAMD (vkCreateGpaSessionAMD failed)");
  }
  *entry = static_cast<std::uint32_t>(entries_.size());
  entries_.emplace_back();
  return kGpaStatusOk;
}

void GpaInterfaceRecorder::CloseOpenTiming(VkCommandBuffer command_buffer) {
  if (!open_timing_) return;
  functions_.CmdEndGpaSample(command_buffer, session_, open_timing_->sample);
  open_timing_.reset();
}

void GpaInterfaceRecorder::WriteTimestamp(VkCommandBuffer command_buffer, std::uint32_t entry, TimestampRole role) {
  if (!timestamps_ || session_ == VK_NULL_HANDLE) return;
  const auto slot = static_cast<std::size_t>(role);
  // The bottom-of-pipe timestamp right after a top-of-pipe one of the same entry: the open sample's post-sample one.
  if (role == TimestampRole::kBottomBefore && open_timing_ && open_timing_->entry == entry) {
    entries_[entry].timing[slot] = open_timing_->sample;
    entries_[entry].timing_word[slot] = 1;
    CloseOpenTiming(command_buffer);
    return;
  }
  CloseOpenTiming(command_buffer);
  const bool top = role == TimestampRole::kTopBefore;
  VkGpaSampleBeginInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
  info.sampleType = VK_GPA_SAMPLE_TYPE_TIMING_AMD;
  info.timingPreSample = top ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
  info.timingPostSample = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
  std::uint32_t id = kNoSample;
  if (functions_.CmdBeginGpaSample(command_buffer, session_, &info, &id) != VK_SUCCESS) {
    Log(kGpaLoggingError, "vkCmdBeginGpaSampleAMD (timing) failed: that timestamp will be missing");
    return;
  }
  entries_[entry].timing[slot] = id;
  entries_[entry].timing_word[slot] = 0;
  if (top) {
    open_timing_ = OpenTiming{entry, id};  // ended by the next timestamp, or whatever is recorded next
  } else {
    functions_.CmdEndGpaSample(command_buffer, session_, id);
  }
}

void GpaInterfaceRecorder::BeginStatistics(VkCommandBuffer command_buffer, std::uint32_t entry) {
  CloseOpenTiming(command_buffer);
  if (counters_.empty() || session_ == VK_NULL_HANDLE) return;
  VkGpaSampleBeginInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
  info.sampleType = VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD;
  info.perfCounterCount = static_cast<std::uint32_t>(counters_.size());
  info.pPerfCounters = counters_.data();
  std::uint32_t id = kNoSample;
  if (functions_.CmdBeginGpaSample(command_buffer, session_, &info, &id) != VK_SUCCESS) {
    Log(kGpaLoggingError, "vkCmdBeginGpaSampleAMD (cumulative) failed: that sample's counts will be missing");
    return;
  }
  entries_[entry].cumulative = id;
}

void GpaInterfaceRecorder::EndStatistics(VkCommandBuffer command_buffer, std::uint32_t entry) {
  CloseOpenTiming(command_buffer);
  const std::uint32_t id = entries_[entry].cumulative;
  if (id != kNoSample) functions_.CmdEndGpaSample(command_buffer, session_, id);
}

bool GpaInterfaceRecorder::ReadSample(std::uint32_t sample_id, std::size_t words, std::uint64_t* values) {
  if (sample_id == kNoSample) return false;
  std::size_t size = 0;
  if (functions_.GetGpaSessionResults(device_, session_, sample_id, &size, nullptr) != VK_SUCCESS ||
      size < words * sizeof(std::uint64_t)) {
    return false;
  }
  std::vector<std::uint64_t> data(size / sizeof(std::uint64_t));
  if (functions_.GetGpaSessionResults(device_, session_, sample_id, &size, data.data()) != VK_SUCCESS) return false;
  for (std::size_t i = 0; i < words; ++i) values[i] = data[i];
  return true;
}

GpaStatus GpaInterfaceRecorder::Read(EntryResults* out) {
  const std::size_t entries = entries_.size();
  out->timestamps.assign(timestamps_ ? 3 * entries : 0, 0);
  out->timestamp_available.assign(out->timestamps.size(), false);
  out->statistics.assign(counters_.size() * entries, 0);
  out->statistics_available.assign(counters_.empty() ? 0 : entries, false);
  // Nothing to read before the list ended (and its work ran): the session reports VK_NOT_READY until then.
  if (session_ == VK_NULL_HANDLE || !ended_ || functions_.GetGpaSessionStatus(device_, session_) != VK_SUCCESS) {
    return kGpaStatusOk;
  }
  for (std::size_t e = 0; e < entries; ++e) {
    const Entry& entry = entries_[e];
    if (timestamps_) {
      for (std::size_t role = 0; role < 3; ++role) {
        // A timing sample holds its pre- and post-sample timestamps; timing_word says which is this role's.
        std::uint64_t pair[2] = {0, 0};
        const std::size_t word = entry.timing_word[role];
        out->timestamp_available[3 * e + role] = ReadSample(entry.timing[role], word + 1, pair);
        out->timestamps[3 * e + role] = pair[word];
      }
    }
    if (!counters_.empty()) {
      out->statistics_available[e] =
          ReadSample(entry.cumulative, counters_.size(), &out->statistics[e * counters_.size()]);
    }
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::vulkan
