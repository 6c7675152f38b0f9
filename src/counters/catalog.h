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

struct Catalog {
  std::vector<std::pair<std::string, double>> constants;
  std::vector<CounterDefinition> counters;
};

// Parses one catalog; false and *error naming the entry and field on malformed input.
bool ParseCatalog(std::string_view json_text, Catalog* out, std::string* error);

// "uint64" / "float64" and GPA usage names ("percentage", "nanoseconds", ...), as used in catalogs.
bool ParseDataType(std::string_view text, GpaDataType* out);
bool ParseUsageType(std::string_view text, GpaUsageType* out);

}  // namespace opengpa

#endif  // OPENGPA_COUNTERS_CATALOG_H_
