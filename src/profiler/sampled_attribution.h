// The sampled profile mode's arithmetic (`opengpa profile --mode sampled`): the GPU's counters were sampled at a
// fixed interval for the whole run (CUPTI PM sampling, device-wide) while the program ran unserialized, and the
// kernels' own start and end times came from CUPTI's activity records; this file gives each kernel launch its
// share of the samples. Pure arithmetic, no CUDA: tested without a GPU.
//
// The rule, per GPU (docs/cli.md, "--mode sampled"):
// - Work is every kernel, copy and memset the program ran on that GPU. A sample's amounts (counters that
//   accumulate: bytes, instructions, cycles) go to the work that ran during it; time in the sample with no work
//   gets nothing (the GPU counted only for the work), so a kernel shorter than the interval still gets the whole
//   of a sample it ran alone in. Where pieces share a sample, each piece that has samples to itself (whole samples
//   it ran alone in) gets its time in the shared one times its own rate there, and the rest goes to the pieces
//   without such samples by their time in it (if the rates claim more than the sample counted, they are scaled
//   down to it and the others get nothing); where no piece has a rate, by time.
// - A reading (a ratio, a rate, a percentage of peak) of a sample is taken as the reading of its busy part,
//   span / busy time times the sample's value (the GPU was idle for the rest), and a kernel's reading is the
//   average of that over its time in each sample.
// - A sample a decode may have disturbed (SampleSeries::disturbed) is left out of a launch's readings and time
//   averages, and out of the own rates, unless the launch has no other sample.
// - Each launch also says how well it could be attributed: the share of its time the samples covered (lost
//   records leave holes), how many samples it touched, whether other work ran at the same time on its GPU
//   (its values are then shared by time, not measured), and whether it was shorter than three intervals.
#ifndef OPENGPA_PROFILER_SAMPLED_ATTRIBUTION_H_
#define OPENGPA_PROFILER_SAMPLED_ATTRIBUTION_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace opengpa::profiling {

// One piece of GPU work on the GPU's clock (ns, the clock CUPTI's activity records and PM samples share).
struct TimedWork {
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  bool kernel = true;  // false: a copy or memset, which takes its share but is not reported
};

// The samples of one GPU: times[i] spans sample i, values[i * metric count + m] is its value of metric m.
struct SampleSeries {
  struct Span {
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
  };
  std::vector<Span> spans;  // in time order, not overlapping
  std::vector<double> values;
  // Empty, or per span 1 when a decode may have zeroed the sample's SM-unit counts (nvidia::PmDecodeDisturbedSamples):
  // such a sample gives no own rate, and is left out of a launch's readings and time averages when the launch has
  // other samples. Its amounts still count (DRAM bytes are not disturbed; SM amounts may read one sample short).
  std::vector<std::uint8_t> disturbed;
};

// kAmount: a count per sample that adds up over time (bytes, instructions). kTimeAverage: a rate averaged over the
// sample's elapsed time (a .pct_of_peak_sustained_elapsed utilization, a .per_second rate): its value times the
// sample's span adds up over time as an amount does, so a sample shared at a boundary is split by the launches'
// own rates as amounts are. kReading: any other gauge (a hit rate, a ratio), weighted by time.
enum class MetricKind { kAmount, kTimeAverage, kReading };

// The kind of PM sampling metric `name`, given whether CUPTI says it accumulates.
MetricKind MetricKindOf(const std::string& name, bool accumulates);

// What a kernel got.
struct AttributedWork {
  std::vector<double> values;           // one per metric; NaN when no sample covered any of the kernel's time
  double coverage = 0.0;                // share of the work's time inside decoded samples, 0..1
  std::uint32_t samples = 0;            // samples it overlapped
  bool overlapped = false;              // other work ran on the GPU during part of it
  bool short_work = false;              // shorter than kShortIntervals sampling intervals
  std::uint32_t disturbed_samples = 0;  // disturbed samples left out of its readings and time averages
};

inline constexpr double kShortIntervals = 3.0;

// Attributes `samples` of one GPU to `work` (any order). `kinds` has one entry per metric; `interval_ns` is the
// sampling interval (for `short_work`). The result has one entry per `work`, in the same order.
std::vector<AttributedWork> AttributeSamples(const std::vector<TimedWork>& work, const SampleSeries& samples,
                                             const std::vector<MetricKind>& kinds, std::uint64_t interval_ns);

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_SAMPLED_ATTRIBUTION_H_
