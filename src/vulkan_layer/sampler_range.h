// One sampling range of a device's GPU periodic sampler, as the layer's cumulative samples use it: one sampler
// configuration (a set of metrics that fits one sampler pass), the engine triggers recorded for it at the samples'
// begins and ends (nvidia::EngineTriggers: a top- and a bottom-of-pipe timestamp, then the trigger, as
// libGPUPerfAPIVK records them), and, once every trigger waited for has run, the decoded intervals. The samples of
// every session that ask for a subset of its metrics share it; it is decoded once, and the sampler session ends then
// (the GPU's counters are free for others again).
//
// Called with the device's mutex held.
#ifndef OPENGPA_VULKAN_LAYER_SAMPLER_RANGE_H_
#define OPENGPA_VULKAN_LAYER_SAMPLER_RANGE_H_

#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nvidia/engine_triggers.h"
#include "nvidia/sampled_passes.h"
#include "query_pools.h"
#include "sampler_events.h"

namespace opengpa::vklayer {

struct DeviceData;

class SamplerRange {
 public:
  // `set` must plan to one pass.
  SamplerRange(DeviceData& device, const nvidia::GraphicsCounterSource& source, SamplerEventSet set);
  SamplerRange(const SamplerRange&) = delete;
  SamplerRange& operator=(const SamplerRange&) = delete;

  // Starts sampling: false and *problem when the sampler cannot begin (another profiler holds the GPU's counters).
  bool Begin(std::string* problem);
  // Where each of `names` is among the range's metrics; false when one is not sampled here.
  bool Columns(const std::vector<std::string>& names, std::vector<std::size_t>* columns) const;
  bool Decoded() const { return decoded_; }

  // Records a boundary into `command_buffer`; false (logged) when no timestamp query could be had or the sampler
  // refused the trigger. `*key` names the trigger for Values().
  bool RecordBoundary(VkCommandBuffer command_buffer, std::uint64_t* key);
  // The last boundary of a recording, and a timestamp after its trigger: once that is written the front end has
  // passed every trigger before it in the command buffer.
  void RecordEnd(VkCommandBuffer command_buffer);
  // Triggers whose command buffer will not run again for this range (their session was destroyed, reset or recorded
  // again): not waited for any more, and their timestamp queries reset from the host.
  void Forget(const std::vector<std::uint64_t>& keys);

  // VK_SUCCESS once decoded: when every trigger waited for has run, the sampler is given nvidia::kSamplerSettle more,
  // then stopped and decoded, and the triggers are placed in its intervals. VK_NOT_READY before; an error (logged
  // once) when the sampler failed or the triggers cannot be placed.
  VkResult Poll();
  // The values of `columns` between triggers `begin` and `end` (after Poll() answered VK_SUCCESS).
  VkResult Values(std::uint64_t begin, std::uint64_t end, const std::vector<std::size_t>& columns,
                  std::vector<double>* values) const;

 private:
  struct Marker {
    QueryRange queries;  // top- and bottom-of-pipe timestamps before the trigger, and for an end marker one after it
    bool end = false;
    bool awaited = true;
    std::optional<std::uint64_t> stamp_ns;  // the bottom-of-pipe timestamp before the trigger, once written
    bool passed = false;                    // end marker: the timestamp after the trigger is written
  };
  // Reads what the GPU has written of `marker` (without waiting).
  void Read(Marker& marker);
  // Records a marker's timestamps and trigger; false (logged) on failure.
  bool Record(VkCommandBuffer command_buffer, bool end, std::uint64_t* key);
  VkResult Fail(const std::string& problem);

  DeviceData& device_;
  const nvidia::GraphicsCounterSource& source_;
  SamplerEventSet set_;
  nvidia::SampledPasses passes_;
  nvidia::EngineTriggers triggers_;
  QueryPools stamps_;
  std::vector<Marker> markers_;  // key = position
  std::optional<std::chrono::steady_clock::time_point> complete_since_;
  bool sampling_ = false;
  bool decoded_ = false;
  VkResult failed_ = VK_SUCCESS;
};

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_SAMPLER_RANGE_H_
