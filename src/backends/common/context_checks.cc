#include "backends/common/context_checks.h"

#include "platform/logging.h"

namespace opengpa {

GpaStatus CheckHardwareCounterIndices(const std::vector<HardwareCounterIndex>& counters, std::size_t counter_count,
                                      std::string_view operation) {
  for (HardwareCounterIndex index : counters) {
    if (index >= counter_count) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "{}: hardware counter {} >= {}", operation, index, counter_count);
    }
  }
  return kGpaStatusOk;
}

GpaStatus CheckDiscreteCountersOnly(int type, std::string_view api) {
  if (type != kGpaSessionSampleTypeDiscreteCounter) {
    return LogError(kGpaStatusErrorIncompatibleSampleTypes,
                    "GpaCreateSession: sample type {} is not supported by {} (only discrete counters)",
                    static_cast<int>(type), api);
  }
  return kGpaStatusOk;
}

}  // namespace opengpa
