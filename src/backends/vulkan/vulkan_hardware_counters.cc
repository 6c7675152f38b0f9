#include "backends/vulkan/vulkan_hardware_counters.h"

#include <iterator>

#include "backends/common/sampled_hardware_counters.h"

namespace opengpa::vulkan {
namespace {

struct StatisticDescription {
  VkQueryPipelineStatisticFlagBits bit;
  const char* name;
  const char* group;
  const char* description;
};

// In bit order, which is also the order Vulkan writes a pool's enabled statistics in.
constexpr StatisticDescription kStatistics[] = {
    {VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT, "input_assembly_vertices", "InputAssembly",
     "Vertices the input assembler fetched (indexed draws count every index; includes incomplete primitives' "
     "vertices)."},
    {VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT, "input_assembly_primitives", "InputAssembly",
     "Primitives the input assembler assembled."},
    {VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT, "vertex_shader_invocations", "VertexShader",
     "Vertex shader invocations (fewer than fetched vertices when the device reuses shaded vertices)."},
    {VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT, "geometry_shader_invocations", "GeometryShader",
     "Geometry shader invocations (one per primitive per geometry-shader instance)."},
    {VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT, "geometry_shader_primitives", "GeometryShader",
     "Primitives the geometry shader emitted."},
    {VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT, "clipping_invocations", "PrimitiveAssembly",
     "Primitives that reached the clipping stage (after tessellation and geometry shading)."},
    {VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT, "clipping_primitives", "PrimitiveAssembly",
     "Primitives the clipping stage passed on to rasterization."},
    {VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT, "fragment_shader_invocations", "PixelShader",
     "Fragment shader invocations."},
    {VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT, "tessellation_control_shader_patches",
     "HullShader", "Patches the tessellation control shader processed."},
    {VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT,
     "tessellation_evaluation_shader_invocations", "DomainShader", "Tessellation evaluation shader invocations."},
    {VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT, "compute_shader_invocations", "ComputeShader",
     "Compute shader invocations."},
};

constexpr VkQueryPipelineStatisticFlags kGeometryStatistics =
    VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT;
constexpr VkQueryPipelineStatisticFlags kTessellationStatistics =
    VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT |
    VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT;

VulkanHardwareCounter TimeCounter(const char* name, const char* description, CounterSource source) {
  VulkanHardwareCounter counter;
  counter.info = {name, "Timing", description, kGpaDataTypeFloat64, kGpaUsageTypeNanoseconds};
  counter.source = source;
  return counter;
}

}  // namespace

VkQueryPipelineStatisticFlags SupportedStatistics(const VkPhysicalDeviceFeatures& features) {
  if (!features.pipelineStatisticsQuery) return 0;
  VkQueryPipelineStatisticFlags all = 0;
  for (const StatisticDescription& statistic : kStatistics) all |= statistic.bit;
  if (!features.geometryShader) all &= ~kGeometryStatistics;
  if (!features.tessellationShader) all &= ~kTessellationStatistics;
  return all;
}

std::vector<VulkanHardwareCounter> BuildHardwareCounters(const MeasurementCapabilities& capabilities) {
  std::vector<VulkanHardwareCounter> counters;
  if (capabilities.timestamps) {
    counters.push_back(TimeCounter("timestamp_bottom_to_bottom_ns",
                                   "Nanoseconds from a bottom-of-pipe timestamp written before the sample (all "
                                   "earlier work done) to one written after it.",
                                   CounterSource::kBottomToBottomTime));
    counters.push_back(TimeCounter("timestamp_top_to_bottom_ns",
                                   "Nanoseconds from a top-of-pipe timestamp written before the sample to a "
                                   "bottom-of-pipe timestamp written after it.",
                                   CounterSource::kTopToBottomTime));
    counters.push_back(TimeCounter("timestamp_start_ns",
                                   "Top-of-pipe timestamp before the sample, in nanoseconds from the session's "
                                   "time origin.",
                                   CounterSource::kStartTime));
    counters.push_back(TimeCounter("timestamp_end_ns",
                                   "Bottom-of-pipe timestamp after the sample, in nanoseconds from the session's "
                                   "time origin.",
                                   CounterSource::kEndTime));
  }
  for (const StatisticDescription& statistic : kStatistics) {
    if ((capabilities.statistics & statistic.bit) == 0) continue;
    VulkanHardwareCounter counter;
    counter.info = {statistic.name, statistic.group, statistic.description, kGpaDataTypeUint64, kGpaUsageTypeItems};
    counter.source = CounterSource::kPipelineStatistic;
    counter.statistic = statistic.bit;
    counters.push_back(std::move(counter));
  }
  return counters;
}

void AddSampledMetrics(const std::vector<nvidia::GraphicsMetric>& metrics, std::vector<VulkanHardwareCounter>* out) {
  for (const nvidia::GraphicsMetric& metric : metrics) {
    VulkanHardwareCounter counter;
    counter.info = DescribeSampledMetric(metric);
    counter.source = CounterSource::kSampledMetric;
    counter.additive = metric.additive;
    out->push_back(std::move(counter));
  }
}

void AddDriverCounters(const std::vector<DriverCounter>& counters, std::vector<VulkanHardwareCounter>* out) {
  const std::vector<HardwareCounterInfo> infos = HardwareCountersOf(counters);
  for (std::size_t i = 0; i < counters.size(); ++i) {
    VulkanHardwareCounter counter;
    counter.info = infos[i];
    counter.source = CounterSource::kPerformanceQuery;
    counter.additive = IsAdditive(counters[i].unit);
    counter.driver_index = counters[i].index;
    out->push_back(std::move(counter));
  }
}

}  // namespace opengpa::vulkan
