#include "core/session.h"

#include <algorithm>

#include "core/context.h"
#include "platform/logging.h"
#include "platform/type_strings.h"

namespace opengpa {
namespace {

using Lock = std::lock_guard<std::mutex>;

}  // namespace

void Session::PassRecord::Set(SampleSlot slot, SampleState state) {
  if (slot >= sample_state.size()) {
    // Geometric growth: after the first pass has sized it, recording never allocates.
    std::size_t size = std::max<std::size_t>(64, sample_state.size());
    while (size <= slot) size *= 2;
    sample_state.resize(size, kAbsent);
  }
  sample_state[slot] = state;
}

Session::Session(Context& context, int sample_type)
    : context_(context), sample_type_(sample_type), enabled_mask_(context.counters().size(), false) {}

Session::~Session() { context_.Deactivate(this); }

// ---- Counter selection -------------------------------------------------------------------------

bool Session::CollectsCounters() const {
  return sample_type_ == kGpaSessionSampleTypeDiscreteCounter ||
         sample_type_ == kGpaSessionSampleTypeStreamingCounter ||
         sample_type_ == kGpaSessionSampleTypeStreamingCounterAndSqtt;
}

GpaStatus Session::CheckCanChangeCounters() const {
  if (state_ != State::kCreated) {
    return LogError(kGpaStatusErrorCannotChangeCountersWhenSampling,
                    "counters cannot be enabled or disabled after GpaBeginSession");
  }
  return kGpaStatusOk;
}

GpaStatus Session::CheckCollectsCounters() const {
  if (!CollectsCounters()) {
    return LogError(kGpaStatusErrorIncompatibleSampleTypes, "the session's sample type {} collects no counters",
                    static_cast<int>(sample_type_));
  }
  return kGpaStatusOk;
}

GpaStatus Session::CheckCounterIndex(GpaUInt32 index, std::string_view argument) const {
  if (index >= context_.counters().size()) {
    return LogError(kGpaStatusErrorIndexOutOfRange, "{} {} is not below the counter count {}", argument, index,
                    context_.counters().size());
  }
  return kGpaStatusOk;
}

GpaStatus Session::EnableLocked(GpaUInt32 index) {
  if (enabled_mask_[index]) {
    return LogError(kGpaStatusErrorAlreadyEnabled, "counter {} ('{}') is already enabled", index,
                    context_.counters().at(index).name);
  }
  if (GpaStatus status = CheckCollectsCounters(); status != kGpaStatusOk) return status;
  if (streaming()) {
    std::vector<std::uint32_t> wanted = enabled_;
    wanted.push_back(index);
    if (GpaStatus status = CheckStreamableLocked(wanted); status != kGpaStatusOk) {
      return LogError(status, "counter {} ('{}') cannot be streamed together with the {} counters enabled", index,
                      context_.counters().at(index).name, enabled_.size());
    }
  }
  enabled_mask_[index] = true;
  enabled_.push_back(index);
  return kGpaStatusOk;
}

GpaStatus Session::DisableLocked(GpaUInt32 index) {
  if (!enabled_mask_[index]) {
    return LogError(kGpaStatusErrorNotEnabled, "counter {} ('{}') is not enabled", index,
                    context_.counters().at(index).name);
  }
  enabled_mask_[index] = false;
  enabled_.erase(std::find(enabled_.begin(), enabled_.end(), index));
  return kGpaStatusOk;
}

GpaStatus Session::EnableCounter(GpaUInt32 index) {
  Lock lock(mutex_);
  if (GpaStatus status = CheckCanChangeCounters(); status != kGpaStatusOk) return status;
  if (GpaStatus status = CheckCounterIndex(index, "index"); status != kGpaStatusOk) return status;
  return EnableLocked(index);
}

GpaStatus Session::DisableCounter(GpaUInt32 index) {
  Lock lock(mutex_);
  if (GpaStatus status = CheckCanChangeCounters(); status != kGpaStatusOk) return status;
  if (GpaStatus status = CheckCounterIndex(index, "index"); status != kGpaStatusOk) return status;
  return DisableLocked(index);
}

GpaStatus Session::EnableCounterByName(std::string_view name) {
  Lock lock(mutex_);
  if (GpaStatus status = CheckCanChangeCounters(); status != kGpaStatusOk) return status;
  const auto index = context_.counters().Find(name);
  if (!index) {
    return LogError(kGpaStatusErrorCounterNotFound, "counter_name '{}' is not a counter of this context", name);
  }
  return EnableLocked(*index);
}

GpaStatus Session::DisableCounterByName(std::string_view name) {
  Lock lock(mutex_);
  if (GpaStatus status = CheckCanChangeCounters(); status != kGpaStatusOk) return status;
  const auto index = context_.counters().Find(name);
  if (!index) {
    return LogError(kGpaStatusErrorCounterNotFound, "counter_name '{}' is not a counter of this context", name);
  }
  return DisableLocked(*index);
}

GpaStatus Session::EnableAllCounters() {
  Lock lock(mutex_);
  if (GpaStatus status = CheckCanChangeCounters(); status != kGpaStatusOk) return status;
  if (GpaStatus status = CheckCollectsCounters(); status != kGpaStatusOk) return status;
  if (streaming()) {
    std::vector<std::uint32_t> all(context_.counters().size());
    for (GpaUInt32 i = 0; i < all.size(); ++i) all[i] = i;
    if (GpaStatus status = CheckStreamableLocked(all); status != kGpaStatusOk) {
      return LogError(status, "the {} counters of the context cannot all be streamed at once; enable them one by one",
                      all.size());
    }
  }
  for (GpaUInt32 i = 0; i < context_.counters().size(); ++i) {
    if (!enabled_mask_[i]) {
      enabled_mask_[i] = true;
      enabled_.push_back(i);
    }
  }
  return kGpaStatusOk;
}

GpaStatus Session::DisableAllCounters() {
  Lock lock(mutex_);
  if (GpaStatus status = CheckCanChangeCounters(); status != kGpaStatusOk) return status;
  enabled_.clear();
  std::fill(enabled_mask_.begin(), enabled_mask_.end(), false);
  return kGpaStatusOk;
}

GpaStatus Session::GetPassCount(GpaUInt32* passes) {
  Lock lock(mutex_);
  if (state_ != State::kCreated) {
    *passes = pass_count_;
    return kGpaStatusOk;
  }
  if (enabled_.empty()) {
    *passes = 0;
    return kGpaStatusOk;
  }
  GpaUInt32 count = 0;
  const GpaStatus status = context_.backend().CountPasses(context_.counters().HardwareNeeded(enabled_), &count);
  if (status != kGpaStatusOk) {
    return LogError(status, "the backend could not count the passes of {} enabled counters", enabled_.size());
  }
  *passes = std::max<GpaUInt32>(count, 1);
  return kGpaStatusOk;
}

GpaUInt32 Session::NumEnabledCounters() {
  Lock lock(mutex_);
  return static_cast<GpaUInt32>(enabled_.size());
}

GpaStatus Session::GetEnabledIndex(GpaUInt32 enabled_number, GpaUInt32* counter_index) {
  Lock lock(mutex_);
  if (enabled_number >= enabled_.size()) {
    return LogError(kGpaStatusErrorIndexOutOfRange, "enabled_number {} is not below the enabled counter count {}",
                    enabled_number, enabled_.size());
  }
  *counter_index = enabled_[enabled_number];
  return kGpaStatusOk;
}

GpaStatus Session::IsCounterEnabled(GpaUInt32 index) {
  Lock lock(mutex_);
  if (GpaStatus status = CheckCounterIndex(index, "counter_index"); status != kGpaStatusOk) return status;
  if (!enabled_mask_[index]) {
    return LogError(kGpaStatusErrorCounterNotFound, "counter {} ('{}') is not enabled", index,
                    context_.counters().at(index).name);
  }
  return kGpaStatusOk;
}

// ---- Lifecycle ---------------------------------------------------------------------------------

GpaStatus Session::Begin() {
  Lock lock(mutex_);
  if (state_ != State::kCreated) {
    return LogError(kGpaStatusErrorSessionAlreadyStarted, "the session was already begun{}",
                    state_ == State::kEnded ? " and ended" : "");
  }
  if (enabled_.empty()) return LogError(kGpaStatusErrorNoCountersEnabled, "no counters are enabled on the session");
  if (!context_.TryActivate(this)) {
    return LogError(kGpaStatusErrorOtherSessionActive,
                    "another session of this context is between GpaBeginSession and GpaEndSession");
  }
  hardware_ = context_.counters().HardwareNeeded(enabled_);
  std::unique_ptr<BackendSession> backend;
  GpaStatus status = context_.backend().CreateSession(sample_type_, hardware_, &backend);
  if (status == kGpaStatusOk && !backend) status = kGpaStatusErrorFailed;
  if (status == kGpaStatusOk) status = backend->Begin();
  if (status != kGpaStatusOk) {
    context_.Deactivate(this);
    return LogError(status, "the backend could not begin a session collecting {} hardware counters", hardware_.size());
  }
  pass_count_ = std::max<GpaUInt32>(backend->PassCount(), 1);
  backend_ = std::move(backend);
  passes_.assign(pass_count_, PassRecord{});
  state_ = State::kStarted;
  return kGpaStatusOk;
}

GpaStatus Session::CheckPassesConsistent() const {
  if (streaming() && lists_.empty()) return kGpaStatusOk;  // GpaSpmBegin..GpaSpmEnd: no command list needed
  for (GpaUInt32 pass = 0; pass < pass_count_; ++pass) {
    if (!passes_[pass].recorded) {
      return LogError(kGpaStatusErrorNotEnoughPasses,
                      "pass {} of {} was never recorded (no GpaBeginCommandList for it)", pass, pass_count_);
    }
  }
  for (SampleSlot slot = 0; slot < slots_.size(); ++slot) {
    const bool in_first = passes_[0].StateOf(slot) != kAbsent;
    for (GpaUInt32 pass = 1; pass < pass_count_; ++pass) {
      if ((passes_[pass].StateOf(slot) != kAbsent) != in_first) {
        return LogError(kGpaStatusErrorVariableNumberOfSamplesInPasses, "sample_id {} is in pass {} but not in pass {}",
                        slots_[slot].sample_id, in_first ? 0 : pass, in_first ? pass : 0);
      }
    }
  }
  for (GpaUInt32 pass = 0; pass < pass_count_; ++pass) {
    for (SampleSlot slot = 0; slot < slots_.size(); ++slot) {
      if (passes_[pass].StateOf(slot) == kOpen) {
        return LogError(kGpaStatusErrorSampleNotEnded, "sample_id {} was begun in pass {} but never ended",
                        slots_[slot].sample_id, pass);
      }
    }
  }
  return kGpaStatusOk;
}

GpaStatus Session::End() {
  Lock lock(mutex_);
  if (state_ != State::kStarted) {
    return LogError(kGpaStatusErrorSessionNotStarted, "the session {}",
                    state_ == State::kEnded ? "was already ended" : "was not begun");
  }
  for (const CommandList* list : lists_) {
    if (list->open) {
      return LogError(kGpaStatusErrorCommandListNotEnded,
                      "a command list of pass {} was not ended with GpaEndCommandList", list->pass);
    }
  }
  if (span_ == Span::kRunning) {
    return LogError(kGpaStatusErrorSampleNotEnded, "the session's streaming was begun but not ended (GpaSpmEnd)");
  }
  if (GpaStatus status = CheckPassesConsistent(); status != kGpaStatusOk) return status;
  if (GpaStatus status = backend_->End(); status != kGpaStatusOk) {
    return LogError(status, "the backend could not end the session");
  }
  state_ = State::kEnded;
  context_.Deactivate(this);
  return kGpaStatusOk;
}

void Session::DiscardSamplesLocked() {
  if (state_ == State::kStarted) context_.Deactivate(this);
  backend_.reset();
  hardware_.clear();
  pass_count_ = 0;
  passes_.clear();
  lists_.clear();
  command_list_ids_.clear();
  slot_of_id_ = SampleIdMap{};
  slots_.clear();
  results_.Clear();
  span_ = Span::kNone;
  series_read_ = false;
  series_ = StreamingSeries{};
  state_ = State::kCreated;
}

GpaStatus Session::Abort() {
  Lock lock(mutex_);
  if (state_ != State::kStarted) {
    return LogError(kGpaStatusErrorSessionNotStarted, "the session {}: there is no sampling to abort",
                    state_ == State::kEnded ? "was already ended" : "was not begun");
  }
  DiscardSamplesLocked();
  return kGpaStatusOk;
}

void Session::Reset() {
  Lock lock(mutex_);
  DiscardSamplesLocked();
  enabled_.clear();
  std::fill(enabled_mask_.begin(), enabled_mask_.end(), false);
  streaming_options_ = StreamingOptions{};
}

// ---- Command lists -----------------------------------------------------------------------------

GpaStatus Session::CheckSessionRecording(std::string_view function) const {
  if (state_ == State::kCreated) {
    return LogError(kGpaStatusErrorSessionNotStarted, "{}: the session was not begun with GpaBeginSession", function);
  }
  if (state_ == State::kEnded) {
    return LogError(kGpaStatusErrorSessionNotStarted, "{}: the session was already ended with GpaEndSession", function);
  }
  return kGpaStatusOk;
}

GpaStatus Session::BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                                    std::unique_ptr<CommandList>* out) {
  Lock lock(mutex_);
  if (GpaStatus status = CheckSessionRecording("GpaBeginCommandList"); status != kGpaStatusOk) return status;
  if (pass >= pass_count_) {
    return LogError(kGpaStatusErrorIndexOutOfRange, "pass_index {} is not below the session's pass count {}", pass,
                    pass_count_);
  }
  for (const CommandList* list : lists_) {
    if (list->open && list->pass == pass && list->api_list == api_list) {
      return LogError(kGpaStatusErrorCommandListAlreadyStarted,
                      "command_list {} is already begun for pass {} and not yet ended", api_list, pass);
    }
  }
  auto list = std::make_unique<CommandList>();
  list->session = this;
  list->pass = pass;
  list->type = type;
  list->api_list = api_list;
  const GpaStatus status = backend_->BeginCommandList(pass, api_list, type, &list->backend);
  if (status != kGpaStatusOk || !list->backend) {
    return LogError(status != kGpaStatusOk ? status : kGpaStatusErrorFailed,
                    "the backend could not begin command_list {} ({}) for pass {}", api_list, CommandListTypeName(type),
                    pass);
  }
  PassRecord& record = passes_[pass];
  record.recorded = true;
  // Later passes repeat the samples already seen: size the pass for them now, off the hot path.
  if (record.sample_state.size() < slots_.size()) record.sample_state.resize(slots_.size(), kAbsent);
  *out = std::move(list);
  return kGpaStatusOk;
}

