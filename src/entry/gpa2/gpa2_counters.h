// The counters of a v3 context as v2 sees them: the same counters at the same indices, with
//   - v2 names where the v2 guide's tables name what a catalog measures under another name
//     (kV2Aliases: the catalog name is still accepted by GPA_GetCounterIndex / GPA_EnableCounterStr);
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

struct V2Alias {
  const char* catalog_name;  // what a catalog in counters/ calls it
  const char* v2_name;       // the name in the v2 guide's counter tables
};
// Only counters that measure exactly what the v2 description says (see docs/gpa2.md).
inline constexpr V2Alias kV2Aliases[] = {
    {"GSInvocations", "GSPrimsIn"},   // Vulkan: GS invocations = primitives into the GS (times GS instances)
    {"PSInvocations", "PSPixelsIn"},  // OpenGL: fragment shader invocations = pixels processed by the PS
};

struct CounterView {
  std::string name;          // the v2 name
  std::string catalog_name;  // the v3 name
  std::string description;
  GPA_Type type = GPA_TYPE_UINT64;
  GPA_Usage_Type usage = GPA_USAGE_TYPE_ITEMS;
  bool v3_is_float = false;  // how the v3 result word is read
  double scale = 1.0;        // v2 value = v3 value * scale
};

// Reads every counter of `context` through the v3 queries; false (logged) when one fails.
bool DescribeCounters(GpaContextId context, std::vector<CounterView>* counters);

// Case-insensitive, as v2 lookups are: the v2 name first, then the catalog name.
std::optional<gpa_uint32> FindCounter(const std::vector<CounterView>& counters, std::string_view name);

}  // namespace opengpa::gpa2

#endif  // OPENGPA_ENTRY_GPA2_GPA2_COUNTERS_H_
