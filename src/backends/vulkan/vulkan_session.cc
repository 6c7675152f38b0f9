#include "backends/vulkan/vulkan_session.h"

#include "backends/vulkan/vulkan_gpa_interface_recorder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "backends/common/timing_pass.h"
#include "platform/logging.h"

namespace opengpa::vulkan {
namespace {

// How long ReadResults waits for the GPU before reporting that some command buffer was never submitted:
// 60 s, or OPENGPA_VK_RESULT_TIMEOUT_MS milliseconds (read when the session begins).
std::chrono::milliseconds ResultTimeout() {
  if (const char* text = std::getenv("OPENGPA_VK_RESULT_TIMEOUT_MS"); text != nullptr && *text != '\0') {
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    if (*end == '\0' && value > 0) return std::chrono::milliseconds(value);
    Log(kGpaLoggingMessage, "OPENGPA_VK_RESULT_TIMEOUT_MS=\"{}\" is not a positive number of milliseconds; using 60000",
        text);
  }
  return std::chrono::milliseconds(60000);
}

// The handle the core keeps for one of our command lists; the session owns what it refers to, so the
// queries stay readable whatever the core does with the handle.
class VulkanCommandList final : public BackendCommandList {
 public:
  VulkanCommandList(const VulkanSession* session, std::uint32_t index) : session_(session), index_(index) {}
  const VulkanSession* session() const { return session_; }
  std::uint32_t index() const { return index_; }

 private:
  const VulkanSession* session_;
  std::uint32_t index_;
};

const char* TypeName(GpaCommandListType type) {
  switch (type) {
    case kGpaCommandListPrimary: return "primary";
    case kGpaCommandListSecondary: return "secondary";
    case kGpaCommandListNone: return "none";
    default: return "invalid";
  }
}

bool NeedsTimestamps(const std::vector<VulkanHardwareCounter>& counters) {
  return std::any_of(counters.begin(), counters.end(), [](const VulkanHardwareCounter& counter) {
    return counter.source != CounterSource::kPipelineStatistic && counter.source != CounterSource::kPerformanceQuery;
  });
}

// Position of `bit` among the set bits of `flags`: where Vulkan writes that statistic in a query's results.
std::uint32_t StatisticColumn(VkQueryPipelineStatisticFlags flags, VkQueryPipelineStatisticFlagBits bit) {
  std::uint32_t column = 0;
  for (VkQueryPipelineStatisticFlags b = 1; b < static_cast<VkQueryPipelineStatisticFlags>(bit); b <<= 1) {
    if (flags & b) ++column;
  }
  return column;
}

}  // namespace

VkQueryPipelineStatisticFlags QueriedStatistics(const std::vector<VulkanHardwareCounter>& counters,
                                                VkQueryPipelineStatisticFlags supported) {
  VkQueryPipelineStatisticFlags asked = 0;
  for (const VulkanHardwareCounter& counter : counters) {
    if (counter.source == CounterSource::kPipelineStatistic) asked |= counter.statistic;
  }
  // Compute-shader invocations alone stay alone: the graphics statistics would make the query invalid in a
  // command buffer of a compute-only queue.
  constexpr VkQueryPipelineStatisticFlags kCompute = VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
  return (asked & ~kCompute) != 0 ? asked | supported : asked;
}

struct VulkanSession::ListRecord {
  ListRecord(const SessionSetup& setup, bool timestamps, VkQueryPipelineStatisticFlags statistics) {
    if (setup.gpa_interface != nullptr) {
      pools = std::make_unique<GpaInterfaceRecorder>(*setup.gpa_interface, setup.device, timestamps, statistics);
    } else {
      pools = std::make_unique<EntryPools>(*setup.functions, setup.device, timestamps, statistics);
    }
  }
  std::uint32_t index = 0;  // position in lists_
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  GpaCommandListType type = kGpaCommandListPrimary;
  GpaUInt32 pass = 0;
  bool ended = false;
  std::unique_ptr<SampleRecorder> pools;            // core queries, or VK_AMD_gpa_interface where the device offers it
  std::unique_ptr<PerformanceQueries> performance;  // the pass's VK_KHR_performance_query counters, if any
  std::vector<SampleSlot> open_slots;               // samples with a statistics query still open on this list
  std::optional<std::uint32_t> end_entry;           // sampled sessions: a timestamp after the list's last trigger
  bool triggered = false;                           // an engine trigger was recorded on this list
  EntryResults results;                             // last read of the pools
};

VulkanSession::VulkanSession(SessionSetup setup)
    : setup_(std::move(setup)),
      timestamps_(NeedsTimestamps(setup_.counters)),
      timing_pass_(setup_.sampled != nullptr && HoldsTimingCounter(setup_.counters)),
      statistics_(QueriedStatistics(setup_.counters, setup_.supported_statistics)),
      result_timeout_(ResultTimeout()),
      records_(PassCount()),
      pass_ready_(PassCount(), false),
      sampled_(setup_.sampled) {
  if (sampled_ != nullptr) triggers_ = std::make_unique<nvidia::EngineTriggers>(*setup_.sampler, SamplerPassCount());
  int sampled = 0;
  for (const VulkanHardwareCounter& counter : setup_.counters) {
    sampled_column_.push_back(counter.source == CounterSource::kSampledMetric ? sampled++ : -1);
    PerformanceColumn column;
    for (GpaUInt32 pass = 0; pass < setup_.performance.size(); ++pass) {
      const std::vector<std::uint32_t>& indices = setup_.performance[pass].counter_indices;
      const auto found = std::find(indices.begin(), indices.end(), counter.driver_index);
      if (counter.source == CounterSource::kPerformanceQuery && found != indices.end()) {
        column = {pass, static_cast<std::size_t>(found - indices.begin())};
      }
    }
    performance_column_.push_back(column);
  }
}

VulkanSession::~VulkanSession() = default;

GpaUInt32 VulkanSession::PassCount() const {
  return PassesWithTimingPass(SamplerPassCount(), static_cast<GpaUInt32>(setup_.performance.size()), timing_pass_);
}

GpaStatus VulkanSession::Begin() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (sampled_ != nullptr) {
    if (GpaStatus status = sampled_->Begin(); status != kGpaStatusOk) return status;
  }
  if (setup_.calibrated_timestamps && timestamps_) {
    VkCalibratedTimestampInfoEXT info{};
    info.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT;
    info.timeDomain = VK_TIME_DOMAIN_DEVICE_EXT;
    std::uint64_t timestamp = 0;
    std::uint64_t deviation = 0;
    if (setup_.functions->GetCalibratedTimestampsEXT(setup_.device, 1, &info, &timestamp, &deviation) == VK_SUCCESS) {
      time_origin_ = timestamp;
    } else {
      Log(kGpaLoggingMessage,
          "vkGetCalibratedTimestampsEXT failed; ExecutionStart/ExecutionEnd will be measured "
          "from the earliest sample of the session");
    }
  }
  return kGpaStatusOk;
}

