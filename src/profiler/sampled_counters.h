// What `opengpa profile --mode sampled` (and Python's sampled mode) can be asked for, and what PM sampling must
// measure for it: CUPTI PM sampling metrics, each its own column, and the Speed-of-Light counters of
// catalogs/pm_sampled_sol.json (SOL_SM ... GPUBottleneck, or their group "SpeedOfLight"), which are formulas over
// the unit throughputs PM sampling measures. A derived counter is evaluated per launch, after the launch got its
// share of the samples (sampled_profile.h), by the same formula engine as the exact mode's counters
// (counter_outputs.h). Pure: tested without a GPU.
#ifndef OPENGPA_PROFILER_SAMPLED_COUNTERS_H_
#define OPENGPA_PROFILER_SAMPLED_COUNTERS_H_

#include <string>
#include <utility>
#include <vector>

#include "profiler/profile_run.h"

namespace opengpa::profiling {

// The default sampling interval, and the ones for a set that reads PM sampling's SM throughput
// (TriageCompute.sm__throughput, which SOL_SM and GPUBottleneck read), whose records cost the host far more to
// decode and evaluate (docs/validation.md rows 64, 71 and 76, H200): with DRAM throughput beside it about 63 µs a
// record (every record kept at 100 µs, a quarter of the run lost at 50 µs); with the four unit throughputs of
// SpeedOfLight 50-58 µs to decode and as much to evaluate, on two threads (0.4-0.5 % of a PyTorch run lost at
// 100 µs since decoding does nothing else and its image stays within nvidia::kPmLargestImage; 9-43 % before). So
// such a set is sampled every kSmThroughputUsPerMetric per metric, and never finer than
// kSmThroughputSampledIntervalUs.
inline constexpr double kDefaultSampledIntervalUs = 20.0;
inline constexpr double kSmThroughputSampledIntervalUs = 100.0;
inline constexpr double kSmThroughputUsPerMetric = 25.0;

struct SampledCounterPlan {
  std::vector<std::string> pm_metrics;  // what PM sampling measures: each needed metric once, in first-needed order
  // The rows' columns, in the order asked: a metric as itself, a derived counter as its catalog formula over
  // pm_metrics, then the columns saying how far each row can be trusted (pm__coverage ...).
  std::vector<OutputCounter> outputs;
  std::vector<std::pair<std::string, double>> constants;  // the catalog's, for the formulas
  bool reads_sm_throughput = false;                       // pm_metrics hold PM sampling's SM throughput
};

// Plans `asked` (names as the user wrote them; a catalog counter or group in any case). False and *error naming
// the first name that is neither a PM sampling metric nor one of the catalog's counters or groups.
bool PlanSampledCounters(const std::vector<std::string>& asked, SampledCounterPlan* plan, std::string* error);

// The interval to sample at when none was chosen: for a set that reads PM sampling's SM throughput,
// kSmThroughputUsPerMetric per metric and at least kSmThroughputSampledIntervalUs; else kDefaultSampledIntervalUs.
double DefaultSampledIntervalUs(const SampledCounterPlan& plan);

// After AttributeSampledRun (whose columns are plan.pm_metrics and the trust columns): the outputs and constants
// EvaluateOutputs turns the rows into.
void SetSampledOutputs(const SampledCounterPlan& plan, ProfileRun* run);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_SAMPLED_COUNTERS_H_