void Session::AddCommandList(HandleValue id, CommandList* list) {
  Lock lock(mutex_);
  lists_.push_back(list);
  command_list_ids_.push_back(id);
}

GpaStatus Session::CheckListRecording(const CommandList& list, std::string_view function) const {
  if (!list.open) {
    return LogError(kGpaStatusErrorCommandListAlreadyEnded, "{}: the command list of pass {} was already ended",
                    function, list.pass);
  }
  if (list.pass >= pass_count_) {  // not reachable through GpaBeginCommandList; kept as GPA documents it
    return LogError(kGpaStatusErrorIndexOutOfRange, "{}: the command list's pass {} is not below the pass count {}",
                    function, list.pass, pass_count_);
  }
  return kGpaStatusOk;
}

GpaStatus Session::EndCommandList(CommandList& list) {
  Lock lock(mutex_);
  if (!list.open) {
    return LogError(kGpaStatusErrorCommandListAlreadyEnded, "the command list of pass {} was already ended", list.pass);
  }
  if (GpaStatus status = backend_->EndCommandList(*list.backend); status != kGpaStatusOk) {
    return LogError(status, "the backend could not end the command list of pass {}", list.pass);
  }
  list.open = false;  // a sample still open here may be continued on another command list
  return kGpaStatusOk;
}