GpaStatus VulkanSession::BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                                          std::unique_ptr<BackendCommandList>* out) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (pass >= PassCount()) {
    return LogError(kGpaStatusErrorIndexOutOfRange, "pass_index {} is out of range: this session needs {} pass(es)",
                    pass, PassCount());
  }
  if (Triggered(pass) && pass != sampled_->ActivePass()) {
    AdvanceSampler(/*wait_to_settle=*/true);
    if (sampler_status_ != kGpaStatusOk) return sampler_status_;
    if (pass != sampled_->ActivePass()) {
      return LogError(kGpaStatusErrorFailed,
                      "GpaBeginCommandList: pass {} cannot be recorded yet: the GPU periodic sampler is sampling pass "
                      "{}, and engine triggers recorded now would not be counted in pass {}. Record a pass's command "
                      "lists after the previous pass's work has completed (submit it and wait for it)",
                      pass, sampled_->ActivePass(), pass);
    }
  }
  if (type != kGpaCommandListPrimary && type != kGpaCommandListSecondary) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "command_list_type {} ({}) is not valid for Vulkan: pass kGpaCommandListPrimary or "
                    "kGpaCommandListSecondary with a VkCommandBuffer",
                    static_cast<int>(type), TypeName(type));
  }
  if (api_list == nullptr) {
    return LogError(kGpaStatusErrorNullPointer,
                    "command_list is NULL: Vulkan needs the VkCommandBuffer being recorded");
  }
  auto command_buffer = static_cast<VkCommandBuffer>(api_list);
  for (const auto& list : lists_) {
    if (list->command_buffer == command_buffer && !list->ended) {
      return LogError(kGpaStatusErrorCommandListAlreadyStarted,
                      "command_list {} was already begun in this session and not yet ended", api_list);
    }
  }
  const bool performance = pass < setup_.performance.size() && !setup_.performance[pass].counter_indices.empty();
  if (performance && type == kGpaCommandListSecondary && !setup_.performance[pass].multiple_pools) {
    return LogError(kGpaStatusErrorFailed,
                    "a secondary command list cannot count VK_KHR_performance_query counters on this device: its query "
                    "pool and the primary's would meet in one command buffer, which needs "
                    "performanceCounterMultipleQueryPools (not supported); sample on the primary instead");
  }
  auto record = std::make_unique<ListRecord>(setup_, timestamps_, statistics_);
  record->index = static_cast<std::uint32_t>(lists_.size());
  record->command_buffer = command_buffer;
  record->type = type;
  record->pass = pass;
  if (performance) {
    record->performance =
        std::make_unique<PerformanceQueries>(*setup_.functions, setup_.device, setup_.performance[pass]);
  }
  GpaStatus status = record->pools->BeginList(command_buffer);
  if (status != kGpaStatusOk) return status;
  lists_.push_back(std::move(record));
  *out = std::make_unique<VulkanCommandList>(this, lists_.back()->index);
  return kGpaStatusOk;
}

