#include "backends/common/timing_pass.h"

#include <algorithm>
#include <string>

namespace opengpa {

GpaUInt32 PassesWithTimingPass(GpaUInt32 sampler_passes, GpaUInt32 other_passes, bool timing_counters) {
  if (sampler_passes > 0 && timing_counters) return sampler_passes + 1;
  return std::max({GpaUInt32{1}, sampler_passes, other_passes});
}

bool IsTimingHardwareCounter(const HardwareCounterInfo& counter) {
  return counter.usage == kGpaUsageTypeNanoseconds && counter.group == std::string("Timing");
}

}  // namespace opengpa