// ---- Samples -----------------------------------------------------------------------------------

GpaStatus Session::BeginSample(GpaUInt32 sample_id, CommandList& list) {
  Lock lock(mutex_);
  if (GpaStatus status = CheckListRecording(list, "GpaBeginSample"); status != kGpaStatusOk) return status;
  if (list.open_sample != kNoSlot) {
    return LogError(kGpaStatusErrorSampleAlreadyStarted,
                    "sample_id {}: sample {} is still open on this command list (samples do not nest)", sample_id,
                    slots_[list.open_sample].sample_id);
  }
  PassRecord& pass = passes_[list.pass];
  SampleSlot slot = slot_of_id_.Find(sample_id);
  const bool is_new = slot == kNoSlot;
  if (is_new) {
    slot = static_cast<SampleSlot>(slots_.size());
  } else if (pass.StateOf(slot) != kAbsent) {
    return LogError(kGpaStatusErrorInvalidParameter, "sample_id {} is already used in pass {}", sample_id, list.pass);
  }
  if (streaming()) {  // GPA v3's streaming: the session's one sample is its span
    if (!is_new || !slots_.empty()) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "sample_id {}: a streaming session has one sample, which spans the streamed work", sample_id);
    }
    if (GpaStatus status = StartSpanLocked("GpaBeginSample"); status != kGpaStatusOk) return status;
  } else if (GpaStatus status = backend_->BeginSample(*list.backend, slot); status != kGpaStatusOk) {
    return LogError(status, "the backend could not begin sample_id {} in pass {}", sample_id, list.pass);
  }
  const bool secondary = list.type == kGpaCommandListSecondary;
  if (is_new) {
    slots_.push_back(SlotInfo{sample_id, secondary});
    slot_of_id_.Insert(sample_id, slot);
  } else if (secondary) {
    slots_[slot].on_secondary = true;
  }
  pass.Set(slot, kOpen);
  list.open_sample = slot;
  if (secondary) list.samples.push_back(slot);
  return kGpaStatusOk;
}

