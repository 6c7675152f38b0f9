// Splits hardware counters into passes when a backend can only collect a limited number of counters
// per hardware block at once (GL perf monitors, Vulkan performance queries). Greedy first-fit per
// block; deterministic. CUPTI decides its own passes and does not use this.
#ifndef OPENGPA_COUNTERS_PASS_SCHEDULER_H_
#define OPENGPA_COUNTERS_PASS_SCHEDULER_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "counters/hardware_counter.h"

namespace opengpa {

struct CounterPlacement {
  std::uint32_t block = 0;            // which hardware block the counter lives in
  std::uint32_t block_capacity = 1;   // counters of that block that fit in one pass (>= 1)
  bool needs_own_pass = false;        // counter cannot share a pass with any other
};

// Returns passes[p] = counters collected in pass p; every counter appears exactly once; the number of
// passes is the minimum this greedy placement achieves (>= 1 when `counters` is not empty).
std::vector<std::vector<HardwareCounterIndex>> SchedulePasses(
    const std::vector<HardwareCounterIndex>& counters,
    const std::function<CounterPlacement(HardwareCounterIndex)>& placement_of);

}  // namespace opengpa

#endif  // OPENGPA_COUNTERS_PASS_SCHEDULER_H_
