#include "profiler/counter_plan.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "counters/catalog.h"
#include "counters/counter_set.h"
#include "cuda_counters/cuda_catalogs.h"
#include "cuda_counters/cuda_hardware_counters.h"
#include "platform/name_suggestion.h"
#include "platform/type_strings.h"

namespace opengpa::inject_cuda {
namespace {

constexpr const char* kDurationMetric = "gpu__time_duration.sum";

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::vector<std::string_view> CatalogTexts() {
  std::vector<std::string_view> texts;
  for (const cuda::EmbeddedCatalog& catalog : cuda::EmbeddedCatalogs()) texts.emplace_back(catalog.text);
  return texts;
}

void AddMetric(const nvidia::CuptiHostMetrics& chip, const std::string& metric, CounterPlan* plan) {
  if (std::find(plan->metrics.begin(), plan->metrics.end(), metric) != plan->metrics.end()) return;
  nvidia::MetricProperties properties;
  plan->metrics.push_back(metric);
  plan->metric_units.push_back(chip.Properties(metric, &properties) == kGpaStatusOk ? properties.dim_unit : "");
}

// The GPA counters of the chip as the CUDA backend builds them (derived counters only: a raw name was
// already tried as a CUPTI metric).
struct GpaCounters {
  std::vector<HardwareCounterInfo> hardware;
  CounterSet set;
};

bool BuildGpaCounters(const nvidia::CuptiHostMetrics& chip,
                      const std::vector<std::pair<std::string, double>>& device_constants, GpaCounters* out,
                      std::string* error) {
  const std::vector<std::string_view> catalogs = CatalogTexts();
  if (cuda::BuildHardwareCounters(chip, cuda::NamesInFormulas(catalogs), &out->hardware) != kGpaStatusOk) {
    *error = "cannot list the CUPTI metrics of " + chip.chip();
    return false;
  }
  if (!CounterSet::Build(out->hardware, catalogs, device_constants, false, &out->set, error)) return false;
  return true;
}

// Catalog constants first, then the device's: the order in which the counter set resolves names.
std::vector<std::pair<std::string, double>> AllConstants(
    const std::vector<std::pair<std::string, double>>& device_constants) {
  std::vector<std::pair<std::string, double>> constants;
  auto add = [&constants](const std::string& name, double value) {
    const bool known = std::any_of(constants.begin(), constants.end(), [&](const auto& c) { return c.first == name; });
    if (!known) constants.emplace_back(name, value);
  };
  for (std::string_view text : CatalogTexts()) {
    Catalog catalog;
    std::string ignored;
    if (!ParseCatalog(text, &catalog, &ignored)) continue;  // the counter set reports a malformed catalog
    for (const auto& [name, value] : catalog.constants) add(name, value);
  }
  for (const auto& [name, value] : device_constants) add(name, value);
  return constants;
}

// Whether `name` (any case) names a counter of the catalogs: the GPA counters are theirs, so a name in none
// of them is unknown without building the chip's counter set (which lists every metric: the slow part).
// Every counter name of the CUDA catalogs, as the catalogs spell them.
const std::vector<std::string>& CatalogNames() {
  static const std::vector<std::string> names = [] {
    std::set<std::string> unique;
    for (std::string_view text : CatalogTexts()) {
      Catalog catalog;
      std::string ignored;
      if (!ParseCatalog(text, &catalog, &ignored)) continue;
      for (const CounterDefinition& counter : catalog.counters) unique.insert(counter.name);
    }
    return std::vector<std::string>(unique.begin(), unique.end());
  }();
  return names;
}

bool InSomeCatalog(const std::string& name) {
  static const std::set<std::string> names = [] {
    std::set<std::string> lower;
    for (const std::string& counter : CatalogNames()) lower.insert(Lower(counter));
    return lower;
  }();
  return names.count(Lower(name)) != 0;
}

// "; did you mean 'X'?" for a name no catalog and no metric of `chip` knows, or "": a name without a dot among the
// GPA counters, a metric (base.rollup) by its base among the chip's base metrics, the rollup kept.
std::string Suggestion(const std::string& name, const nvidia::CuptiHostMetrics* chip) {
  std::optional<std::string> near;
  const std::size_t dot = name.find('.');
  if (dot == std::string::npos) {
    near = ClosestName(name, CatalogNames());
  } else if (chip != nullptr) {
    std::vector<std::string> bases;
    for (auto kind : {nvidia::MetricKind::kCounter, nvidia::MetricKind::kRatio, nvidia::MetricKind::kThroughput}) {
      const auto& each = chip->BaseMetrics(kind);
      bases.insert(bases.end(), each.begin(), each.end());
    }
    if (auto base = ClosestName(std::string_view(name).substr(0, dot), bases)) near = *base + name.substr(dot);
  }
  return near ? "; did you mean '" + *near + "'?" : std::string();
}

}  // namespace

bool PlanCounters(const nvidia::CuptiHostMetrics& chip,
                  const std::vector<std::pair<std::string, double>>& device_constants,
                  const std::vector<std::string>& names, CounterPlan* out, std::string* error,
                  std::string* unknown_name) {
  if (unknown_name != nullptr) unknown_name->clear();
  CounterPlan plan;
  std::unique_ptr<GpaCounters> gpa;  // built only when a name is not a raw metric (it lists every metric)
  for (const std::string& name : names) {
    nvidia::MetricProperties properties;
    if (chip.Properties(name, &properties) == kGpaStatusOk && name.find('.') != std::string::npos) {
      AddMetric(chip, name, &plan);
      plan.outputs.push_back({name, properties.dim_unit, "float64", name});
      continue;
    }
    if (!gpa && InSomeCatalog(name)) {
      gpa = std::make_unique<GpaCounters>();
      if (!BuildGpaCounters(chip, device_constants, gpa.get(), error)) return false;
    }
    const std::optional<std::uint32_t> index = gpa ? gpa->set.Find(name) : std::nullopt;
    if (!index) {
      if (unknown_name != nullptr) *unknown_name = name;
      *error = "\"" + Quoted(name) + "\" is neither a GPA counter of " + chip.chip() +
               " (`opengpa list --api cuda`) nor one of its CUPTI metrics (`opengpa list --api cuda --hardware`)" +
               Suggestion(name, &chip);
      return false;
    }
    const PublicCounter& counter = gpa->set.at(*index);
    for (HardwareCounterIndex input : counter.formula.Inputs()) AddMetric(chip, gpa->hardware[input].name, &plan);
    const char* usage = UsageTypeAsString(counter.usage);
    plan.outputs.push_back({counter.name, usage ? usage : "", "float64", counter.formula.Text()});
  }
  plan.constants = AllConstants(device_constants);
  *out = std::move(plan);
  return true;
}

bool CheckCounterNames(const std::string& chip, const std::vector<std::string>& names, std::string* error) {
  // Without a dot a name can only be a GPA counter (as PlanCounters reads it): in no catalog, it is unknown
  // on every chip, found without asking one.
  for (const std::string& name : names) {
    if (name.find('.') == std::string::npos && !InSomeCatalog(name)) {
      *error = "\"" + Quoted(name) + "\" is neither a GPA counter (`opengpa list --api cuda`) nor a CUPTI metric " +
               "(`opengpa list --api cuda --hardware`)" + (chip.empty() ? "" : " of " + chip) +
               Suggestion(name, nullptr);
      return false;
    }
  }
  const std::vector<std::string> chips = chip.empty() ? nvidia::SupportedChips() : std::vector<std::string>{chip};
  // All names on each chip (the usual case: one chip, one counter set built). A name that every chip
  // reports as its first unknown one is unknown everywhere; otherwise each name on its own says which.
  std::vector<std::unique_ptr<nvidia::CuptiHostMetrics>> hosts;
  std::string first_error;
  std::string unknown_everywhere;
  bool same_unknown = true;
  for (const std::string& each : chips) {
    std::unique_ptr<nvidia::CuptiHostMetrics> host;
    if (nvidia::CuptiHostMetrics::Create(each, {}, &host) != kGpaStatusOk) continue;
    CounterPlan plan;
    std::string chip_error;
    std::string unknown;
    if (PlanCounters(*host, {}, names, &plan, &chip_error, &unknown)) return true;
    if (hosts.empty()) {
      first_error = chip_error;
      unknown_everywhere = unknown;
    }
    same_unknown = same_unknown && !unknown.empty() && unknown == unknown_everywhere;
    hosts.push_back(std::move(host));
  }
  if (hosts.empty()) {
    *error = chip.empty() ? "the installed CUPTI supports no chip" : "CUPTI cannot describe chip " + chip;
    return false;
  }
  auto unknown_message = [&hosts](const std::string& name) {
    return "\"" + Quoted(name) + "\" is neither a GPA counter (`opengpa list --api cuda`) nor a CUPTI metric " +
           "(`opengpa list --api cuda --hardware`) of any chip this CUPTI supports" +
           Suggestion(name, hosts.front().get());
  };
  if (hosts.size() == 1) {
    *error = first_error;
    return false;
  }
  if (same_unknown) {
    *error = unknown_message(unknown_everywhere);
    return false;
  }
  for (const std::string& name : names) {
    const bool known = std::any_of(hosts.begin(), hosts.end(), [&name](const auto& host) {
      CounterPlan plan;
      std::string ignored;
      return PlanCounters(*host, {}, {name}, &plan, &ignored);
    });
    if (!known) {
      *error = unknown_message(name);
      return false;
    }
  }
  *error = "each of these counters is known, but no chip has them all: " + first_error;
  return false;
}

void EnsureDurationOutput(const nvidia::CuptiHostMetrics& chip, CounterPlan* plan) {
  for (const profiling::OutputCounter& output : plan->outputs) {
    if (output.name == kDurationMetric || output.usage == "nanoseconds") return;
  }
  AddMetric(chip, kDurationMetric, plan);
  nvidia::MetricProperties properties;
  const std::string unit = chip.Properties(kDurationMetric, &properties) == kGpaStatusOk ? properties.dim_unit : "";
  plan->outputs.push_back({kDurationMetric, unit, "float64", kDurationMetric});
}

namespace {

// Whether a set of metrics fits one CUPTI pass, asked of CUPTI's host API once per set (a few ms each).
class OnePassOracle {
 public:
  explicit OnePassOracle(const nvidia::CuptiHostMetrics& chip) : chip_(chip) {}
  std::size_t Passes(const std::vector<std::string>& set) {
    std::unique_ptr<nvidia::CuptiMetricConfig> config;
    ++calls_;
    if (nvidia::CuptiMetricConfig::Create(chip_, set, &config) != kGpaStatusOk) return 0;  // cannot share a pass
    return config->pass_count();
  }
  bool FitsOnePass(std::vector<std::string> set) {
    std::sort(set.begin(), set.end());
    auto found = known_.find(set);
    if (found != known_.end()) return found->second;
    const bool fits = Passes(set) == 1;
    known_.emplace(std::move(set), fits);
    return fits;
  }
  std::size_t calls() const { return calls_; }

