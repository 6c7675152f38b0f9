#include "backends/common/immediate_session.h"

#include "platform/logging.h"

namespace opengpa {
namespace {

// Carries nothing: the API has no command lists, so the sample commands go to the driver's stream directly.
class NullCommandList final : public BackendCommandList {};

}  // namespace

GpaStatus ImmediateSession::BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                                             std::unique_ptr<BackendCommandList>* out) {
  if (pass >= passes_) {
    return LogError(kGpaStatusErrorIndexOutOfRange, "GpaBeginCommandList: pass {} of an {} session that has {} pass{}",
                    pass, api_, passes_, passes_ == 1 ? "" : "es");
  }
  if (type != kGpaCommandListNone || api_list != nullptr) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "GpaBeginCommandList: {} has no command lists; pass GPA_NULL_COMMAND_LIST and "
                    "kGpaCommandListNone (got command_list {}, type {})",
                    api_, api_list, static_cast<int>(type));
  }
  if (GpaStatus status = BeginPass(pass); status != kGpaStatusOk) return status;
  current_pass_ = pass;
  *out = std::make_unique<NullCommandList>();
  return kGpaStatusOk;
}

GpaStatus ImmediateSession::EndCommandList(BackendCommandList& /*list*/) {
  return RequireNoOpenSample("GpaEndCommandList");
}

GpaStatus ImmediateSession::RequireNoOpenSample(std::string_view function) const {
  if (open_sample_) {
    return LogError(kGpaStatusErrorSampleNotEnded, "{}: sample slot {} is still open", function, *open_sample_);
  }
  return kGpaStatusOk;
}

GpaStatus ImmediateSession::CheckSampleCanBegin(SampleSlot slot, bool slot_used) const {
  if (open_sample_) {
    return LogError(kGpaStatusErrorSampleAlreadyStarted,
                    "GpaBeginSample: slot {} begins while slot {} is open; {} samples cannot nest", slot, *open_sample_,
                    api_);
  }
  if (slot_used) {
    return LogError(kGpaStatusErrorSampleAlreadyStarted, "GpaBeginSample: slot {} was already sampled in this pass",
                    slot);
  }
  return kGpaStatusOk;
}

GpaStatus ImmediateSession::CheckSampleIsOpen(SampleSlot slot) const {
  if (open_sample_ != slot) {
    return LogError(kGpaStatusErrorSampleNotStarted, "GpaEndSample: slot {} is not the open sample", slot);
  }
  return kGpaStatusOk;
}

}  // namespace opengpa