GpaStatus VulkanSession::Resolve(BackendCommandList& list, const char* argument, ListRecord** out) {
  auto* ours = dynamic_cast<VulkanCommandList*>(&list);
  if (ours == nullptr || ours->session() != this || ours->index() >= lists_.size()) {
    return LogError(kGpaStatusErrorCommandListNotFound, "{} does not belong to this Vulkan session", argument);
  }
  *out = lists_[ours->index()].get();
  return kGpaStatusOk;
}

VulkanSession::SampleRecord* VulkanSession::Record(GpaUInt32 pass, SampleSlot slot) {
  std::vector<SampleRecord>& records = records_[pass];
  if (slot >= records.size()) records.resize(slot + 1);
  return &records[slot];
}

GpaStatus VulkanSession::CloseContinuedSegments(ListRecord& list, const char* action) {
  for (SampleSlot slot : list.open_slots) {
    SampleRecord& record = *Record(list.pass, slot);
    if (record.segments.back().list == list.index) {
      return LogError(kGpaStatusErrorSampleAlreadyStarted,
                      "cannot {}: sample slot {} is still open on this command list (end it first)", action, slot);
    }
  }
  CloseOpenSegments(list);
  return kGpaStatusOk;
}

void VulkanSession::CloseOpenSegments(ListRecord& list) {
  for (SampleSlot slot : list.open_slots) {
    for (Segment& segment : Record(list.pass, slot)->segments) {
      if (segment.open && segment.list == list.index) {
        EndSegmentQueries(list, segment);
        if (Triggered(list.pass)) segment.end_marker = RecordBoundary(list);
        segment.open = false;
      }
    }
  }
  list.open_slots.clear();
}

void VulkanSession::EndSegmentQueries(ListRecord& list, const Segment& segment) {
  if (list.performance != nullptr) list.performance->End(list.command_buffer, segment.performance_query);
  list.pools->EndStatistics(list.command_buffer, segment.entry);
}

GpaStatus VulkanSession::OpenSegment(ListRecord& list, SampleSlot slot, SampleRecord& record, bool first) {
  // Everything allocated before anything is recorded: a failure leaves the command buffer as it was.
  std::uint32_t entry = 0;
  GpaStatus status = list.pools->Allocate(&entry);
  if (status != kGpaStatusOk) return status;
  Segment segment{list.index, entry, true};
  if (list.performance != nullptr) {
    status = list.performance->Allocate(&segment.performance_query);
    if (status != kGpaStatusOk) return status;
  }
  // The sampler's trigger and the queries' begin come before the sample's first timestamps and their ends after
  // its last one, so that GPUTime holds the sample's work alone on both recording paths: a trigger costs
  // microseconds of the GPU's time, and through the layer the triggers are inside the cumulative sample's begin
  // and end (the layer's GPUTime read 7.8-10.5 µs above the core path's while the core's held its begin trigger).
  if (Triggered(list.pass)) segment.begin_marker = RecordBoundary(list);
  list.pools->BeginStatistics(list.command_buffer, entry);
  if (list.performance != nullptr) list.performance->Begin(list.command_buffer, segment.performance_query);
  if (first) {
    list.pools->WriteTimestamp(list.command_buffer, entry, TimestampRole::kTopBefore);
    list.pools->WriteTimestamp(list.command_buffer, entry, TimestampRole::kBottomBefore);
  }
  record.segments.push_back(segment);
  list.open_slots.push_back(slot);
  return kGpaStatusOk;
}

GpaStatus VulkanSession::BeginSample(BackendCommandList& handle, SampleSlot slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  ListRecord* list = nullptr;
  GpaStatus status = Resolve(handle, "command_list_id", &list);
  if (status != kGpaStatusOk) return status;
  if (list->ended) {
    return LogError(kGpaStatusErrorCommandListAlreadyEnded, "cannot begin sample slot {}: its command list has ended",
                    slot);
  }
  if (Record(list->pass, slot)->begun) {
    return LogError(kGpaStatusErrorSampleAlreadyStarted, "sample slot {} was already begun in pass {}", slot,
                    list->pass);
  }
  status = CloseContinuedSegments(*list, "begin a sample");
  if (status != kGpaStatusOk) return status;
  SampleRecord& record = *Record(list->pass, slot);  // taken after the vector stopped growing
  record.begun = true;
  record.required = list->type == kGpaCommandListPrimary;
  return OpenSegment(*list, slot, record, /*first=*/true);
}

