// A GPA session: the counters enabled on it, its passes, command lists and samples, and its results.
//
// Every method locks the session, so samples can be recorded on distinct command lists from several
// threads; the backend is only ever called under that lock. Methods log the reason of every error.
#ifndef OPENGPA_CORE_SESSION_H_
#define OPENGPA_CORE_SESSION_H_

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

  Session(Context& context, GpaSessionSampleType sample_type);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Context& context() { return context_; }
  GpaSessionSampleType sample_type() const { return sample_type_; }

  // Counter selection: only before Begin.
  GpaStatus EnableCounter(GpaUInt32 index);
  GpaStatus DisableCounter(GpaUInt32 index);
  GpaStatus EnableCounterByName(std::string_view name);
  GpaStatus DisableCounterByName(std::string_view name);
  GpaStatus EnableAllCounters();
  GpaStatus DisableAllCounters();
  GpaStatus GetPassCount(GpaUInt32* passes);
  GpaUInt32 NumEnabledCounters();
  GpaStatus GetEnabledIndex(GpaUInt32 enabled_number, GpaUInt32* counter_index);
  GpaStatus IsCounterEnabled(GpaUInt32 index);

  GpaStatus Begin();
  GpaStatus End();
  bool started() {
    std::lock_guard<std::mutex> lock(mutex_);
    return state_ == State::kStarted;
  }
  // GPA 4. The caller holds the library's lock exclusively and has removed the session's command lists
  // from the registry (LibraryState::ReleaseCommandListsLocked): both drop the samples and the backend session.
  // Abort: a started session stops recording whatever its passes; it is then as before GpaBeginSession,
  // counters still enabled. Reset: any session becomes as GpaCreateSession made it (no counters enabled).
  GpaStatus Abort();
  void Reset();

  // Creates the command list; the caller registers it and then calls AddCommandList.
  GpaStatus BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                             std::unique_ptr<CommandList>* out);
  void AddCommandList(HandleValue id, CommandList* list);
  const std::vector<HandleValue>& command_list_ids() const { return command_list_ids_; }
  GpaStatus EndCommandList(CommandList& list);

  GpaStatus BeginSample(GpaUInt32 sample_id, CommandList& list);
  GpaStatus EndSample(CommandList& list);
  // A sample moved to another command list (defined in session_sample_transfer.cc).
  GpaStatus ContinueSample(GpaUInt32 sample_id, CommandList& primary);
  GpaStatus CopySecondarySamples(CommandList& secondary, CommandList& primary, GpaUInt32 count,
                                 const GpaUInt32* new_sample_ids);

  GpaStatus GetSampleCount(GpaUInt32* count);
  GpaStatus GetSampleId(GpaUInt32 index, GpaUInt32* sample_id);

  // kGpaStatusOk or kGpaStatusResultNotReady (not an error; not logged as one).
  GpaStatus IsPassComplete(GpaUInt32 pass);
  GpaStatus IsComplete();
  GpaStatus GetSampleResultSize(GpaUInt32 sample_id, std::size_t* size);
  // Blocks until the results are read (the first call after GpaEndSession reads and evaluates all).
  GpaStatus GetSampleResult(GpaUInt32 sample_id, std::size_t size, void* out);

 private:
  enum SampleState : std::uint8_t { kAbsent = 0, kOpen = 1, kEnded = 2 };
  struct SlotInfo {
    GpaUInt32 sample_id;
    bool on_secondary;  // begun on a secondary list: only readable through a copy
  };
  struct PassRecord {
    bool recorded = false;                  // some command list was begun for this pass
    std::vector<std::uint8_t> sample_state;  // SampleState by slot
    SampleState StateOf(SampleSlot slot) const {
      return slot < sample_state.size() ? static_cast<SampleState>(sample_state[slot]) : kAbsent;
    }
    void Set(SampleSlot slot, SampleState state);
  };

  GpaStatus CheckCanChangeCounters() const;
  GpaStatus CheckCollectsCounters() const;
  // `argument` is how the message names the index.
  GpaStatus CheckCounterIndex(GpaUInt32 index, std::string_view argument) const;
  GpaStatus EnableLocked(GpaUInt32 index);
  GpaStatus DisableLocked(GpaUInt32 index);
  bool CollectsCounters() const;
  GpaStatus CheckSessionRecording(std::string_view function) const;
  GpaStatus CheckListRecording(const CommandList& list, std::string_view function) const;
  GpaStatus CheckPassesConsistent() const;
  GpaStatus ReadResultsLocked();
  void DiscardSamplesLocked();

  Context& context_;
  const GpaSessionSampleType sample_type_;
  std::mutex mutex_;
  State state_ = State::kCreated;

  std::vector<std::uint32_t> enabled_;  // public counter indices, in enable order
  std::vector<bool> enabled_mask_;      // by public counter index
  std::vector<HardwareCounterIndex> hardware_;  // what the backend session collects, ascending

  std::unique_ptr<BackendSession> backend_;
  GpaUInt32 pass_count_ = 0;
  std::vector<PassRecord> passes_;
  std::vector<CommandList*> lists_;  // owned by the library's command-list registry
  std::vector<HandleValue> command_list_ids_;

  SampleIdMap slot_of_id_;
  std::vector<SlotInfo> slots_;  // by slot, in order of first use
  SampleResultStore results_;
};

}  // namespace opengpa

#endif  // OPENGPA_CORE_SESSION_H_