 private:
  const nvidia::CuptiHostMetrics& chip_;
  std::map<std::vector<std::string>, bool> known_;
  std::size_t calls_ = 0;
};

// Up to this many CUPTI questions are spent looking for fewer groups than first fit found.
constexpr std::size_t kSearchCalls = 400;

// Places metrics[next..] into at most `limit` groups, each one pass; true with *groups filled when it can.
bool PlaceInto(const std::vector<std::string>& metrics, std::size_t next, std::size_t limit, OnePassOracle& oracle,
               std::vector<std::vector<std::string>>* groups) {
  if (next == metrics.size()) return true;
  if (oracle.calls() > kSearchCalls) return false;
  for (std::size_t g = 0; g < groups->size(); ++g) {
    (*groups)[g].push_back(metrics[next]);
    if (oracle.FitsOnePass((*groups)[g]) && PlaceInto(metrics, next + 1, limit, oracle, groups)) return true;
    (*groups)[g].pop_back();
  }
  if (groups->size() < limit) {  // a new group; opening it in any later position would be the same partition
    groups->push_back({metrics[next]});
    if (PlaceInto(metrics, next + 1, limit, oracle, groups)) return true;
    groups->pop_back();
  }
  return false;
}

}  // namespace

std::vector<SelfMultiPassMetric> MetricsNeedingSeveralPasses(const nvidia::CuptiHostMetrics& chip,
                                                             const std::vector<std::string>& metrics) {
  OnePassOracle oracle(chip);
  std::vector<SelfMultiPassMetric> alone;
  for (const std::string& metric : metrics) {
    const std::size_t passes = oracle.Passes({metric});
    if (passes > 1) alone.push_back({metric, passes});
  }
  return alone;
}

bool CheckAutoReplay(const std::vector<std::string>& names, std::string* error) {
  std::string refusal;
  for (const std::string& each : nvidia::SupportedChips()) {
    std::unique_ptr<nvidia::CuptiHostMetrics> host;
    if (nvidia::CuptiHostMetrics::Create(each, {}, &host) != kGpaStatusOk) continue;
    CounterPlan plan;
    std::string ignored;
    if (!PlanCounters(*host, {}, names, &plan, &ignored)) continue;  // names of other chips
    EnsureDurationOutput(*host, &plan);
    std::unique_ptr<nvidia::CuptiMetricConfig> whole;
    if (nvidia::CuptiMetricConfig::Create(*host, plan.metrics, &whole) != kGpaStatusOk) continue;
    if (whole->pass_count() <= 1) return true;
    const ReplayChoice choice = ChooseReplay(profiling::ReplayMode::kAuto, whole->pass_count(),
                                             MetricsNeedingSeveralPasses(*host, plan.metrics), each);
    if (choice.refusal.empty()) return true;
    if (refusal.empty()) refusal = choice.refusal;
  }
  if (refusal.empty()) return true;
  *error = refusal + " (likewise on every other chip this CUPTI supports)";
  return false;
}

bool SplitIntoSinglePassGroups(const nvidia::CuptiHostMetrics& chip, const std::vector<std::string>& metrics,
                               std::vector<std::vector<std::string>>* groups, std::string* error) {
  groups->clear();
  OnePassOracle oracle(chip);
  // First fit: each metric joins the first group it shares a pass with (the greedy split in order left the
  // benchmark's 8-metric set in 3 groups where 2 exist: one program run more under application replay).
  for (const std::string& metric : metrics) {
    if (!oracle.FitsOnePass({metric})) {
      *error = "application replay runs the program once per pass and collects whole metrics in each run, but " +
               metric + " alone needs several passes on " + chip.chip() + " (--replay-mode kernel collects it)";
      return false;
    }
    bool placed = false;
    for (auto& group : *groups) {
      group.push_back(metric);
      if (oracle.FitsOnePass(group)) {
        placed = true;
        break;
      }
      group.pop_back();
    }
    if (!placed) groups->push_back({metric});
  }
  // Fewer groups, if any exist: no split of whole metrics needs fewer runs than CUPTI's own pass count of the
  // set, so search from there up to one less than first fit, within a bounded number of CUPTI questions.
  const std::size_t whole = oracle.Passes(metrics);
  for (std::size_t limit = std::max<std::size_t>(whole, 1); limit < groups->size(); ++limit) {
    std::vector<std::vector<std::string>> fewer;
    if (PlaceInto(metrics, 0, limit, oracle, &fewer)) {
      *groups = std::move(fewer);
      break;
    }
    if (oracle.calls() > kSearchCalls) break;
  }
  return true;
}

}  // namespace opengpa::inject_cuda
