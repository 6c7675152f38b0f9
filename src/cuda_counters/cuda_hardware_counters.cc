#include "cuda_counters/cuda_hardware_counters.h"

#include <algorithm>
#include <array>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "counters/catalog.h"
#include "counters/expression.h"
#include "platform/logging.h"
#include "platform/text_affixes.h"

namespace opengpa::cuda {

using nvidia::CuptiHostMetrics;
using nvidia::MetricKind;
using nvidia::MetricProperties;
namespace {

// The sub-metrics listed for every base metric: the rollups, which read the same raw counters as the
// base metric (other sub-metrics, .per_second and the like, are only listed when a catalog names them).
constexpr std::array<std::string_view, 4> kCounterRollups{".sum", ".avg", ".min", ".max"};
constexpr std::array<std::string_view, 3> kRatioRollups{".ratio", ".pct", ".max_rate"};

bool IsThroughputRollup(std::string_view suffix) {
  return suffix.find(".pct_of_peak_sustained_") != std::string_view::npos &&
         std::count(suffix.begin(), suffix.end(), '.') == 2;
}

bool IsListedRollup(MetricKind kind, std::string_view suffix) {
  switch (kind) {
    case MetricKind::kCounter:
      return std::find(kCounterRollups.begin(), kCounterRollups.end(), suffix) != kCounterRollups.end();
    case MetricKind::kRatio:
      return std::find(kRatioRollups.begin(), kRatioRollups.end(), suffix) != kRatioRollups.end();
    case MetricKind::kThroughput: return IsThroughputRollup(suffix);
  }
  return false;
}

GpaUsageType UsageOfDimension(std::string_view dim_unit) {
  if (dim_unit == "byte") return kGpaUsageTypeBytes;
  if (dim_unit == "nanosecond") return kGpaUsageTypeNanoseconds;
  if (dim_unit == "msecond") return kGpaUsageTypeMilliseconds;
  if (dim_unit == "percent") return kGpaUsageTypePercentage;
  if (dim_unit == "cycle" || EndsWith(dim_unit, "_cycle")) return kGpaUsageTypeCycles;
  return kGpaUsageTypeItems;
}

// What the part of the name after the base metric means, for the description.
std::string RollupPhrase(std::string_view suffix, std::string_view unit) {
  if (suffix == ".sum") return fmt::format("sum over all {} units", unit);
  if (suffix == ".avg") return fmt::format("average per {} unit", unit);
  if (suffix == ".min") return fmt::format("minimum over {} units", unit);
  if (suffix == ".max") return fmt::format("maximum over {} units", unit);
  if (suffix == ".ratio") return "as a ratio";
  if (suffix == ".pct") return "as a percentage";
  if (suffix == ".max_rate") return "the largest value the ratio can take";
  return fmt::format("CUPTI sub-metric {}", suffix.substr(1));
}

// Splits "dram__bytes_read.sum.per_second" into base "dram__bytes_read" and suffix ".sum.per_second".
// Config-qualified names ("LTS.TriageCompute.lts__t_sectors.sum") keep their qualifier in the base: the base
// ends at the first '.' after the "unit__" part.
std::pair<std::string_view, std::string_view> SplitMetric(std::string_view name) {
  const std::size_t unit_end = name.find("__");
  const std::size_t dot = name.find('.', unit_end == std::string_view::npos ? 0 : unit_end);
  if (dot == std::string_view::npos) return {name, {}};
  return {name.substr(0, dot), name.substr(dot)};
}

}  // namespace

std::vector<std::string> NamesInFormulas(const std::vector<std::string_view>& catalogs) {
  std::vector<std::string> names;
  std::unordered_set<std::string> seen;
  for (std::string_view text : catalogs) {
    Catalog catalog;
    std::string error;
    if (!ParseCatalog(text, &catalog, &error)) continue;  // the core reports malformed catalogs
    // The formula parser is the one authority on what a name is (functions such as min/max/argmax are not):
    // every name it asks about, other than the catalog's own constants, may be a metric.
    const SymbolResolver collect_names = [&](std::string_view name) -> std::optional<Symbol> {
      for (const auto& [constant, value] : catalog.constants) {
        if (constant == name) return Symbol{Symbol::Kind::kConstant, 0, value};
      }
      if (seen.insert(std::string(name)).second) names.emplace_back(name);
      return Symbol{Symbol::Kind::kInput, 0, 0.0};
    };
    for (const CounterDefinition& counter : catalog.counters) {
      Expression parsed;
      Expression::Parse(counter.formula, collect_names, &parsed, &error);  // malformed: reported by the core
    }
  }
  return names;
}

HardwareCounterInfo DescribeMetric(std::string_view name, const MetricProperties& properties) {
  const auto [base, suffix] = SplitMetric(name);
  HardwareCounterInfo info;
  info.name = std::string(name);
  info.unit = properties.hw_unit;
  info.group = properties.hw_unit.empty() ? std::string("cupti") : properties.hw_unit;
  const std::string what =
      properties.description.empty() ? fmt::format("CUPTI metric {}", base) : properties.description;
  info.description = suffix.empty() ? what : fmt::format("{} ({})", what, RollupPhrase(suffix, info.group));

  const bool percent = EndsWith(suffix, ".pct") || suffix.find("pct_of_peak") != std::string_view::npos ||
                       properties.kind == MetricKind::kThroughput;
  if (percent) {
    info.data_type = kGpaDataTypeFloat64;
    info.usage = kGpaUsageTypePercentage;
  } else if (properties.kind == MetricKind::kRatio) {
    info.data_type = kGpaDataTypeFloat64;
    info.usage = kGpaUsageTypeRatio;
  } else if (suffix == ".sum" || suffix == ".min" || suffix == ".max") {
    // Event counts: whole numbers.
    info.data_type = kGpaDataTypeUint64;
    info.usage = UsageOfDimension(properties.dim_unit);
  } else if (suffix == ".avg") {
    info.data_type = kGpaDataTypeFloat64;
    info.usage = UsageOfDimension(properties.dim_unit);
  } else {
    // Rates (.per_second, .per_cycle_active) and peaks: fractional.
    info.data_type = kGpaDataTypeFloat64;
    info.usage = StartsWith(suffix, ".peak") || suffix.find("per_") != std::string_view::npos
                     ? kGpaUsageTypeRatio
                     : UsageOfDimension(properties.dim_unit);
  }
  return info;
}

GpaStatus BuildHardwareCounters(const CuptiHostMetrics& chip, const std::vector<std::string>& extra_names,
                                std::vector<HardwareCounterInfo>* out) {
  std::vector<HardwareCounterInfo> counters;
  std::unordered_set<std::string> listed;
  for (MetricKind kind : {MetricKind::kCounter, MetricKind::kRatio, MetricKind::kThroughput}) {
    for (const std::string& base : chip.BaseMetrics(kind)) {
      MetricProperties properties;
      if (chip.Properties(base, &properties) != kGpaStatusOk) continue;
      properties.kind = kind;
      std::vector<std::string> suffixes;
      if (chip.SubMetrics(kind, base, &suffixes) != kGpaStatusOk) continue;
      for (const std::string& suffix : suffixes) {
        if (!IsListedRollup(kind, suffix)) continue;
        HardwareCounterInfo info = DescribeMetric(base + suffix, properties);
        if (listed.insert(info.name).second) counters.push_back(std::move(info));
      }
    }
  }
  for (const std::string& name : extra_names) {
    if (listed.count(name) != 0) continue;
    MetricProperties properties;
    if (chip.Properties(name, &properties) != kGpaStatusOk) continue;  // a constant, or absent on this chip
    if (SplitMetric(name).second.empty()) continue;                    // a bare base metric has no value of its own
    listed.insert(name);
    counters.push_back(DescribeMetric(name, properties));
  }
  Log(kGpaLoggingDebugMessage, "CUPTI chip {}: {} hardware counters", chip.chip(), counters.size());
  *out = std::move(counters);
  return kGpaStatusOk;
}

}  // namespace opengpa::cuda
