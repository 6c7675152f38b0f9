// The GPU periodic sampler's block as VK_AMD_gpa_interface sees it
// (include/vulkan_layer/vk_gpa_interface_sampler_counters.h): event e is metric e of a GraphicsCounterSource
// (src/nvidia); its VkGpaPerfBlockPropertiesAMD entry; what vkGetPerfBlockEventsOPENGPA says of each event; and a set
// of events as the metric names and sampler passes PerfWorks plans for it. Needs no device: unit-tested on GH100's
// metrics offline.
#ifndef OPENGPA_VULKAN_LAYER_SAMPLER_EVENTS_H_
#define OPENGPA_VULKAN_LAYER_SAMPLER_EVENTS_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nvidia/graphics_counter_source.h"
#include "vk_gpa_interface_sampler_counters.h"

namespace opengpa::vklayer {

// The block's entry for `events` events: one instance, every event may be asked for (maxGlobalOnlyCounters), though a
// set that needs several sampler passes is refused when the sample begins.
VkGpaPerfBlockPropertiesAMD SamplerBlock(std::uint32_t events);

// Event `event` (< source.Metrics().size()) as vkGetPerfBlockEventsOPENGPA reports it.
OpenGpaPerfEventInfo DescribeSamplerEvent(const nvidia::GraphicsCounterSource& source, std::uint32_t event);

// The event a metric name is, or -1.
std::int64_t SamplerEventOf(const nvidia::GraphicsCounterSource& source, const std::string& metric);

// A set of the block's events (each once, in the order given) as metric names, whether each is a count, and the
// sampler passes PerfWorks needs for them. VK_ERROR_FEATURE_NOT_PRESENT and *problem for an event past the list or a
// set PerfWorks cannot plan.
struct SamplerEventSet {
  std::vector<std::string> names;
  std::vector<bool> additive;
  std::vector<nvidia::perfworks::PassConfig> passes;
};
VkResult PlanSamplerEvents(const nvidia::GraphicsCounterSource& source, const std::vector<std::uint32_t>& events,
                           SamplerEventSet* set, std::string* problem);

// Copies `text` into a fixed-size field, cut to fit, always NUL-terminated.
template <std::size_t N>
void CopyField(char (&field)[N], const std::string& text) {
  const std::size_t n = text.size() < N - 1 ? text.size() : N - 1;
  text.copy(field, n);
  field[n] = '\0';
}

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_SAMPLER_EVENTS_H_