GpaStatus Session::EndSample(CommandList& list) {
  Lock lock(mutex_);
  if (GpaStatus status = CheckListRecording(list, "GpaEndSample"); status != kGpaStatusOk) return status;
  const SampleSlot slot = list.open_sample;
  if (slot == kNoSlot) {
    return LogError(kGpaStatusErrorSampleNotStarted, "no sample is open on this command list of pass {}", list.pass);
  }
  if (streaming()) {
    if (GpaStatus status = StopSpanLocked("GpaEndSample"); status != kGpaStatusOk) return status;
  } else if (GpaStatus status = backend_->EndSample(*list.backend, slot); status != kGpaStatusOk) {
    return LogError(status, "the backend could not end sample_id {} in pass {}", slots_[slot].sample_id, list.pass);
  }
  passes_[list.pass].Set(slot, kEnded);
  list.open_sample = kNoSlot;
  return kGpaStatusOk;
}

// ---- Queries and results -----------------------------------------------------------------------

GpaStatus Session::GetSampleCount(GpaUInt32* count) {
  Lock lock(mutex_);
  if (state_ != State::kEnded) {
    return LogError(kGpaStatusErrorSessionNotEnded, "the sample count is known once GpaEndSession succeeded");
  }
  *count = static_cast<GpaUInt32>(slots_.size());
  return kGpaStatusOk;
}