GpaStatus VulkanSession::EndSample(BackendCommandList& handle, SampleSlot slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  ListRecord* list = nullptr;
  GpaStatus status = Resolve(handle, "command_list_id", &list);
  if (status != kGpaStatusOk) return status;
  if (list->ended) {
    return LogError(kGpaStatusErrorCommandListAlreadyEnded, "cannot end sample slot {}: its command list has ended",
                    slot);
  }
  SampleRecord& record = *Record(list->pass, slot);
  if (!record.begun || record.ended || record.segments.back().list != list->index || !record.segments.back().open) {
    return LogError(kGpaStatusErrorSampleNotStarted, "sample slot {} is not running on this command list", slot);
  }
  Segment& segment = record.segments.back();
  list->pools->WriteTimestamp(list->command_buffer, segment.entry, TimestampRole::kBottomAfter);
  EndSegmentQueries(*list, segment);
  if (Triggered(list->pass)) segment.end_marker = RecordBoundary(*list);
  segment.open = false;
  record.ended = true;
  list->open_slots.erase(std::remove(list->open_slots.begin(), list->open_slots.end(), slot), list->open_slots.end());
  return kGpaStatusOk;
}

GpaStatus VulkanSession::EndCommandList(BackendCommandList& handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  ListRecord* list = nullptr;
  GpaStatus status = Resolve(handle, "command_list_id", &list);
  if (status != kGpaStatusOk) return status;
  if (list->ended) return LogError(kGpaStatusErrorCommandListAlreadyEnded, "command list was already ended");
  // A sample still open here is one that continues on another primary: its part on this list ends now,
  // because a query must begin and end in the same command buffer.
  CloseOpenSegments(*list);
  // A last boundary closes the interval that holds the list's work after its last sample; a timestamp after it
  // says the front end has passed every trigger of the list, so the sampler can stop without losing one.
  if (Triggered(list->pass) && list->triggered) {
    RecordBoundary(*list);
    std::uint32_t entry = 0;
    if (GpaStatus status = list->pools->Allocate(&entry); status != kGpaStatusOk) return status;
    list->pools->WriteTimestamp(list->command_buffer, entry, TimestampRole::kBottomAfter);
    list->end_entry = entry;
  }
  list->ended = true;
  return list->pools->EndList(list->command_buffer);
}

GpaStatus VulkanSession::ContinueSample(SampleSlot slot, BackendCommandList& from_handle,
                                        BackendCommandList& to_handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  ListRecord* from = nullptr;
  ListRecord* to = nullptr;
  GpaStatus status = Resolve(from_handle, "the command list the sample runs on", &from);
  if (status != kGpaStatusOk) return status;
  status = Resolve(to_handle, "primary_command_list_id", &to);
  if (status != kGpaStatusOk) return status;
  if (from->type != kGpaCommandListPrimary || to->type != kGpaCommandListPrimary) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "sample slot {} can only continue from a primary onto a primary command list (from {}, to {})",
                    slot, TypeName(from->type), TypeName(to->type));
  }
  if (from == to) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "sample slot {} cannot be continued on the command list it already runs on", slot);
  }
  if (from->pass != to->pass) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "sample slot {} runs in pass {} and cannot continue on a command list of pass {}", slot, from->pass,
                    to->pass);
  }
  if (to->ended) {
    return LogError(kGpaStatusErrorCommandListAlreadyEnded,
                    "cannot continue sample slot {}: primary_command_list_id has already ended", slot);
  }
  const SampleRecord& running = *Record(from->pass, slot);
  if (!running.begun || running.ended || running.segments.back().list != from->index) {
    return LogError(kGpaStatusErrorFailed, "sample slot {} is not running on the command list it continues from", slot);
  }
  status = CloseContinuedSegments(*to, "continue a sample");
  if (status != kGpaStatusOk) return status;
  return OpenSegment(*to, slot, *Record(from->pass, slot), /*first=*/false);
}

