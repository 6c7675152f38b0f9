// What a cumulative sample can count on a device that is not AMD's: the core Vulkan pipeline statistics,
// each published as one event of one VK_AMD_gpa_interface counter block, as the public table of
// include/vulkan_layer/vk_gpa_interface_statistics.h lists them (docs/vulkan-layer.md).
#ifndef OPENGPA_VULKAN_LAYER_PERF_BLOCKS_H_
#define OPENGPA_VULKAN_LAYER_PERF_BLOCKS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "vk_amd_gpa_interface.h"

namespace opengpa::vklayer {

struct PipelineStatisticEvent {
  VkGpaPerfBlockAMD block;
  std::uint32_t event_id;
  VkQueryPipelineStatisticFlagBits statistic;
  bool graphics;  // counts graphics work (needs a graphics-capable command pool)
  const char* name;
};

// Every event, ordered by block then event id.
const std::vector<PipelineStatisticEvent>& PipelineStatisticEvents();

// The event a counter names, or nothing when the block or event id has no counter here.
// `block`: a VkGpaPerfBlockAMD value as an int (a caller's, read with EnumArgument).
std::optional<PipelineStatisticEvent> FindEvent(int block, std::uint32_t event_id);

// The blocks as VkPhysicalDeviceGpaPropertiesAMD::pPerfBlocks lists them (one instance each; every event
// of a block can be counted at once, so maxGlobalOnlyCounters is the block's event count).
std::vector<VkGpaPerfBlockPropertiesAMD> PerfBlockProperties();

// The position of `statistic` among the values vkGetQueryPoolResults returns for a pool counting `all`
// (values come in the order of the bits, lowest first).
std::uint32_t StatisticIndex(VkQueryPipelineStatisticFlags all, VkQueryPipelineStatisticFlagBits statistic);

// Every statistic of the table: what a graphics-capable pool counts. A compute-only pool counts only
// compute-shader invocations (Vulkan allows no graphics statistic there).
VkQueryPipelineStatisticFlags AllStatistics();

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_PERF_BLOCKS_H_
