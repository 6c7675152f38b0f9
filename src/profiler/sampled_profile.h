// A sampled run's rows (`opengpa profile --mode sampled`): the launches the program's processes recorded
// (kernel_timeline.h) get their counters from the PM samples of their GPU (sampled_attribution.h). Pure: tested
// without a GPU.
#ifndef OPENGPA_PROFILER_SAMPLED_PROFILE_H_
#define OPENGPA_PROFILER_SAMPLED_PROFILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/profile_run.h"
#include "profiler/sampled_attribution.h"

namespace opengpa::profiling {

// The samples of one GPU, and which GPU (matched to the launches' queues by UUID, else PCI bus id, else index).
struct GpuSampleSeries {
  GpuIdentity gpu;
  SampleSeries samples;
};

// The columns every sampled row has after the metrics: how far its values can be trusted.
inline constexpr const char* kCoverageColumn = "pm__coverage";      // share of the launch's time the samples cover
inline constexpr const char* kSamplesColumn = "pm__samples";        // samples it overlapped
inline constexpr const char* kOverlappedColumn = "pm__overlapped";  // 1: other work ran beside it on its GPU
inline constexpr const char* kShortColumn = "pm__short";            // 1: shorter than kShortIntervals intervals

// Whether `name` has the shape of a CUPTI metric ("unit__counter.rollup", such as dram__bytes_read.sum), what PM
// sampling measures; GPA counter names (GPUTime) are per-launch ranges, the exact mode's.
bool IsPmMetricName(const std::string& name);

// Numbers each process's launches from 0 in the order the program made them (the library wrote CUPTI's
// correlation ids), sets `run->counters` to `metrics` and the columns above, and fills every row's values.
// A launch whose GPU has no samples gets NaN for the metrics and a coverage of 0.
void AttributeSampledRun(const std::vector<GpuSampleSeries>& gpus, const std::vector<ProfiledCounter>& metrics,
                         const std::vector<MetricKind>& kinds, std::uint64_t interval_ns, ProfileRun* run);

// --nvtx-include, --kernel-name, --launch-skip and --launch-count in the sampled mode: every launch took its share of
// the samples (the GPU counted them all), then only the chosen rows are kept: those in a range --nvtx-include names
// (nvtx_filter.h; every row when none is named), and among them those chosen per process in launch order exactly as
// the exact mode's filter chooses them (launch_filter.h); rows keep their launch index. False and *error when the
// expression or a range spec is not valid.
bool KeepChosenLaunches(const std::string& kernel_name, std::uint64_t skip, std::uint64_t count, ProfileRun* run,
                        std::string* error, const std::vector<std::string>& nvtx_include = {});

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_SAMPLED_PROFILE_H_