GpaStatus VulkanSession::CopySecondarySamples(BackendCommandList& secondary_handle, BackendCommandList& primary_handle,
                                              const std::vector<std::pair<SampleSlot, SampleSlot>>& copies) {
  std::lock_guard<std::mutex> lock(mutex_);
  ListRecord* secondary = nullptr;
  ListRecord* primary = nullptr;
  GpaStatus status = Resolve(secondary_handle, "secondary_command_list_id", &secondary);
  if (status != kGpaStatusOk) return status;
  status = Resolve(primary_handle, "primary_command_list_id", &primary);
  if (status != kGpaStatusOk) return status;
  if (secondary->type != kGpaCommandListSecondary) {
    return LogError(kGpaStatusErrorInvalidParameter, "secondary_command_list_id is a {} command list",
                    TypeName(secondary->type));
  }
  if (primary->type != kGpaCommandListPrimary) {
    return LogError(kGpaStatusErrorInvalidParameter, "primary_command_list_id is a {} command list",
                    TypeName(primary->type));
  }
  if (secondary->pass != primary->pass) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "secondary command list is in pass {} but the primary is in pass {}", secondary->pass,
                    primary->pass);
  }
  if (!secondary->ended) {
    return LogError(kGpaStatusErrorCommandListNotEnded,
                    "secondary_command_list_id must be ended (GpaEndCommandList) before its samples are copied");
  }
  // Check every copy before changing anything, so a failed call leaves no half-made copies.
  for (const auto& [source, destination] : copies) {
    const SampleRecord& record = *Record(secondary->pass, source);
    const bool on_secondary = record.begun && std::all_of(record.segments.begin(), record.segments.end(),
                                                          [&](const Segment& s) { return s.list == secondary->index; });
    if (!on_secondary) {
      return LogError(kGpaStatusErrorSampleNotFound, "sample slot {} was not recorded on the secondary command list",
                      source);
    }
    if (!record.ended) {
      return LogError(kGpaStatusErrorSampleNotEnded, "sample slot {} on the secondary command list was never ended",
                      source);
    }
    if (Record(primary->pass, destination)->begun) {
      return LogError(kGpaStatusErrorSampleAlreadyStarted, "destination sample slot {} is already in use", destination);
    }
  }
  primary->triggered = primary->triggered || secondary->triggered;  // its end follows the secondary's triggers
  for (const auto& [source, destination] : copies) {
    SampleRecord copy = *Record(secondary->pass, source);
    copy.required = true;
    *Record(primary->pass, destination) = std::move(copy);
  }
  return kGpaStatusOk;
}

std::optional<std::uint64_t> VulkanSession::TimestampOf(const Segment& segment, TimestampRole role) const {
  const EntryResults& results = lists_[segment.list]->results;
  const std::size_t query = 3 * static_cast<std::size_t>(segment.entry) + static_cast<std::size_t>(role);
  if (query >= results.timestamp_available.size() || !results.timestamp_available[query]) return std::nullopt;
  return results.timestamps[query];
}

bool VulkanSession::RecordAvailable(const SampleRecord& record) const {
  if (!record.ended) return false;
  if (timestamps_) {
    if (!TimestampOf(record.segments.front(), TimestampRole::kTopBefore) ||
        !TimestampOf(record.segments.front(), TimestampRole::kBottomBefore) ||
        !TimestampOf(record.segments.back(), TimestampRole::kBottomAfter)) {
      return false;
    }
  }
  for (const Segment& segment : record.segments) {
    if (Triggered(lists_[segment.list]->pass)) {
      if (!TimestampOf(Segment{segment.list, segment.begin_marker, false}, TimestampRole::kBottomBefore) ||
          !TimestampOf(Segment{segment.list, segment.end_marker, false}, TimestampRole::kBottomBefore)) {
        return false;
      }
    }
  }
  if (statistics_ != 0) {
    for (const Segment& segment : record.segments) {
      const std::vector<bool>& available = lists_[segment.list]->results.statistics_available;
      if (segment.entry >= available.size() || !available[segment.entry]) return false;
    }
  }
  for (const Segment& segment : record.segments) {
    const PerformanceQueries* performance = lists_[segment.list]->performance.get();
    if (performance != nullptr && !performance->Available(segment.performance_query)) return false;
  }
  return true;
}

GpaStatus VulkanSession::RefreshResults(GpaUInt32 pass) {
  if (pass_ready_[pass]) return kGpaStatusOk;
  for (const auto& list : lists_) {
    if (list->pass != pass) continue;
    GpaStatus status = list->pools->Read(&list->results);
    if (status != kGpaStatusOk) return status;
    if (list->performance != nullptr) {
      status = list->performance->Read();
      if (status != kGpaStatusOk) return status;
    }
  }
  pass_ready_[pass] = PassAvailable(pass);
  return kGpaStatusOk;
}

bool VulkanSession::PassAvailable(GpaUInt32 pass) const {
  for (const SampleRecord& record : records_[pass]) {
    if (record.required && !RecordAvailable(record)) return false;
  }
  // The sampler may stop only once the front end is past every trigger of the pass's primaries.
  for (const auto& list : lists_) {
    if (list->pass != pass || !list->end_entry || !list->triggered || list->type != kGpaCommandListPrimary) continue;
    if (!TimestampOf(Segment{list->index, *list->end_entry, false}, TimestampRole::kBottomAfter)) return false;
  }
  return true;
}

