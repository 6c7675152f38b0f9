// A GPA session on a GL context: every sample is a GL_TIMESTAMP pair (glQueryCounter, so the single
// GL_TIME_ELAPSED slot stays free for the application) plus one glBeginQuery/glEndQuery per enabled
// pipeline-statistics or occlusion target. One pass; no command lists (kGpaCommandListNone); samples do
// not nest, because GL allows one active query per target.
//
// If the application has its own query active on a target that an enabled counter needs, GpaBeginSample
// fails with kGpaStatusErrorFailed and names the target and the application's query: GL would reject GPA's
// glBeginQuery, and ending the application's query early would corrupt its result. If the application ends
// GPA's query itself (glEndQuery on that target inside the sample), GpaEndSample logs an error naming the
// query and the session's results report kGpaStatusErrorReadingSampleResult.
//
// With NVIDIA's GPU periodic sampler (`sampled`), GpaBeginSample and GpaEndSample also finish the GL work so far
// (glFinish) and then fire a CPU trigger, which closes a sampler interval exactly there; a sample's values are the
// intervals between its two triggers. Each pass has its own sampler configuration, set when the pass's command
// list begins. The timestamp and statistics queries are read from pass 0, or, when a timing counter is enabled
// beside the sampler's, from a pass of their own after the sampler's, with no trigger and no glFinish in it
// (backends/common/timing_pass.h).
#ifndef OPENGPA_BACKENDS_OPENGL_GL_SESSION_H_
#define OPENGPA_BACKENDS_OPENGL_GL_SESSION_H_

#include <memory>
#include <vector>

#include "backends/common/immediate_session.h"
#include "backends/opengl/gl_context_state.h"
#include "backends/opengl/gl_query_names.h"
#include "core/backend.h"
#include "nvidia/sampled_passes.h"

namespace opengpa::gl {

class GlSession final : public ImmediateSession {
 public:
  GlSession(std::shared_ptr<const ContextState> device, std::vector<HardwareCounterIndex> counters,
            std::shared_ptr<nvidia::SampledPasses> sampled);

  GpaStatus Begin() override;
  GpaStatus End() override;
  GpaStatus BeginSample(BackendCommandList& list, SampleSlot slot) override;
  GpaStatus EndSample(BackendCommandList& list, SampleSlot slot) override;
  bool IsPassComplete(GpaUInt32 pass) override;
  GpaStatus ReadResults(SampleSlot slot_count, std::vector<double>* values) override;

 protected:
  GpaStatus BeginPass(GpaUInt32 pass) override;

 private:
  struct Sample {
    QueryNames queries;  // [timestamp begin, timestamp end] when timestamps_, then one per query_counters_
    bool ended = false;
    bool broken = false;            // the application ended one of GPA's queries
    std::size_t first_trigger = 0;  // the sampler intervals (first_trigger, last_trigger] of its pass
    std::size_t last_trigger = 0;
  };

  std::size_t FirstQueryIndex() const { return timestamps_ ? 2 : 0; }
  GpaStatus CheckTargetsFree(SampleSlot slot) const;
  double ValueOf(const GlHardwareCounter& counter, const std::vector<GLuint64>& results) const;
  // glFinish, then a CPU trigger: returns the trigger's index in the current pass.
  GpaStatus Trigger(std::size_t* index);
  // Decodes every pass up to and including `pass`.
  GpaStatus DecodeThrough(GpaUInt32 pass);
  bool PassEnded(GpaUInt32 pass) const;
  // The sampled counters' values of `slot`, by SampledPasses name index.
  GpaStatus SampledValues(SampleSlot slot, std::vector<double>* values) const;
  // The passes the sampler counts in (the first ones), 0 without sampled counters.
  GpaUInt32 SamplerPassCount() const { return sampled_ != nullptr ? sampled_->PassCount() : 0; }
  // Whether `pass` fires CPU triggers.
  bool Triggered(GpaUInt32 pass) const { return pass < SamplerPassCount(); }
  // The pass whose queries are the results: the timing pass (the one after the sampler's), else the first.
  GpaUInt32 QueryPass() const {
    return SamplerPassCount() > 0 && PassCount() > SamplerPassCount() ? SamplerPassCount() : 0;
  }

  std::shared_ptr<const ContextState> device_;
  std::vector<HardwareCounterIndex> columns_;
  std::vector<const GlHardwareCounter*> query_counters_;       // enabled kQuery counters, one query each per sample
  bool timestamps_ = false;                                    // a timestamp counter is enabled
  GLint64 origin_ = 0;                                         // GL time at GpaBeginSession
  std::vector<std::vector<std::unique_ptr<Sample>>> samples_;  // [pass][slot]
  std::shared_ptr<nvidia::SampledPasses> sampled_;             // null without sampled counters
  std::vector<int> sampled_column_;                            // per result column: index into sampled_'s names, or -1
  std::vector<std::size_t> triggers_;                          // CPU triggers fired per pass
};

}  // namespace opengpa::gl

#endif  // OPENGPA_BACKENDS_OPENGL_GL_SESSION_H_
