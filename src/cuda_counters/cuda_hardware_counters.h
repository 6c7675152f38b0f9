// The hardware counters of a CUDA context: CUPTI metric names with a rollup, described from CUPTI's own
// metric properties. Every base metric of the chip appears with its rollups (counters: .sum .avg .min
// .max; ratios: .ratio .pct .max_rate; throughputs: {.avg,.max,.min,.sum}.pct_of_peak_sustained_{active,
// elapsed}); any other sub-metric a catalog formula names (e.g. sm__warps_active.avg.pct_of_peak_sustained_active)
// is added when CUPTI knows it for the chip.
#ifndef OPENGPA_CUDA_COUNTERS_CUDA_HARDWARE_COUNTERS_H_
#define OPENGPA_CUDA_COUNTERS_CUDA_HARDWARE_COUNTERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "counters/hardware_counter.h"
#include "gpu_performance_api/gpu_perf_api_types.h"
#include "nvidia/cupti_host_metrics.h"

namespace opengpa::cuda {

// The names formulas in `catalogs` refer to (not the min/max functions), in first-seen order.
std::vector<std::string> NamesInFormulas(const std::vector<std::string_view>& catalogs);

// Every rolled-up metric of the chip, then those of `extra_names` that are CUPTI metrics of the chip
// and not already listed. Names are unique.
[[nodiscard]] GpaStatus BuildHardwareCounters(const nvidia::CuptiHostMetrics& chip,
                                              const std::vector<std::string>& extra_names,
                                              std::vector<HardwareCounterInfo>* out);

// How a full metric name is typed and described (exposed for tests).
HardwareCounterInfo DescribeMetric(std::string_view name, const nvidia::MetricProperties& properties);

}  // namespace opengpa::cuda

#endif  // OPENGPA_CUDA_COUNTERS_CUDA_HARDWARE_COUNTERS_H_
