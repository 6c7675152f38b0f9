#include "perf_blocks.h"

#include <bitset>
#include <map>

namespace opengpa::vklayer {

const std::vector<PipelineStatisticEvent>& PipelineStatisticEvents() {
  static const std::vector<PipelineStatisticEvent> kEvents = {
      {VK_GPA_PERF_BLOCK_IA_AMD, 0, VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT, true,
       "input-assembly vertices"},
      {VK_GPA_PERF_BLOCK_IA_AMD, 1, VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT, true,
       "input-assembly primitives"},
      {VK_GPA_PERF_BLOCK_VGT_AMD, 0, VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT, true,
       "vertex-shader invocations"},
      {VK_GPA_PERF_BLOCK_VGT_AMD, 1, VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT, true,
       "geometry-shader invocations"},
      {VK_GPA_PERF_BLOCK_VGT_AMD, 2, VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT, true,
       "geometry-shader primitives"},
      {VK_GPA_PERF_BLOCK_VGT_AMD, 3, VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT, true,
       "tessellation-control patches"},
      {VK_GPA_PERF_BLOCK_VGT_AMD, 4, VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT,
       true, "tessellation-evaluation invocations"},
      {VK_GPA_PERF_BLOCK_PA_AMD, 0, VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT, true,
       "clipping invocations"},
      {VK_GPA_PERF_BLOCK_PA_AMD, 1, VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT, true,
       "clipping primitives"},
      {VK_GPA_PERF_BLOCK_SPI_AMD, 0, VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT, true,
       "fragment-shader invocations"},
      {VK_GPA_PERF_BLOCK_SPI_AMD, 1, VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT, false,
       "compute-shader invocations"},
  };
  return kEvents;
}

std::optional<PipelineStatisticEvent> FindEvent(VkGpaPerfBlockAMD block, std::uint32_t event_id) {
  for (const PipelineStatisticEvent& event : PipelineStatisticEvents()) {
    if (event.block == block && event.event_id == event_id) return event;
  }
  return std::nullopt;
}

std::vector<VkGpaPerfBlockPropertiesAMD> PerfBlockProperties() {
  std::map<VkGpaPerfBlockAMD, std::uint32_t> events_per_block;
  for (const PipelineStatisticEvent& event : PipelineStatisticEvents()) ++events_per_block[event.block];
  std::vector<VkGpaPerfBlockPropertiesAMD> blocks;
  for (const auto& [block, events] : events_per_block) {
    VkGpaPerfBlockPropertiesAMD properties{};
    properties.blockType = block;
    properties.instanceCount = 1;
    properties.maxEventID = events - 1;
    properties.maxGlobalOnlyCounters = events;
    properties.maxGlobalSharedCounters = 0;
    properties.maxStreamingCounters = 0;  // no streaming (SPM) counters on any device here
    blocks.push_back(properties);
  }
  return blocks;
}

std::uint32_t StatisticIndex(VkQueryPipelineStatisticFlags all, VkQueryPipelineStatisticFlagBits statistic) {
  const VkQueryPipelineStatisticFlags below = all & (static_cast<VkQueryPipelineStatisticFlags>(statistic) - 1u);
  return static_cast<std::uint32_t>(std::bitset<32>(below).count());
}

VkQueryPipelineStatisticFlags AllStatistics() {
  VkQueryPipelineStatisticFlags all = 0;
  for (const PipelineStatisticEvent& event : PipelineStatisticEvents()) all |= event.statistic;
  return all;
}

}  // namespace opengpa::vklayer