bool VulkanSession::PassRecorded(GpaUInt32 pass) const {
  bool any = false;
  for (const auto& list : lists_) {
    if (list->pass != pass) continue;
    if (!list->ended) return false;
    any = true;
  }
  return any;
}

void VulkanSession::AdvanceSampler(bool wait_to_settle) {
  if (sampled_ == nullptr || sampler_status_ != kGpaStatusOk) return;
  while (sampled_->ActivePass() < sampled_->PassCount()) {
    const GpaUInt32 pass = sampled_->ActivePass();
    if (!PassRecorded(pass) || RefreshResults(pass) != kGpaStatusOk || !pass_ready_[pass]) return;
    const auto now = std::chrono::steady_clock::now();
    if (!active_complete_since_) active_complete_since_ = now;
    const auto settled = *active_complete_since_ + nvidia::kSamplerSettle;
    if (now < settled) {
      if (!wait_to_settle) return;
      std::this_thread::sleep_until(settled);
    }
    active_complete_since_.reset();
    if (GpaStatus status = sampled_->Advance(triggers_->Count(pass)); status != kGpaStatusOk) {
      sampler_status_ = status;
      return;
    }
  }
}

std::uint32_t VulkanSession::RecordBoundary(ListRecord& list) {
  std::uint32_t marker = 0;
  if (GpaStatus status = list.pools->Allocate(&marker); status != kGpaStatusOk) {
    if (sampler_status_ == kGpaStatusOk) sampler_status_ = status;
    return 0;
  }
  const GpaStatus status = triggers_->Record(list.pass, TriggerKey(list.index, marker), list.command_buffer, [&] {
    list.pools->WriteTimestamp(list.command_buffer, marker, TimestampRole::kTopBefore);
    list.pools->WriteTimestamp(list.command_buffer, marker, TimestampRole::kBottomBefore);
  });
  if (status != kGpaStatusOk && sampler_status_ == kGpaStatusOk) sampler_status_ = status;
  list.triggered = true;
  return marker;
}

bool VulkanSession::IsPassComplete(GpaUInt32 pass) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (pass >= PassCount()) return false;
  AdvanceSampler();
  if (RefreshResults(pass) != kGpaStatusOk || !pass_ready_[pass]) return false;
  return !Triggered(pass) || sampled_->Decoded(pass) || sampler_status_ != kGpaStatusOk;
}

std::uint64_t VulkanSession::TimestampNs(const Segment& segment, TimestampRole role) const {
  const std::uint64_t ticks = TimestampOf(segment, role).value_or(0);
  // NVIDIA's period is exactly 1 ns: keep every bit of a 64-bit clock rather than round through a double.
  if (setup_.timestamp_period_ns == 1.0) return ticks;
  return static_cast<std::uint64_t>(static_cast<long double>(ticks) * setup_.timestamp_period_ns);
}

GpaStatus VulkanSession::PlaceTriggers() {
  // When the work each sample's end trigger follows was done: the sample's own bottom-of-pipe timestamp after it
  // (written by GpaEndSample on the segment that ends the sample; a segment a command list's end closed has none).
  std::vector<std::map<std::uint64_t, std::uint64_t>> done(SamplerPassCount());
  for (GpaUInt32 pass = 0; pass < SamplerPassCount(); ++pass) {
    for (const SampleRecord& record : records_[pass]) {
      for (const Segment& segment : record.segments) {
        if (TimestampOf(segment, TimestampRole::kBottomAfter)) {
          done[pass][TriggerKey(segment.list, segment.end_marker)] = TimestampNs(segment, TimestampRole::kBottomAfter);
        }
      }
    }
  }
  return triggers_->Place(
      *sampled_,
      [this](std::uint32_t, std::uint64_t key) -> std::optional<std::uint64_t> {
        const Segment marker{static_cast<std::uint32_t>(key >> 32), static_cast<std::uint32_t>(key), false};
        if (!TimestampOf(marker, TimestampRole::kBottomBefore)) return std::nullopt;  // its command buffer never ran
        return TimestampNs(marker, TimestampRole::kBottomBefore);
      },
      [&done](std::uint32_t pass, std::uint64_t key) -> std::optional<std::uint64_t> {
        const auto found = done[pass].find(key);
        if (found == done[pass].end()) return std::nullopt;
        return found->second;
      });
}

