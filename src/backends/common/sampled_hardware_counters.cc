#include "backends/common/sampled_hardware_counters.h"

#include <fmt/format.h>

namespace opengpa {
namespace {

bool Contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

GpaUsageType UsageOf(const nvidia::GraphicsMetric& metric) {
  const std::string& name = metric.described.name;
  if (!metric.additive) return kGpaUsageTypePercentage;  // ratios as .pct, throughputs as % of peak
  if (Contains(name, "__time_")) return kGpaUsageTypeNanoseconds;
  if (Contains(name, "bytes")) return kGpaUsageTypeBytes;
  if (Contains(name, "cycles")) return kGpaUsageTypeCycles;
  return kGpaUsageTypeItems;
}

}  // namespace

HardwareCounterInfo DescribeSampledMetric(const nvidia::GraphicsMetric& metric) {
  HardwareCounterInfo info;
  info.name = metric.described.name;
  info.group = metric.described.hw_unit.empty() ? "PerfWorks" : fmt::format("PerfWorks {}", metric.described.hw_unit);
  info.description = metric.described.description.empty()
                         ? fmt::format("PerfWorks metric {} (GPU periodic sampler)", metric.described.name)
                         : fmt::format("{} (PerfWorks {}, GPU periodic sampler{})", metric.described.description,
                                       metric.described.name,
                                       metric.additive ? "" : "; averaged over the sample's intervals by duration");
  info.data_type = kGpaDataTypeFloat64;
  info.usage = UsageOf(metric);
  info.unit = metric.described.hw_unit;
  return info;
}

}  // namespace opengpa