GpaStatus Session::GetSampleId(GpaUInt32 index, GpaUInt32* sample_id) {
  Lock lock(mutex_);
  if (state_ == State::kCreated) {
    return LogError(kGpaStatusErrorSessionNotStarted, "the session was not begun with GpaBeginSession");
  }
  if (index >= slots_.size()) {
    return LogError(kGpaStatusErrorSampleNotFound, "index {} is not below the sample count {}", index, slots_.size());
  }
  *sample_id = slots_[index].sample_id;
  return kGpaStatusOk;
}

GpaStatus Session::IsPassComplete(GpaUInt32 pass) {
  Lock lock(mutex_);
  if (state_ == State::kCreated) {
    return LogError(kGpaStatusErrorSessionNotStarted, "the session was not begun with GpaBeginSession");
  }
  if (pass >= pass_count_) {
    return LogError(kGpaStatusErrorIndexOutOfRange, "pass_index {} is not below the pass count {}", pass, pass_count_);
  }
  if (results_.ready()) return kGpaStatusOk;
  if (reading_) return kGpaStatusResultNotReady;  // the reader has the backend
  for (const CommandList* list : lists_) {
    if (list->pass == pass && list->open) return kGpaStatusResultNotReady;
  }
  if (!passes_[pass].recorded) return kGpaStatusResultNotReady;
  return backend_->IsPassComplete(pass) ? kGpaStatusOk : kGpaStatusResultNotReady;
}

