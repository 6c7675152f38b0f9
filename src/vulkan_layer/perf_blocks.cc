#include "perf_blocks.h"

#include <bitset>
#include <map>

#include "vk_gpa_interface_statistics.h"

namespace opengpa::vklayer {

const std::vector<PipelineStatisticEvent>& PipelineStatisticEvents() {
  static const std::vector<PipelineStatisticEvent> kEvents = [] {
    std::vector<PipelineStatisticEvent> events;
    for (const OpenGpaPipelineStatisticCounter& counter : kOpenGpaPipelineStatisticCounters) {
      events.push_back({counter.block, counter.event_id, counter.statistic, counter.graphics == VK_TRUE, counter.name});
    }
    return events;
  }();
  return kEvents;
}

std::optional<PipelineStatisticEvent> FindEvent(int block, std::uint32_t event_id) {
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
