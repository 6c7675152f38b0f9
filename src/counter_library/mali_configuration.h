// The values of the configuration constants in Arm's Mali counter formulas (MALI_CONFIG_*), per counter context.
// On a device Arm's tools read them from the kernel driver; offline the caller states them as
// GpaCounterContextHardwareInfo attributes (opengpa_counters_ext.h), and a documented default stands in for any
// it leaves out (docs/arm-mali.md):
//   MALI_CONFIG_SHADER_CORE_COUNT   kGpaHardwareAttributeNumComputeUnits (AMD's; Mali's OpenCL driver reports its
//                                   shader cores as compute units)                              default 1
//   MALI_CONFIG_L2_CACHE_COUNT      kGpaHardwareAttributeL2SliceCount (OpenGPA's)               default 1
//   MALI_CONFIG_EXT_BUS_BYTE_SIZE   kGpaHardwareAttributeExternalBusBytes (OpenGPA's)           default 16
// MALI_CONFIG_TIME_SPAN is no constant: it is each sample's duration, an input beside the raw counter values.
#ifndef OPENGPA_COUNTER_LIBRARY_MALI_CONFIGURATION_H_
#define OPENGPA_COUNTER_LIBRARY_MALI_CONFIGURATION_H_

#include <string>
#include <utility>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_counters.h"

namespace opengpa::counter_library {

struct MaliConfiguration {
  // One shader core and one L2 slice leave the per-core and per-slice formulas as the totals the raw counters
  // sum; 16 bytes per beat is the 128-bit bus the reference says most implementations use.
  GpaUInt32 shader_cores = 1;
  GpaUInt32 l2_slices = 1;
  GpaUInt32 ext_bus_bytes = 16;

  // The formulas' names for these values.
  std::vector<std::pair<std::string, double>> Constants() const;
};

// Reads the configuration from `info`'s attributes (other attribute types are left to others; the last of a type
// wins). A zero value is refused: kGpaStatusErrorInvalidParameter, logged under `function`. Which values are
// defaults is logged as a message.
GpaStatus ReadMaliConfiguration(const char* function, const GpaCounterContextHardwareInfo& info,
                                MaliConfiguration* out);

}  // namespace opengpa::counter_library

#endif  // OPENGPA_COUNTER_LIBRARY_MALI_CONFIGURATION_H_
