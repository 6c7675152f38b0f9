// The counters of a v3 context as v2 sees them: the same counters at the same indices and names (the
// catalogs use GPA's names, the v2 tables' included: catalogs/README.md, "One vocabulary"), with
//   - v2 units: v2 has no nanoseconds, and its GPUTime is in milliseconds, so every nanosecond counter
//     reads in milliseconds (value / 1e6) as a gpa_float64 with usage GPA_USAGE_TYPE_MILLISECONDS;
//   - v2 types: a v3 uint64 counter is GPA_TYPE_UINT64, a float64 one GPA_TYPE_FLOAT64.
#ifndef OPENGPA_ENTRY_GPA2_GPA2_COUNTERS_H_
#define OPENGPA_ENTRY_GPA2_GPA2_COUNTERS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "gpu_performance_api/v2/GPUPerfAPITypes.h"

namespace opengpa::gpa2 {

struct CounterView {
  std::string name;
  std::string description;
  GPA_Type type = GPA_TYPE_UINT64;
  GPA_Usage_Type usage = GPA_USAGE_TYPE_ITEMS;
  bool v3_is_float = false;  // how the v3 result word is read
  double scale = 1.0;        // v2 value = v3 value * scale
};

// Reads every counter of `context` through the v3 queries; false (logged) when one fails.
bool DescribeCounters(GpaContextId context, std::vector<CounterView>* counters);

// Case-insensitive, as v2 lookups are.
std::optional<gpa_uint32> FindCounter(const std::vector<CounterView>& counters, std::string_view name);

}  // namespace opengpa::gpa2

#endif  // OPENGPA_ENTRY_GPA2_GPA2_COUNTERS_H_
