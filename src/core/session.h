// A GPA session: the counters enabled on it, its passes, command lists and samples, and its results.
//
// Every method locks the session, so samples can be recorded on distinct command lists from several
// threads; the backend is only ever called under that lock, except for BackendSession::ReadResults,
// which may wait for the device: GetSampleResult calls it without the session lock (one reader at a time;
// while it reads, IsPassComplete/IsComplete answer "not ready" without calling the backend), so no other
// call waits behind a device. Methods log the reason of every error.
#ifndef OPENGPA_CORE_SESSION_H_
#define OPENGPA_CORE_SESSION_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "core/backend.h"
#include "core/command_list.h"
#include "core/handle_registry.h"
#include "core/sample_id_map.h"
#include "core/sample_result_store.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

class Context;

class Session {
 public:
  enum class State { kCreated, kStarted, kEnded };

  // `sample_type`: a GpaSessionSampleType value as an int (see Backend::CreateSession).
  Session(Context& context, int sample_type);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Context& context() { return context_; }
  int sample_type() const { return sample_type_; }

  // Counter selection: only before Begin.
  [[nodiscard]] GpaStatus EnableCounter(GpaUInt32 index);
  [[nodiscard]] GpaStatus DisableCounter(GpaUInt32 index);
  [[nodiscard]] GpaStatus EnableCounterByName(std::string_view name);
  [[nodiscard]] GpaStatus DisableCounterByName(std::string_view name);
  [[nodiscard]] GpaStatus EnableAllCounters();
  [[nodiscard]] GpaStatus DisableAllCounters();
  [[nodiscard]] GpaStatus GetPassCount(GpaUInt32* passes);
  GpaUInt32 NumEnabledCounters();
  [[nodiscard]] GpaStatus GetEnabledIndex(GpaUInt32 enabled_number, GpaUInt32* counter_index);
  [[nodiscard]] GpaStatus IsCounterEnabled(GpaUInt32 index);

  [[nodiscard]] GpaStatus Begin();
  [[nodiscard]] GpaStatus End();
  bool started() {
    std::lock_guard<std::mutex> lock(mutex_);
    return state_ == State::kStarted;
  }
  // GPA 4. The caller holds the library's lock exclusively and has removed the session's command lists
  // from the registry (LibraryState::ReleaseCommandListsLocked): both drop the samples and the backend session.
  // Abort: a started session stops recording whatever its passes; it is then as before GpaBeginSession,
  // counters still enabled. Reset: any session becomes as GpaCreateSession made it (no counters enabled).
  [[nodiscard]] GpaStatus Abort();
  void Reset();

  // ---- Streaming sessions (kGpaSessionSampleTypeStreamingCounter; session_streaming.cc) ----
  // One span of streaming per session: GpaSpmBegin..GpaSpmEnd (GPA 4), or GPA v3's one sample
  // (GpaBeginSample..GpaEndSample, on pass 0), between GpaBeginSession and GpaEndSession.
  bool streaming() const;
  // Before the span begins (else kGpaStatusErrorCannotChangeCountersWhenSampling): 0 is invalid.
  [[nodiscard]] GpaStatus SetStreamingInterval(std::uint64_t interval_ns);
  [[nodiscard]] GpaStatus SetStreamingDuration(std::uint64_t duration_ns);
  [[nodiscard]] GpaStatus SetStreamingBufferBytes(std::uint64_t bytes);
  [[nodiscard]] GpaStatus SpmBegin();
  [[nodiscard]] GpaStatus SpmEnd();
  // After GpaEndSession: the raw series (values in `columns`' order: the session's hardware counters).
  [[nodiscard]] GpaStatus GetStreamingSeries(StreamingSeries* series, std::vector<HardwareCounterIndex>* columns);
  // The enabled counters, evaluated for `rows` samples of raw values in `columns` order (the same counters as
  // GetStreamingSeries'): out[row * enabled + e], in GpaGetSampleResult's 64-bit form.
  [[nodiscard]] GpaStatus EvaluateStreaming(const std::vector<HardwareCounterIndex>& columns, std::size_t rows,
                                            const std::vector<double>& raw, std::vector<std::uint64_t>* out);

