// A session for an API that records straight into the driver's stream instead of into command lists
// (OpenGL, OpenCL): one pass, whose one "command list" is GPA_NULL_COMMAND_LIST with kGpaCommandListNone,
// and samples that do not nest. Subclasses record and read the samples; this class keeps which one is open
// and refuses misuse with the same statuses and messages for every such API.
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
  GpaUInt32 PassCount() const final { return 1; }
  // kGpaStatusErrorIndexOutOfRange for a pass other than 0; kGpaStatusErrorInvalidParameter for a command
  // list or a type other than kGpaCommandListNone.
  [[nodiscard]] GpaStatus BeginCommandList(GpaUInt32 pass, void* api_list, GpaCommandListType type,
                             std::unique_ptr<BackendCommandList>* out) final;
  // kGpaStatusErrorSampleNotEnded while a sample is open.
  [[nodiscard]] GpaStatus EndCommandList(BackendCommandList& list) final;

 protected:
  // `api` names the API in messages ("OpenGL", "OpenCL").
  explicit ImmediateSession(std::string_view api) : api_(api) {}

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
  std::optional<SampleSlot> open_sample_;
};

}  // namespace opengpa

#endif  // OPENGPA_BACKENDS_COMMON_IMMEDIATE_SESSION_H_