void VulkanSession::TraceSample(SampleSlot slot) const {
  auto stamp = [this](const Segment& segment, TimestampRole role) -> long long {
    return TimestampOf(segment, role) ? static_cast<long long>(TimestampNs(segment, role)) : -1LL;
  };
  auto interval = [this](GpaUInt32 pass, std::uint32_t list, std::uint32_t marker) -> long long {
    const std::optional<std::size_t> closed = triggers_->IntervalOf(pass, TriggerKey(list, marker));
    return closed ? static_cast<long long>(*closed) : -1LL;
  };
  for (GpaUInt32 pass = 0; pass < SamplerPassCount(); ++pass) {
    if (slot >= records_[pass].size() || !records_[pass][slot].begun) continue;
    for (const Segment& segment : records_[pass][slot].segments) {
      const Segment begin{segment.list, segment.begin_marker, false};
      const Segment end{segment.list, segment.end_marker, false};
      // Times in ns on the GPU's clock: the begin trigger's bottom-of-pipe stamp, the sample's own top- and
      // bottom-of-pipe stamps before its work and bottom-of-pipe after it, the end trigger's stamp.
      std::fprintf(stderr,
                   "opengpa sampler pass %u sample %u list %u: begin trigger %lld -> interval %lld; top %lld bottom "
                   "%lld after %lld; end trigger %lld -> interval %lld\n",
                   pass, slot, segment.list, stamp(begin, TimestampRole::kBottomBefore),
                   interval(pass, segment.list, segment.begin_marker), stamp(segment, TimestampRole::kTopBefore),
                   stamp(segment, TimestampRole::kBottomBefore), stamp(segment, TimestampRole::kBottomAfter),
                   stamp(end, TimestampRole::kBottomBefore), interval(pass, segment.list, segment.end_marker));
    }
  }
}

GpaStatus VulkanSession::SampledValues(SampleSlot slot, std::vector<double>* values) const {
  const auto names = static_cast<std::size_t>(
      std::count_if(sampled_column_.begin(), sampled_column_.end(), [](int c) { return c >= 0; }));
  std::vector<double> sums(names, 0.0);
  std::vector<double> weights(names, 0.0);
  for (GpaUInt32 pass = 0; pass < SamplerPassCount(); ++pass) {
    if (slot >= records_[pass].size() || !records_[pass][slot].begun) {
      return LogError(kGpaStatusErrorSampleNotFound,
                      "sample slot {} was not recorded in pass {}: every pass must record the same samples", slot,
                      pass);
    }
    for (const Segment& segment : records_[pass][slot].segments) {
      const GpaStatus status = triggers_->Accumulate(*sampled_, pass, TriggerKey(segment.list, segment.begin_marker),
                                                     TriggerKey(segment.list, segment.end_marker), &sums, &weights);
      if (status != kGpaStatusOk) return LogError(status, "sample slot {} has no sampled values", slot);
    }
  }
  sampled_->Finish(sums, weights, values);
  return kGpaStatusOk;
}

GpaStatus VulkanSession::PerformanceValue(SampleSlot slot, std::size_t column, double* value) const {
  const PerformanceColumn& where = performance_column_[column];
  if (slot >= records_[where.pass].size() || !records_[where.pass][slot].begun) {
    return LogError(kGpaStatusErrorSampleNotFound,
                    "sample slot {} was not recorded in pass {}, which counts {}: every pass must record the same "
                    "samples",
                    slot, where.pass, setup_.counters[column].info.name);
  }
  const SampleRecord& record = records_[where.pass][slot];
  double sum = 0.0;
  for (const Segment& segment : record.segments) {
    sum += lists_[segment.list]->performance->Value(segment.performance_query, where.position);
  }
  *value = setup_.counters[column].additive ? sum : sum / static_cast<double>(record.segments.size());
  return kGpaStatusOk;
}

