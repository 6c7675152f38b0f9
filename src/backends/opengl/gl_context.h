// BackendContext for an application's current GL context.
#ifndef OPENGPA_BACKENDS_OPENGL_GL_CONTEXT_H_
#define OPENGPA_BACKENDS_OPENGL_GL_CONTEXT_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backends/common/sampled_stream_session.h"
#include "backends/opengl/gl_context_state.h"
#include "core/backend.h"

namespace opengpa::gl {

class GlContext final : public BackendContext {
 public:
  // kGpaStatusErrorFailed: `handle` is not current; kGpaStatusErrorDriverNotSupported: an OpenGL ES context,
  // or neither timer nor pipeline-statistics queries. Every failure is logged.
  static GpaStatus Open(void* handle, GpaOpenContextFlags flags, std::unique_ptr<BackendContext>* out);

  explicit GlContext(std::shared_ptr<ContextState> device) : device_(std::move(device)) {}

  const DeviceInfo& Device() const override { return device_->info; }
  // Streaming (GPA 4's GpaSpm*) where the GPU periodic sampler samples this GPU by time
  // (backends/common/sampled_stream_session.h).
  GpaContextSampleTypeFlags SupportedSampleTypes() const override;
  GpaStatus CheckStreamable(const std::vector<HardwareCounterIndex>& counters) override;
  const std::vector<HardwareCounterInfo>& HardwareCounters() const override { return device_->counter_infos; }
  std::vector<std::string_view> DerivedCatalogs() const override;
  GpaStatus CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) override;
  GpaStatus CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                          std::unique_ptr<BackendSession>* out) override;

 private:
  // A streaming set's plan, checked (CheckSampledStreamable): what CheckStreamable asks and CreateSession uses.
  GpaStatus PlanStream(const std::vector<HardwareCounterIndex>& counters, StreamPlan* plan) const;
  // The sampler's metrics among `counters` and their passes (none without the sampler).
  GpaStatus PlanSampledPasses(const std::vector<HardwareCounterIndex>& counters, std::vector<std::string>* names,
                              std::vector<bool>* additive, std::vector<nvidia::perfworks::PassConfig>* passes) const;

  std::shared_ptr<ContextState> device_;
};

}  // namespace opengpa::gl

#endif  // OPENGPA_BACKENDS_OPENGL_GL_CONTEXT_H_
