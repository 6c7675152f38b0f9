// The two ways a sample moves to another command list, split from session.cc: GpaContinueSampleOnCommandList
// (a sample begun on one primary list ends on a later one) and GpaCopySecondarySamples (the samples of an
// executed secondary list become samples of the primary list under new ids). Only the core's checks and
// bookkeeping are here; the backend records the move.
#include "core/secondary_copy_plan.h"
#include "core/session.h"
#include "platform/logging.h"
#include "platform/type_strings.h"

namespace opengpa {

using Lock = std::lock_guard<std::mutex>;

GpaStatus Session::ContinueSample(GpaUInt32 sample_id, CommandList& primary) {
  Lock lock(mutex_);
  const SampleSlot slot = slot_of_id_.Find(sample_id);
  if (slot == kNoSlot || primary.pass >= pass_count_ || passes_[primary.pass].StateOf(slot) == kAbsent) {
    return LogError(kGpaStatusErrorSampleNotFound, "src_sample_id {} was not begun in pass {}", sample_id,
                    primary.pass);
  }
  if (primary.type == kGpaCommandListNone) {
    return LogError(kGpaStatusErrorApiNotSupported,
                    "samples cannot be continued on this API (primary_command_list_id has type kGpaCommandListNone)");
  }
  if (primary.type != kGpaCommandListPrimary) {
    return LogError(kGpaStatusErrorInvalidParameter, "primary_command_list_id is a {} command list, not a primary one",
                    CommandListTypeName(primary.type));
  }
  if (passes_[primary.pass].StateOf(slot) != kOpen) {
    return LogError(kGpaStatusErrorFailed, "src_sample_id {} was already ended in pass {}", sample_id, primary.pass);
  }
  if (GpaStatus status = CheckListRecording(primary, "GpaContinueSampleOnCommandList"); status != kGpaStatusOk) {
    return status;
  }
  if (primary.open_sample != kNoSlot) {
    return LogError(kGpaStatusErrorSampleAlreadyStarted,
                    "primary_command_list_id already has sample {} open (samples do not nest)",
                    slots_[primary.open_sample].sample_id);
  }
  CommandList* source = nullptr;
  for (CommandList* list : lists_) {
    if (list->pass == primary.pass && list->open_sample == slot) source = list;
  }
  if (source == nullptr) {
    return LogError(kGpaStatusErrorFailed, "src_sample_id {} is not open on any command list of pass {}", sample_id,
                    primary.pass);
  }
  if (source->type != kGpaCommandListPrimary) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "src_sample_id {} was begun on a {} command list, not a primary one", sample_id,
                    CommandListTypeName(source->type));
  }
  if (GpaStatus status = backend_->ContinueSample(slot, *source->backend, *primary.backend); status != kGpaStatusOk) {
    return LogError(status, "the backend could not continue src_sample_id {} on another command list (status {})",
                    sample_id, static_cast<int>(status));
  }
  source->open_sample = kNoSlot;
  primary.open_sample = slot;
  return kGpaStatusOk;
}

GpaStatus Session::CopySecondarySamples(CommandList& secondary, CommandList& primary, GpaUInt32 count,
                                        const GpaUInt32* new_sample_ids) {
  Lock lock(mutex_);
  if (secondary.type == kGpaCommandListNone || primary.type == kGpaCommandListNone) {
    return LogError(kGpaStatusErrorApiNotSupported,
                    "this API has no secondary command lists (a command list of type kGpaCommandListNone was given)");
  }
  if (secondary.type != kGpaCommandListSecondary) {
    return LogError(kGpaStatusErrorInvalidParameter, "secondary_command_list_id is a {} command list",
                    CommandListTypeName(secondary.type));
  }
  if (primary.type != kGpaCommandListPrimary) {
    return LogError(kGpaStatusErrorInvalidParameter, "primary_command_list_id is a {} command list",
                    CommandListTypeName(primary.type));
  }
  if (secondary.pass != primary.pass) {
    return LogError(kGpaStatusErrorInvalidParameter, "the secondary command list is in pass {}, the primary in pass {}",
                    secondary.pass, primary.pass);
  }
  if (secondary.open) {
    return LogError(kGpaStatusErrorCommandListNotEnded,
                    "secondary_command_list_id must be ended with GpaEndCommandList before its samples are copied");
  }
  if (GpaStatus status = CheckListRecording(primary, "GpaCopySecondarySamples"); status != kGpaStatusOk) return status;
  if (count != secondary.samples.size()) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "num_samples {} differs from the {} samples of the secondary command list", count,
                    secondary.samples.size());
  }
  PassRecord& pass = passes_[primary.pass];
  for (SampleSlot slot : secondary.samples) {
    if (pass.StateOf(slot) != kEnded) {
      return LogError(kGpaStatusErrorSampleNotEnded, "sample_id {} of the secondary command list was not ended",
                      slots_[slot].sample_id);
    }
  }
  // Every new id must be new to this pass; an id seen in an earlier pass keeps its slot.
  SecondaryCopyPlan plan;
  if (GpaStatus status = PlanSecondaryCopy(
          secondary.samples, new_sample_ids, primary.pass, slot_of_id_, static_cast<SampleSlot>(slots_.size()),
          [&pass](SampleSlot slot) { return pass.StateOf(slot) != kAbsent; }, &plan);
      status != kGpaStatusOk) {
    return status;
  }
  if (GpaStatus status = backend_->CopySecondarySamples(*secondary.backend, *primary.backend, plan.copies);
      status != kGpaStatusOk) {
    return LogError(status, "the backend could not copy {} secondary samples (status {})", count,
                    static_cast<int>(status));
  }
  for (GpaUInt32 id : plan.new_ids) {
    slot_of_id_.Insert(id, static_cast<SampleSlot>(slots_.size()));
    slots_.push_back(SlotInfo{id, false});
  }
  for (const auto& copy : plan.copies) pass.Set(copy.second, kEnded);
  return kGpaStatusOk;
}

}  // namespace opengpa
