// What `opengpa profile --api cuda --counters ...` collects for the names a user typed: GPA counters of
// the CUDA backend's catalogs (`opengpa list --api cuda`: GPUTime, FetchSize, ...) and raw CUPTI metrics
// (dram__bytes_read.sum), mixed freely. The names resolve through the library's own counter set
// (src/counters, built as the backend builds it), so a GPA counter here is the counter GPA reports: its
// catalog formula over CUPTI metrics, evaluated by the same engine once the metrics are measured
// (counter_outputs.h).
#ifndef OPENGPA_PROFILER_COUNTER_PLAN_H_
#define OPENGPA_PROFILER_COUNTER_PLAN_H_

#include <string>
#include <utility>
#include <vector>

#include "nvidia/cupti_host_metrics.h"
#include "profiler/profile_run.h"
#include "profiler/replay_choice.h"

namespace opengpa::inject_cuda {

struct CounterPlan {
  std::vector<std::string> metrics;                       // CUPTI metrics to measure, distinct, in first-use order
  std::vector<std::string> metric_units;                  // CUPTI's unit of each metric ("byte", "nanosecond", ...)
  std::vector<profiling::OutputCounter> outputs;          // one per name asked for, in that order
  std::vector<std::pair<std::string, double>> constants;  // what the outputs' formulas may name
};

// `device_constants`: the live device's (SM count, clocks...; empty for an offline chip). A name is a raw
// metric when CUPTI knows it for the chip as typed, otherwise a GPA counter (case-insensitive, as
// GpaGetCounterIndex). False and *error naming the first name that is neither (*unknown_name, when given,
// is that name; empty when the failure is another).
bool PlanCounters(const nvidia::CuptiHostMetrics& chip,
                  const std::vector<std::pair<std::string, double>>& device_constants,
                  const std::vector<std::string>& names, CounterPlan* out, std::string* error,
                  std::string* unknown_name = nullptr);

// Before the program runs (the CLI holds no CUDA context): whether every name resolves on `chip` as
// PlanCounters resolves it, or, with `chip` empty (no usable GPU here), on at least one chip the installed
// CUPTI supports, so a name refused here is unknown everywhere. False and *error naming the first name
// that does not resolve.
bool CheckCounterNames(const std::string& chip, const std::vector<std::string>& names, std::string* error);

// Adds gpu__time_duration.sum (raw) unless an output already gives a duration: the timeline needs one.
void EnsureDurationOutput(const nvidia::CuptiHostMetrics& chip, CounterPlan* plan);

// The metrics of `metrics` that CUPTI cannot collect in one pass even alone on `chip`, with their pass counts, in
// the order given (replay_choice.h: what `auto` does with them).
std::vector<SelfMultiPassMetric> MetricsNeedingSeveralPasses(const nvidia::CuptiHostMetrics& chip,
                                                             const std::vector<std::string>& metrics);

// Before the program runs, for --replay-mode auto (the CLI holds no CUDA context): false and *error with auto's
// refusal (replay_choice.h) when, on every chip the installed CUPTI supports where `names` resolve, the set needs
// several passes and some metric of it needs several passes alone. True otherwise: the profiled program's own
// choice on its chip then decides.
bool CheckAutoReplay(const std::vector<std::string>& names, std::string* error);

// Splits `metrics` into as few groups as it can find that CUPTI collects in one pass each (first fit, then a
// bounded search down to CUPTI's pass count of the whole set), so that application replay runs the program once
// per group. False and *error when one metric alone needs several passes.
bool SplitIntoSinglePassGroups(const nvidia::CuptiHostMetrics& chip, const std::vector<std::string>& metrics,
                               std::vector<std::vector<std::string>>* groups, std::string* error);

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_COUNTER_PLAN_H_
