// The hardware counters of the GL backend: a GL_TIMESTAMP pair around each sample and one query per
// pipeline-statistics / occlusion target, all collected in one pass (GL keeps one active query per target, and
// each counter has its own target); on an NVIDIA GPU, the metrics of PerfWorks' GPU periodic sampler, in as
// many passes as they need (nvidia/graphics_counter_source.h).
#ifndef OPENGPA_BACKENDS_OPENGL_GL_HARDWARE_COUNTERS_H_
#define OPENGPA_BACKENDS_OPENGL_GL_HARDWARE_COUNTERS_H_

#include <vector>

#include "backends/opengl/gl_capabilities.h"
#include "core/backend.h"
#include "nvidia/graphics_counter_source.h"

namespace opengpa::gl {

enum class CounterSource {
  kTimestampAtBegin,  // glQueryCounter(GL_TIMESTAMP) at GpaBeginSample, ns since GpaBeginSession
  kTimestampAtEnd,    // glQueryCounter(GL_TIMESTAMP) at GpaEndSample, ns since GpaBeginSession
  kQuery,             // glBeginQuery(target) .. glEndQuery(target) around the sample
  kSampledMetric,     // a metric of the GPU periodic sampler, between CPU triggers after glFinish
};

struct GlHardwareCounter {
  HardwareCounterInfo info;
  CounterSource source = CounterSource::kQuery;
  GLenum target = 0;  // for kQuery
  // Other query targets sharing this target's active slot: if the application has one of them active,
  // GPA cannot begin its own query (GL_INVALID_OPERATION).
  std::vector<GLenum> conflicting_targets;
  bool additive = true;  // kSampledMetric: a count (summed over intervals), else a time-weighted mean
};

// The counters this context supports, in HardwareCounterIndex order.
std::vector<GlHardwareCounter> BuildHardwareCounters(const Capabilities& caps);

// The sampler's metrics as kSampledMetric counters, appended after the API's own.
void AddSampledMetrics(const std::vector<nvidia::GraphicsMetric>& metrics, std::vector<GlHardwareCounter>* out);

}  // namespace opengpa::gl

#endif  // OPENGPA_BACKENDS_OPENGL_GL_HARDWARE_COUNTERS_H_
