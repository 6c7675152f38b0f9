#include "entry/gpa2/gpa2_counters.h"

#include <strings.h>

#include "entry/gpa2/gpa2_logging.h"
#include "gpu_performance_api/gpu_perf_api.h"

namespace opengpa::gpa2 {
namespace {

constexpr double kMillisecondsPerNanosecond = 1e-6;

GPA_Usage_Type V2Usage(GpaUsageType usage) {
  switch (usage) {
    case kGpaUsageTypeRatio: return GPA_USAGE_TYPE_RATIO;
    case kGpaUsageTypePercentage: return GPA_USAGE_TYPE_PERCENTAGE;
    case kGpaUsageTypeCycles: return GPA_USAGE_TYPE_CYCLES;
    case kGpaUsageTypeMilliseconds:
    case kGpaUsageTypeNanoseconds:  // converted, see CounterView
      return GPA_USAGE_TYPE_MILLISECONDS;
    case kGpaUsageTypeBytes: return GPA_USAGE_TYPE_BYTES;
    case kGpaUsageTypeKilobytes: return GPA_USAGE_TYPE_KILOBYTES;
    case kGpaUsageTypeItems:
    default: return GPA_USAGE_TYPE_ITEMS;
  }
}

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

bool DescribeCounters(GpaContextId context, std::vector<CounterView>* counters) {
  counters->clear();
  GpaUInt32 count = 0;
  if (GpaGetNumCounters(context, &count) != kGpaStatusOk) {
    Log(GPA_LOGGING_ERROR, "GPA_OpenContext: the counters of the context could not be counted");
    return false;
  }
  counters->reserve(count);
  for (GpaUInt32 i = 0; i < count; ++i) {
    const char* name = nullptr;
    const char* description = nullptr;
    GpaDataType type = kGpaDataTypeUint64;
    GpaUsageType usage = kGpaUsageTypeItems;
    if (GpaGetCounterName(context, i, &name) != kGpaStatusOk ||
        GpaGetCounterDescription(context, i, &description) != kGpaStatusOk ||
        GpaGetCounterDataType(context, i, &type) != kGpaStatusOk ||
        GpaGetCounterUsageType(context, i, &usage) != kGpaStatusOk) {
      Log(GPA_LOGGING_ERROR, "GPA_OpenContext: counter {} of the context could not be described", i);
      return false;
    }
    CounterView view;
    view.name = name;
    view.description = description;
    view.v3_is_float = type == kGpaDataTypeFloat64;
    view.type = view.v3_is_float ? GPA_TYPE_FLOAT64 : GPA_TYPE_UINT64;
    view.usage = V2Usage(usage);
    if (usage == kGpaUsageTypeNanoseconds) {
      view.scale = kMillisecondsPerNanosecond;
      view.type = GPA_TYPE_FLOAT64;
    }
    counters->push_back(std::move(view));
  }
  return true;
}

std::optional<gpa_uint32> FindCounter(const std::vector<CounterView>& counters, std::string_view name) {
  for (gpa_uint32 i = 0; i < counters.size(); ++i) {
    if (SameName(counters[i].name, name)) return i;
  }
  return std::nullopt;
}

}  // namespace opengpa::gpa2