GpaStatus Session::IsComplete() {
  Lock lock(mutex_);
  if (state_ == State::kCreated) {
    return LogError(kGpaStatusErrorSessionNotStarted, "the session was not begun with GpaBeginSession");
  }
  if (state_ == State::kStarted) {
    return LogError(kGpaStatusErrorSessionNotEnded, "the session was not ended with GpaEndSession");
  }
  if (results_.ready()) return kGpaStatusOk;
  if (reading_) return kGpaStatusResultNotReady;  // the reader has the backend
  for (GpaUInt32 pass = 0; pass < pass_count_; ++pass) {
    if (!backend_->IsPassComplete(pass)) return kGpaStatusResultNotReady;
  }
  return kGpaStatusOk;
}

GpaStatus Session::GetSampleResultSize(GpaUInt32 sample_id, std::size_t* size) {
  Lock lock(mutex_);
  if (state_ != State::kEnded) {
    return LogError(kGpaStatusErrorSessionNotEnded, "results exist once GpaEndSession succeeded");
  }
  if (slot_of_id_.Find(sample_id) == kNoSlot) {
    return LogError(kGpaStatusErrorSampleNotFound, "sample_id {} is not a sample of this session", sample_id);
  }
  *size = enabled_.size() * sizeof(GpaUInt64);
  return kGpaStatusOk;
}

bool Session::Pinned() {
  std::lock_guard<std::mutex> lock(pin_mutex_);
  return pins_ != 0;
}

void Session::WaitUntilUnpinned() {
  std::unique_lock<std::mutex> lock(pin_mutex_);
  unpinned_.wait(lock, [this] { return pins_ == 0; });
}

GpaStatus Session::ReadResults() {
  SampleSlot slot_count;
  {
    Lock lock(mutex_);
    if (results_.ready()) return kGpaStatusOk;  // the reader before us read them
    reading_ = true;
    // Fixed once the session ended: no sample can be added.
    slot_count = static_cast<SampleSlot>(slots_.size());
  }
  // Clears reading_ however this returns (an exception from the backend included).
  struct ReadingFlag {
    Session& session;
    ~ReadingFlag() {
      Lock lock(session.mutex_);
      session.reading_ = false;
    }
  } reading_flag{*this};
  std::vector<double> raw;
  const GpaStatus read = backend_->ReadResults(slot_count, &raw);  // may wait for the device: no lock held
  Lock lock(mutex_);
  if (GpaStatus status = read; status != kGpaStatusOk) {
    return LogError(kGpaStatusErrorReadingSampleResult, "the backend could not read the results (status {})",
                    static_cast<int>(status));
  }
  const std::size_t expected = static_cast<std::size_t>(slot_count) * hardware_.size();
  if (raw.size() != expected) {
    return LogError(kGpaStatusErrorReadingSampleResult,
                    "the backend returned {} values for {} samples of {} hardware counters", raw.size(), slot_count,
                    hardware_.size());
  }
  results_.Evaluate(context_.counters(), enabled_, hardware_, context_.backend().HardwareCounters().size(), slot_count,
                    raw);
  return kGpaStatusOk;
}

GpaStatus Session::GetSampleResult(GpaUInt32 sample_id, std::size_t size, void* out) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (state_ != State::kEnded) {
    return LogError(kGpaStatusErrorSessionNotEnded, "results exist once GpaEndSession succeeded");
  }
  const SampleSlot slot = slot_of_id_.Find(sample_id);
  if (slot == kNoSlot) {
    return LogError(kGpaStatusErrorSampleNotFound, "sample_id {} is not a sample of this session", sample_id);
  }
  if (slots_[slot].on_secondary) {
    return LogError(
        kGpaStatusErrorSampleInSecondaryCommandList,
        "sample_id {} was recorded on a secondary command list; read the ids given to GpaCopySecondarySamples",
        sample_id);
  }
  const std::size_t expected = enabled_.size() * sizeof(GpaUInt64);
  if (size != expected) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "sample_result_size_in_bytes {} differs from the result size {} ({} enabled counters)", size,
                    expected, enabled_.size());
  }
  if (!results_.ready()) {
    lock.unlock();
    {
      std::lock_guard<std::mutex> reader(read_mutex_);
      if (GpaStatus status = ReadResults(); status != kGpaStatusOk) return status;
    }
    lock.lock();
  }
  std::string why;
  if (backend_->SampleIncomplete(slot, &why)) {
    return LogError(kGpaStatusErrorReadingSampleResult, "sample_id {} has no result: {}", sample_id, why);
  }
  results_.CopyRow(slot, out);
  return kGpaStatusOk;
}

}  // namespace opengpa
