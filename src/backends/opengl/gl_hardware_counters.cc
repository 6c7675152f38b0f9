#include "backends/opengl/gl_hardware_counters.h"

#include <utility>

#include "backends/common/sampled_hardware_counters.h"

namespace opengpa::gl {
namespace {

GlHardwareCounter Query(const char* name, const char* group, const char* description, GLenum target, const char* unit) {
  GlHardwareCounter counter;
  counter.info = {name, group, description, kGpaDataTypeUint64, kGpaUsageTypeItems, unit};
  counter.source = CounterSource::kQuery;
  counter.target = target;
  return counter;
}

GlHardwareCounter Timestamp(const char* name, const char* description, CounterSource source) {
  GlHardwareCounter counter;
  counter.info = {name, "Timing", description, kGpaDataTypeUint64, kGpaUsageTypeNanoseconds, "timer"};
  counter.source = source;
  return counter;
}

// The optional stage a pipeline statistic counts in; without it the driver offers no such query target.
enum class OptionalStage { kNone, kTessellation, kGeometryShader, kComputeShader };

bool StageOffered(const Capabilities& caps, OptionalStage stage) {
  switch (stage) {
    case OptionalStage::kNone: return true;
    case OptionalStage::kTessellation: return caps.tessellation();
    case OptionalStage::kGeometryShader: return caps.geometry_shaders();
    case OptionalStage::kComputeShader: return caps.compute_shaders();
  }
  return false;
}

struct PipelineStatistic {
  const char* name;
  const char* description;
  GLenum target;
  const char* unit;
  OptionalStage stage;
};

// GL_ARB_pipeline_statistics_query's targets, in the order the counters are listed.
constexpr PipelineStatistic kPipelineStatistics[] = {
    {"GL_VERTICES_SUBMITTED", "Vertices submitted to the primitive assembly stage (GL_VERTICES_SUBMITTED).",
     GL_VERTICES_SUBMITTED_ARB, "input_assembly", OptionalStage::kNone},
    {"GL_PRIMITIVES_SUBMITTED", "Primitives submitted to the primitive assembly stage (GL_PRIMITIVES_SUBMITTED).",
     GL_PRIMITIVES_SUBMITTED_ARB, "input_assembly", OptionalStage::kNone},
    {"GL_VERTEX_SHADER_INVOCATIONS", "Vertex shader invocations (GL_VERTEX_SHADER_INVOCATIONS).",
     GL_VERTEX_SHADER_INVOCATIONS_ARB, "vertex_shader", OptionalStage::kNone},
    {"GL_TESS_CONTROL_SHADER_PATCHES",
     "Patches processed by the tessellation control shader stage (GL_TESS_CONTROL_SHADER_PATCHES).",
     GL_TESS_CONTROL_SHADER_PATCHES_ARB, "tess_control_shader", OptionalStage::kTessellation},
    {"GL_TESS_EVALUATION_SHADER_INVOCATIONS",
     "Tessellation evaluation shader invocations (GL_TESS_EVALUATION_SHADER_INVOCATIONS).",
     GL_TESS_EVALUATION_SHADER_INVOCATIONS_ARB, "tess_evaluation_shader", OptionalStage::kTessellation},
    {"GL_GEOMETRY_SHADER_INVOCATIONS", "Geometry shader invocations (GL_GEOMETRY_SHADER_INVOCATIONS).",
     GL_GEOMETRY_SHADER_INVOCATIONS, "geometry_shader", OptionalStage::kGeometryShader},
    {"GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED",
     "Primitives emitted by the geometry shader (GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED).",
     GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED_ARB, "geometry_shader", OptionalStage::kGeometryShader},
    {"GL_CLIPPING_INPUT_PRIMITIVES", "Primitives that reached the clipping stage (GL_CLIPPING_INPUT_PRIMITIVES).",
     GL_CLIPPING_INPUT_PRIMITIVES_ARB, "clipper", OptionalStage::kNone},
    {"GL_CLIPPING_OUTPUT_PRIMITIVES", "Primitives that left the clipping stage (GL_CLIPPING_OUTPUT_PRIMITIVES).",
     GL_CLIPPING_OUTPUT_PRIMITIVES_ARB, "clipper", OptionalStage::kNone},
    {"GL_FRAGMENT_SHADER_INVOCATIONS", "Fragment shader invocations (GL_FRAGMENT_SHADER_INVOCATIONS).",
     GL_FRAGMENT_SHADER_INVOCATIONS_ARB, "fragment_shader", OptionalStage::kNone},
    {"GL_COMPUTE_SHADER_INVOCATIONS", "Compute shader invocations (GL_COMPUTE_SHADER_INVOCATIONS).",
     GL_COMPUTE_SHADER_INVOCATIONS_ARB, "compute_shader", OptionalStage::kComputeShader},
};

}  // namespace

std::vector<GlHardwareCounter> BuildHardwareCounters(const Capabilities& caps) {
  std::vector<GlHardwareCounter> counters;
  if (caps.timer_query() && caps.timestamp_bits > 0) {
    counters.push_back(Timestamp("GL_TIMESTAMP_BEGIN",
                                 "GL time, in nanoseconds since GpaBeginSession, at which every command issued before "
                                 "GpaBeginSample had completed (glQueryCounter(GL_TIMESTAMP)).",
                                 CounterSource::kTimestampAtBegin));
    counters.push_back(Timestamp("GL_TIMESTAMP_END",
                                 "GL time, in nanoseconds since GpaBeginSession, at which every command issued before "
                                 "GpaEndSample had completed (glQueryCounter(GL_TIMESTAMP)).",
                                 CounterSource::kTimestampAtEnd));
  }

  if (caps.pipeline_statistics()) {
    for (const PipelineStatistic& statistic : kPipelineStatistics) {
      if (StageOffered(caps, statistic.stage)) {
        counters.push_back(
            Query(statistic.name, "PipelineStatistics", statistic.description, statistic.target, statistic.unit));
      }
    }
  }

  GlHardwareCounter samples =
      Query("GL_SAMPLES_PASSED", "Occlusion", "Samples that passed the depth and stencil tests (GL_SAMPLES_PASSED).",
            GL_SAMPLES_PASSED, "depth_stencil_test");
  // The occlusion targets share one active slot (ARB_occlusion_query2).
  if (caps.any_samples_passed()) samples.conflicting_targets.push_back(GL_ANY_SAMPLES_PASSED);
  if (caps.any_samples_passed_conservative()) samples.conflicting_targets.push_back(GL_ANY_SAMPLES_PASSED_CONSERVATIVE);
  counters.push_back(std::move(samples));
  return counters;
}

void AddSampledMetrics(const std::vector<nvidia::GraphicsMetric>& metrics, std::vector<GlHardwareCounter>* out) {
  for (const nvidia::GraphicsMetric& metric : metrics) {
    GlHardwareCounter counter;
    counter.info = DescribeSampledMetric(metric);
    counter.source = CounterSource::kSampledMetric;
    counter.additive = metric.additive;
    out->push_back(std::move(counter));
  }
}

}  // namespace opengpa::gl