  // Creates the command list; the caller registers it and then calls AddCommandList.
  [[nodiscard]] GpaStatus BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                                           std::unique_ptr<CommandList>* out);
  void AddCommandList(HandleValue id, CommandList* list);
  const std::vector<HandleValue>& command_list_ids() const { return command_list_ids_; }
  [[nodiscard]] GpaStatus EndCommandList(CommandList& list);

  [[nodiscard]] GpaStatus BeginSample(GpaUInt32 sample_id, CommandList& list);
  [[nodiscard]] GpaStatus EndSample(CommandList& list);
  // A sample moved to another command list (defined in session_sample_transfer.cc).
  [[nodiscard]] GpaStatus ContinueSample(GpaUInt32 sample_id, CommandList& primary);
  [[nodiscard]] GpaStatus CopySecondarySamples(CommandList& secondary, CommandList& primary, GpaUInt32 count,
                                               const GpaUInt32* new_sample_ids);

  [[nodiscard]] GpaStatus GetSampleCount(GpaUInt32* count);
  [[nodiscard]] GpaStatus GetSampleId(GpaUInt32 index, GpaUInt32* sample_id);

  // kGpaStatusOk or kGpaStatusResultNotReady (not an error; not logged as one).
  [[nodiscard]] GpaStatus IsPassComplete(GpaUInt32 pass);
  [[nodiscard]] GpaStatus IsComplete();
  [[nodiscard]] GpaStatus GetSampleResultSize(GpaUInt32 sample_id, std::size_t* size);
  // Blocks until the results are read (the first call after GpaEndSession reads and evaluates all).
  [[nodiscard]] GpaStatus GetSampleResult(GpaUInt32 sample_id, std::size_t size, void* out);

  // A pin keeps the session (and so its context) from being destroyed while a caller uses it without the
  // library lock: taken under the library lock, released without it. Retired::Destroy waits for the pins.
  class Pin {
   public:
    explicit Pin(Session& session) : session_(session) {
      std::lock_guard<std::mutex> lock(session_.pin_mutex_);
      ++session_.pins_;
    }
    ~Pin() {
      std::lock_guard<std::mutex> lock(session_.pin_mutex_);
      if (--session_.pins_ == 0) session_.unpinned_.notify_all();
    }
    Pin(const Pin&) = delete;
    Pin& operator=(const Pin&) = delete;

   private:
    Session& session_;
  };
  bool Pinned();
  void WaitUntilUnpinned();

 private:
  enum SampleState : std::uint8_t { kAbsent = 0, kOpen = 1, kEnded = 2 };
  struct SlotInfo {
    GpaUInt32 sample_id;
    bool on_secondary;  // begun on a secondary list: only readable through a copy
  };
  struct PassRecord {
    bool recorded = false;                   // some command list was begun for this pass
    std::vector<std::uint8_t> sample_state;  // SampleState by slot
    SampleState StateOf(SampleSlot slot) const {
      return slot < sample_state.size() ? static_cast<SampleState>(sample_state[slot]) : kAbsent;
    }
    void Set(SampleSlot slot, SampleState state);
  };

  enum class Span : std::uint8_t { kNone, kRunning, kStopped };
  [[nodiscard]] GpaStatus StartSpanLocked(const char* function);
  [[nodiscard]] GpaStatus StopSpanLocked(const char* function);
  [[nodiscard]] GpaStatus CheckStreamableLocked(const std::vector<std::uint32_t>& enabled);
  [[nodiscard]] GpaStatus ReadStreamingSeriesLocked();

  [[nodiscard]] GpaStatus CheckCanChangeCounters() const;
  [[nodiscard]] GpaStatus CheckCollectsCounters() const;
  // `argument` is how the message names the index.
  [[nodiscard]] GpaStatus CheckCounterIndex(GpaUInt32 index, std::string_view argument) const;
  [[nodiscard]] GpaStatus EnableLocked(GpaUInt32 index);
  [[nodiscard]] GpaStatus DisableLocked(GpaUInt32 index);
  bool CollectsCounters() const;
  [[nodiscard]] GpaStatus CheckSessionRecording(std::string_view function) const;
  [[nodiscard]] GpaStatus CheckListRecording(const CommandList& list, std::string_view function) const;
  [[nodiscard]] GpaStatus CheckPassesConsistent() const;
  // Reads and evaluates every result; called with `read_mutex_` held and `mutex_` not held.
  [[nodiscard]] GpaStatus ReadResults();
  void DiscardSamplesLocked();

  Context& context_;
  const int sample_type_;
  std::mutex mutex_;
  State state_ = State::kCreated;
  std::mutex read_mutex_;  // one ReadResults at a time; taken before mutex_, never while holding it
  bool reading_ = false;   // a ReadResults is in progress (under mutex_)

  std::mutex pin_mutex_;
  std::condition_variable unpinned_;
  int pins_ = 0;

  std::vector<std::uint32_t> enabled_;          // public counter indices, in enable order
  std::vector<bool> enabled_mask_;              // by public counter index
  std::vector<HardwareCounterIndex> hardware_;  // what the backend session collects, ascending

  std::unique_ptr<BackendSession> backend_;
  GpaUInt32 pass_count_ = 0;
  std::vector<PassRecord> passes_;
  std::vector<CommandList*> lists_;  // owned by the library's command-list registry
  std::vector<HandleValue> command_list_ids_;

  SampleIdMap slot_of_id_;
  std::vector<SlotInfo> slots_;  // by slot, in order of first use
  SampleResultStore results_;

  StreamingOptions streaming_options_;
  Span span_ = Span::kNone;
  bool series_read_ = false;
  StreamingSeries series_;
};

}  // namespace opengpa

#endif  // OPENGPA_CORE_SESSION_H_
