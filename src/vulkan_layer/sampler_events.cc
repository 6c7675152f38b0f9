#include "sampler_events.h"

namespace opengpa::vklayer {

VkGpaPerfBlockPropertiesAMD SamplerBlock(std::uint32_t events) {
  VkGpaPerfBlockPropertiesAMD block{};
  block.blockType = OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER;
  block.instanceCount = 1;
  block.maxEventID = events > 0 ? events - 1 : 0;
  block.maxGlobalOnlyCounters = events;
  block.maxGlobalSharedCounters = 0;
  block.maxStreamingCounters = 0;  // GPA's streaming (SPM) is not offered through the extension
  return block;
}

OpenGpaPerfEventInfo DescribeSamplerEvent(const nvidia::GraphicsCounterSource& source, std::uint32_t event) {
  const nvidia::GraphicsMetric& metric = source.Metrics()[event];
  OpenGpaPerfEventInfo info{};
  info.eventID = event;
  info.additive = metric.additive ? VK_TRUE : VK_FALSE;
  CopyField(info.name, metric.described.name);
  CopyField(info.unit, metric.described.hw_unit);
  CopyField(info.description, metric.described.description);
  return info;
}

std::int64_t SamplerEventOf(const nvidia::GraphicsCounterSource& source, const std::string& metric) {
  const std::vector<nvidia::GraphicsMetric>& metrics = source.Metrics();
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    if (metrics[i].described.name == metric) return static_cast<std::int64_t>(i);
  }
  return -1;
}

VkResult PlanSamplerEvents(const nvidia::GraphicsCounterSource& source, const std::vector<std::uint32_t>& events,
                           SamplerEventSet* set, std::string* problem) {
  *set = {};
  const std::vector<nvidia::GraphicsMetric>& metrics = source.Metrics();
  for (std::uint32_t event : events) {
    if (event >= metrics.size()) {
      *problem =
          "event " + std::to_string(event) + " is past the block's " + std::to_string(metrics.size()) + " events";
      return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    set->names.push_back(metrics[event].described.name);
    set->additive.push_back(metrics[event].additive);
  }
  if (set->names.empty()) return VK_SUCCESS;
  if (source.PlanPasses(set->names, &set->passes) != kGpaStatusOk || set->passes.empty()) {
    *problem = "PerfWorks could not plan sampler passes for these " + std::to_string(set->names.size()) + " events";
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  return VK_SUCCESS;
}

}  // namespace opengpa::vklayer
