// Derived-counter catalogs: JSON data, reviewable in a diff (format in counters/README.md).
#ifndef OPENGPA_COUNTERS_CATALOG_H_
#define OPENGPA_COUNTERS_CATALOG_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa {

struct CounterDefinition {
  std::string name;
  std::string group;
  std::string description;
  GpaDataType data_type = kGpaDataTypeFloat64;
  GpaUsageType usage = kGpaUsageTypeRatio;
  std::string formula;
};

// A hardware counter a catalog declares itself, for a device whose counters are data rather than code: Arm's
// Mali G1 (catalogs/arm_mali_g1.json), which no backend reads, so nothing else could list them.
struct HardwareCounterDefinition {
  std::string name;  // what formulas refer to
  std::string group;
  std::string description;
  GpaDataType data_type = kGpaDataTypeUint64;
  GpaUsageType usage = kGpaUsageTypeItems;
  std::string hardware_name;  // the vendor's own name for it (e.g. GPU_ACTIVE); may be empty
};

struct Catalog {
  std::vector<std::pair<std::string, double>> constants;
  std::vector<HardwareCounterDefinition> hardware_counters;  // optional "hardware_counters"; usually empty
  std::vector<CounterDefinition> counters;
};

// Parses one catalog; false and *error naming the entry and field on malformed input.
bool ParseCatalog(std::string_view json_text, Catalog* out, std::string* error);

// "uint64" / "float64" and GPA usage names ("percentage", "nanoseconds", ...), as used in catalogs.
bool ParseDataType(std::string_view text, GpaDataType* out);
bool ParseUsageType(std::string_view text, GpaUsageType* out);

}  // namespace opengpa

#endif  // OPENGPA_COUNTERS_CATALOG_H_
