#include "profiler/sampled_counters.h"

#include <algorithm>
#include <optional>

#include "counters/catalog.h"
#include "counters/expression.h"
#include "platform/text_affixes.h"
#include "platform/type_strings.h"
#include "profiler/sampled_profile.h"

namespace opengpa {
namespace embedded {
extern const char pm_sampled_sol_catalog[];
}  // namespace embedded

namespace profiling {
namespace {

// A catalog counter with the PM metrics its formula reads, in the order it names them.
struct DerivedCounter {
  CounterDefinition definition;
  std::vector<std::string> inputs;
};

struct DerivedCatalog {
  std::vector<DerivedCounter> counters;
  std::vector<std::pair<std::string, double>> constants;
  std::string error;  // why the embedded catalog could not be read (a build defect, caught by the tests)
};

const DerivedCatalog& Derived() {
  static const DerivedCatalog catalog = [] {
    DerivedCatalog made;
    Catalog parsed;
    if (!ParseCatalog(embedded::pm_sampled_sol_catalog, &parsed, &made.error)) {
      made.error = "catalogs/pm_sampled_sol.json: " + made.error;
      return made;
    }
    made.constants = parsed.constants;
    for (CounterDefinition& definition : parsed.counters) {
      DerivedCounter counter;
      const SymbolResolver collect = [&](std::string_view name) -> std::optional<Symbol> {
        for (const auto& [constant, value] : made.constants) {
          if (constant == name) return Symbol{Symbol::Kind::kConstant, 0, value};
        }
        auto known = std::find(counter.inputs.begin(), counter.inputs.end(), name);
        if (known == counter.inputs.end()) known = counter.inputs.insert(known, std::string(name));
        return Symbol{Symbol::Kind::kInput, static_cast<std::uint32_t>(known - counter.inputs.begin()), 0.0};
      };
      Expression unused;
      if (!Expression::Parse(definition.formula, collect, &unused, &made.error)) {
        made.error = "catalogs/pm_sampled_sol.json: " + definition.name + ": " + made.error;
        made.counters.clear();
        return made;
      }
      counter.definition = std::move(definition);
      made.counters.push_back(std::move(counter));
    }
    return made;
  }();
  return catalog;
}

std::string KnownNames(const DerivedCatalog& catalog) {
  std::string names;
  std::vector<std::string> groups;
  for (const DerivedCounter& counter : catalog.counters) {
    names += (names.empty() ? "" : ", ") + counter.definition.name;
    if (std::find(groups.begin(), groups.end(), counter.definition.group) == groups.end()) {
      groups.push_back(counter.definition.group);
    }
  }
  for (const std::string& group : groups) names += ", " + group + " (all of them)";
  return names;
}

void AddOnce(const std::string& name, std::vector<std::string>* names) {
  if (std::find(names->begin(), names->end(), name) == names->end()) names->push_back(name);
}

}  // namespace

bool PlanSampledCounters(const std::vector<std::string>& asked, SampledCounterPlan* plan, std::string* error) {
  const DerivedCatalog& catalog = Derived();
  if (!catalog.error.empty()) {
    *error = catalog.error;
    return false;
  }
  SampledCounterPlan made;
  made.constants = catalog.constants;
  // The rows' columns in the order asked, each once; a catalog name as the catalog spells it.
  auto add_column = [&made](OutputCounter column) {
    const bool known = std::any_of(made.outputs.begin(), made.outputs.end(),
                                   [&column](const OutputCounter& output) { return output.name == column.name; });
    if (!known) made.outputs.push_back(std::move(column));
  };
  for (const std::string& name : asked) {
    if (IsPmMetricName(name)) {
      AddOnce(name, &made.pm_metrics);
      add_column({name, "", "float64", name});  // a metric as itself (its unit is set by SetSampledOutputs)
      continue;
    }
    bool found = false;
    for (const DerivedCounter& counter : catalog.counters) {
      const CounterDefinition& definition = counter.definition;
      if (!EqualsIgnoringCase(name, definition.name) && !EqualsIgnoringCase(name, definition.group)) continue;
      found = true;
      for (const std::string& input : counter.inputs) AddOnce(input, &made.pm_metrics);
      add_column({definition.name, UsageTypeAsString(definition.usage),
                  definition.data_type == kGpaDataTypeUint64 ? "uint64" : "float64", definition.formula});
    }
    if (!found) {
      *error =
          "the sampled mode measures CUPTI PM sampling metrics (such as dram__bytes_read.sum) and the Speed-of-Light "
          "counters built on them (" +
          KnownNames(catalog) + "); '" + name +
          "' is neither (other GPA counters are measured per launch by the exact mode, --mode exact; `opengpa monitor "
          "--list-pm-metrics` lists the metrics)";
      return false;
    }
  }
  made.reads_sm_throughput = std::any_of(made.pm_metrics.begin(), made.pm_metrics.end(), [](const std::string& metric) {
    return StartsWith(metric, "TriageCompute.sm__throughput");
  });
  for (const char* trust : {kCoverageColumn, kSamplesColumn, kOverlappedColumn, kShortColumn}) {
    made.outputs.push_back({trust, "", "", trust});
  }
  *plan = std::move(made);
  return true;
}

double DefaultSampledIntervalUs(const SampledCounterPlan& plan) {
  if (!plan.reads_sm_throughput) return kDefaultSampledIntervalUs;
  return std::max(kSmThroughputSampledIntervalUs,
                  kSmThroughputUsPerMetric * static_cast<double>(plan.pm_metrics.size()));
}

void SetSampledOutputs(const SampledCounterPlan& plan, ProfileRun* run) {
  run->outputs = plan.outputs;
  for (const auto& constant : plan.constants) {
    const bool known = std::any_of(run->constants.begin(), run->constants.end(),
                                   [&constant](const auto& c) { return c.first == constant.first; });
    if (!known) run->constants.push_back(constant);
  }
  // A metric and a trust column keep the unit and type the measured column has.
  for (OutputCounter& output : run->outputs) {
    if (!output.usage.empty()) continue;
    for (const ProfiledCounter& column : run->counters) {
      if (column.name != output.name) continue;
      output.usage = column.usage;
      output.data_type = column.data_type;
    }
  }
}

}  // namespace profiling
}  // namespace opengpa
