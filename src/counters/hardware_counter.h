// What a backend measures: the hardware counters of a device, from which the counter engine derives
// the public counters (counter_set.h). Backends list them (BackendContext::HardwareCounters(),
// core/backend.h) and the catalogs' formulas name them.
#ifndef OPENGPA_COUNTERS_HARDWARE_COUNTER_H_
#define OPENGPA_COUNTERS_HARDWARE_COUNTER_H_

#include <cstdint>
#include <string>

#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

using HardwareCounterIndex = std::uint32_t;  // index into BackendContext::HardwareCounters()

// One value a backend measures per sample (a pipeline statistic, a timestamp difference, a CUPTI metric).
struct HardwareCounterInfo {
  std::string name;  // unique within a context; what catalog formulas refer to
  std::string group;
  std::string description;
  GpaDataType data_type = kGpaDataTypeUint64;
  GpaUsageType usage = kGpaUsageTypeItems;
  std::string unit;  // hardware unit it is read from ("dram", "sm", ...); may be empty (OpenGpaGetCounterHardwareUnit)
};

}  // namespace opengpa

#endif  // OPENGPA_COUNTERS_HARDWARE_COUNTER_H_
