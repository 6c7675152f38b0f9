// Where the graphics backends measure their timing counters (GPUTime, ExecutionStart/End/Duration) when NVIDIA's
// GPU periodic sampler counts other counters of the same session: in a pass of their own, after the sampler's, in
// which no sampler trigger is recorded. A draw's time read 1.3-6 µs long with the sampler's engine triggers around
// it on the H200, by an amount that moved with the sampler's configuration and with when each trigger fired (so
// Vulkan's two recording paths disagreed on one draw by 1.3 µs); without triggers both paths read the untriggered
// time (docs/graphics-counters.md, "GPUTime of the two recording paths"). The cost is one more pass. The live
// backends and the counter library's offline contexts count passes with the same rule.
#ifndef OPENGPA_BACKENDS_COMMON_TIMING_PASS_H_
#define OPENGPA_BACKENDS_COMMON_TIMING_PASS_H_

#include <algorithm>
#include <vector>

#include "counters/hardware_counter.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

// A session's passes: `sampler_passes` of the GPU periodic sampler, `other_passes` for counters counted another
// way (1 for timestamps and queries, which any pass can record; more for driver counters counted a pass at a
// time), and, with sampler passes and `timing_counters`, the timing pass after the sampler's.
GpaUInt32 PassesWithTimingPass(GpaUInt32 sampler_passes, GpaUInt32 other_passes, bool timing_counters);

// Whether a hardware counter is one of the timing counters a timing pass measures: read from timestamps, in
// nanoseconds, in the "Timing" group (Vulkan's and OpenGL's timestamp counters).
bool IsTimingHardwareCounter(const HardwareCounterInfo& counter);

// Whether a backend's enabled counters (elements with their `info`), or those of its table that `indices` name, hold
// a timing counter: what the backends' pass counts and sessions ask of the enabled set.
template <typename Counter>
bool HoldsTimingCounter(const std::vector<Counter>& counters) {
  return std::any_of(counters.begin(), counters.end(),
                     [](const Counter& counter) { return IsTimingHardwareCounter(counter.info); });
}
template <typename Counter>
bool HoldsTimingCounter(const std::vector<Counter>& table, const std::vector<HardwareCounterIndex>& indices) {
  return std::any_of(indices.begin(), indices.end(),
                     [&](HardwareCounterIndex index) { return IsTimingHardwareCounter(table[index].info); });
}

}  // namespace opengpa

#endif  // OPENGPA_BACKENDS_COMMON_TIMING_PASS_H_