GpaStatus VulkanSession::ReadResults(SampleSlot slot_count, std::vector<double>* values) {
  std::unique_lock<std::mutex> lock(mutex_);
  // Timestamps and statistics are read from the timing pass, or the first; sampled counters from their own passes.
  const GpaUInt32 pass = QueryPass();
  const auto deadline = std::chrono::steady_clock::now() + result_timeout_;
  auto pause = std::chrono::microseconds(50);
  for (GpaUInt32 waited = 0; waited < PassCount();) {
    AdvanceSampler();
    if (sampler_status_ != kGpaStatusOk) return sampler_status_;
    GpaStatus status = RefreshResults(waited);
    if (status != kGpaStatusOk) return status;
    if (pass_ready_[waited] && (!Triggered(waited) || sampled_->Decoded(waited))) {
      ++waited;
      continue;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      std::size_t missing = 0;
      for (const SampleRecord& record : records_[waited]) missing += record.required && !RecordAvailable(record);
      return LogError(kGpaStatusErrorTimeout,
                      "pass {}: {} sample(s) had no results after {} ms: was every command buffer of the pass "
                      "submitted (and every secondary executed) exactly once?",
                      waited, missing, result_timeout_.count());
    }
    lock.unlock();
    std::this_thread::sleep_for(pause);
    lock.lock();
    pause = std::min(pause * 2, std::chrono::microseconds(2000));
  }

  const std::uint64_t mask = setup_.timestamp_mask;
  const double period = setup_.timestamp_period_ns;
  // The time origin of ExecutionStart/End: the GPU clock at Begin(), else the earliest sample start.
  std::optional<std::uint64_t> origin = time_origin_;
  if (!origin && timestamps_) {
    for (const SampleRecord& record : records_[pass]) {
      if (!record.required || !RecordAvailable(record)) continue;
      std::uint64_t start = *TimestampOf(record.segments.front(), TimestampRole::kTopBefore);
      origin = origin ? std::min(*origin, start) : start;
    }
  }

  const std::size_t columns = setup_.counters.size();
  values->assign(static_cast<std::size_t>(slot_count) * columns, 0.0);
  std::vector<double> sampled;
  if (sampled_ != nullptr) {
    if (GpaStatus status = PlaceTriggers(); status != kGpaStatusOk) return status;
  }
  for (SampleSlot slot = 0; slot < slot_count && slot < records_[pass].size(); ++slot) {
    const SampleRecord& record = records_[pass][slot];
    // Samples only ever seen on a secondary that was never copied may have no results: left 0.
    if (!record.begun || !RecordAvailable(record)) continue;
    sampled.clear();
    if (sampled_ != nullptr && nvidia::SamplerTraceOn()) TraceSample(slot);
    if (sampled_ != nullptr && record.required) {
      const GpaStatus status = SampledValues(slot, &sampled);
      if (status == kGpaStatusErrorReadingSampleResult) {
        // Its counts would be short (its end trigger ran ahead of its work): it has no result, the others do.
        incomplete_.insert(slot);
        continue;
      }
      if (status != kGpaStatusOk) return status;
    }
    for (std::size_t c = 0; c < columns; ++c) {
      const VulkanHardwareCounter& counter = setup_.counters[c];
      double value = 0;
      if (counter.source == CounterSource::kSampledMetric) {
        value = sampled.empty() ? 0.0 : sampled[static_cast<std::size_t>(sampled_column_[c])];
      } else if (counter.source == CounterSource::kPerformanceQuery) {
        if (record.required) {
          if (GpaStatus status = PerformanceValue(slot, c, &value); status != kGpaStatusOk) return status;
        }
      } else if (counter.source == CounterSource::kPipelineStatistic) {
        const std::uint32_t column = StatisticColumn(statistics_, counter.statistic);
        std::uint64_t sum = 0;
        for (const Segment& segment : record.segments) {
          const EntryResults& results = lists_[segment.list]->results;
          sum +=
              results
                  .statistics[static_cast<std::size_t>(segment.entry) * lists_[segment.list]->pools->statistic_count() +
                              column];
        }
        value = static_cast<double>(sum);
      } else {
        const std::uint64_t top = *TimestampOf(record.segments.front(), TimestampRole::kTopBefore);
        const std::uint64_t bottom = *TimestampOf(record.segments.front(), TimestampRole::kBottomBefore);
        const std::uint64_t end = *TimestampOf(record.segments.back(), TimestampRole::kBottomAfter);
        // Differences are taken modulo 2^timestampValidBits, so a counter that wrapped still measures right.
        std::uint64_t ticks = 0;
        switch (counter.source) {
          case CounterSource::kBottomToBottomTime: ticks = (end - bottom) & mask; break;
          case CounterSource::kTopToBottomTime: ticks = (end - top) & mask; break;
          case CounterSource::kStartTime: ticks = (top - origin.value_or(top)) & mask; break;
          case CounterSource::kEndTime: ticks = (end - origin.value_or(top)) & mask; break;
          case CounterSource::kPipelineStatistic:
          case CounterSource::kSampledMetric:
          case CounterSource::kPerformanceQuery: break;
        }
        value = static_cast<double>(ticks) * period;
      }
      (*values)[slot * columns + c] = value;
    }
  }
  return kGpaStatusOk;
}

bool VulkanSession::SampleIncomplete(SampleSlot slot, std::string* why) const {
  if (incomplete_.count(slot) == 0) return false;
  *why =
      "its end trigger for NVIDIA's GPU periodic sampler fired before the sample's work was done, and no sampler "
      "interval holds what ran after it (the GPU ran behind its triggers), so its hardware counts would be short; "
      "run the session again";
  return true;
}

}  // namespace opengpa::vulkan
