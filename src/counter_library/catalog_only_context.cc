#include "counter_library/catalog_only_context.h"

#include "core/backend.h"
#include "platform/logging.h"

namespace opengpa::counter_library {

GpaStatus CatalogOnlyContext::CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) {
  for (HardwareCounterIndex index : counters) {
    if (index >= hardware_.size()) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "hardware counter index {} >= {} hardware counters", index,
                      hardware_.size());
    }
  }
  *passes = counters.empty() ? 0 : 1;
  return kGpaStatusOk;
}

GpaStatus CatalogOnlyContext::CreateSession(int, const std::vector<HardwareCounterIndex>&,
                                            std::unique_ptr<BackendSession>*) {
  return LogError(kGpaStatusErrorHardwareNotSupported, "a counter-library context on '{}' has no device to measure",
                  device_.name);
}

}  // namespace opengpa::counter_library
