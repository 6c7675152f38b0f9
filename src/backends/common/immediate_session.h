// A session for an API that records straight into the driver's stream instead of into command lists
// (OpenGL, OpenCL): each pass's one "command list" is GPA_NULL_COMMAND_LIST with kGpaCommandListNone (one pass,
// unless the backend's counters need more), and samples that do not nest. Subclasses record and read the samples; this
// class keeps which one is open and refuses misuse with the same statuses and messages for every such API.
#ifndef OPENGPA_BACKENDS_COMMON_IMMEDIATE_SESSION_H_
#define OPENGPA_BACKENDS_COMMON_IMMEDIATE_SESSION_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/backend.h"

namespace opengpa {

class ImmediateSession : public BackendSession {
 public:
  GpaUInt32 PassCount() const final { return passes_; }
  // kGpaStatusErrorIndexOutOfRange for a pass >= PassCount(); kGpaStatusErrorInvalidParameter for a command
  // list or a type other than kGpaCommandListNone. Then BeginPass(pass).
  [[nodiscard]] GpaStatus BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                                           std::unique_ptr<BackendCommandList>* out) final;
  // kGpaStatusErrorSampleNotEnded while a sample is open.
  [[nodiscard]] GpaStatus EndCommandList(BackendCommandList& list) final;

 protected:
  // `api` names the API in messages ("OpenGL", "OpenCL").
  explicit ImmediateSession(std::string_view api, GpaUInt32 passes = 1) : api_(api), passes_(passes) {}
  // The pass whose command list GpaBeginCommandList begins (the one every sample until the next is recorded in).
  [[nodiscard]] virtual GpaStatus BeginPass(GpaUInt32 /*pass*/) { return kGpaStatusOk; }
  GpaUInt32 CurrentPass() const { return current_pass_; }

  // kGpaStatusErrorSampleNotEnded, naming `function`, while a sample is open.
  [[nodiscard]] GpaStatus RequireNoOpenSample(std::string_view function) const;
  // kGpaStatusErrorSampleAlreadyStarted while another sample is open (no nesting) or when `slot_used`
  // (the slot was already sampled in this pass).
  [[nodiscard]] GpaStatus CheckSampleCanBegin(SampleSlot slot, bool slot_used) const;
  // kGpaStatusErrorSampleNotStarted unless `slot` is the open sample.
  [[nodiscard]] GpaStatus CheckSampleIsOpen(SampleSlot slot) const;

  void SampleOpened(SampleSlot slot) { open_sample_ = slot; }
  void SampleClosed() { open_sample_.reset(); }

 private:
  std::string api_;
  GpaUInt32 passes_;
  GpaUInt32 current_pass_ = 0;
  std::optional<SampleSlot> open_sample_;
};

}  // namespace opengpa

#endif  // OPENGPA_BACKENDS_COMMON_IMMEDIATE_SESSION_H_
