// The metrics PerfWorks' device evaluator knows for one chip (host library only: works offline, without a GPU):
// their names with rollups, descriptions and hardware units; how a set of them is split into GPU periodic
// sampler passes (one raw-metrics configuration each); and the evaluation of a decoded sample.
//
// Names are PerfWorks' own with a rollup, the same spelling CUPTI uses on CUDA ("dram__bytes_read.sum",
// "lts__t_sector_hit_rate.pct"), so one formula reads the same counter on every NVIDIA backend.
#ifndef OPENGPA_NVIDIA_PERFWORKS_METRICS_H_
#define OPENGPA_NVIDIA_PERFWORKS_METRICS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "nvidia/perfworks_library.h"

namespace opengpa::nvidia::perfworks {

struct MetricDescription {
  std::string name;         // with its rollup: "sm__threads_launched_shader_ps_killmask_off.sum"
  std::string description;  // PerfWorks' text for the base metric
  std::string hw_unit;      // "sm", "dram", "raster", ...
  MetricType type = kMetricCounter;
};

// One sampler pass: the raw-metrics configuration image and the counter-data prefix for its metrics.
struct PassConfig {
  std::vector<std::size_t> metrics;  // indices into the planned list
  std::vector<std::uint8_t> config_image;
  std::vector<std::uint8_t> counter_data_prefix;
};

class PassBuilder;  // a raw-metrics configuration being filled (perfworks_metrics.cc)

class ChipMetrics {
 public:
  // An evaluator for `chip` ("GH100"); *why says what failed. `availability` is a device's counter
  // availability image (GetCounterAvailability), or empty offline.
  static std::unique_ptr<ChipMetrics> Create(const PerfWorksLibrary& library, const std::string& chip,
                                             std::vector<std::uint8_t> availability, std::string* why);
  ~ChipMetrics();
  ChipMetrics(const ChipMetrics&) = delete;
  ChipMetrics& operator=(const ChipMetrics&) = delete;

  const std::string& Chip() const { return chip_; }
  // Every counter with .sum/.avg/.min/.max, every ratio with .pct/.ratio and every throughput with
  // .avg.pct_of_peak_sustained_elapsed, in PerfWorks' order.
  std::vector<MetricDescription> ListMetrics() const;
  // Whether `name` (with rollup) is a metric of the chip that one sampler pass can collect by itself.
  bool IsSampleable(std::string_view name) const;
  // Splits `names` into the fewest passes first fit finds, each collectable in one sampler pass. A name that
  // is unknown or fits no pass by itself is refused (kGpaStatusErrorCounterNotFound / kGpaStatusErrorFailed,
  // logged with the name).
  GpaStatus PlanPasses(const std::vector<std::string>& names, std::vector<PassConfig>* passes) const;
  // Takes the device's own attributes (unit counts, clock ratios) from counter data its sampler wrote, before
  // that data is evaluated.
  GpaStatus UseDeviceOf(const std::vector<std::uint8_t>& counter_data) const;
  // The values of `names` (all of one pass) in sample `range` of `counter_data`, written by the sampler.
  GpaStatus Evaluate(const std::vector<std::string>& names, const std::vector<std::uint8_t>& counter_data,
                     std::size_t range, std::vector<double>* values) const;

 private:
  ChipMetrics(const PerfWorksLibrary& library, std::string chip);
  bool Request(std::string_view name, MetricEvalRequest* request) const;
  bool RawDependencies(const MetricEvalRequest& request, std::vector<const char*>* names) const;
  GpaStatus BuildPass(const std::vector<std::vector<const char*>>& dependencies, PassConfig* pass) const;

  const PerfWorksLibrary& library_;
  std::string chip_;
  std::vector<std::uint8_t> availability_;
  std::vector<std::uint8_t> scratch_;
  MetricsEvaluator* evaluator_ = nullptr;
  mutable std::unique_ptr<PassBuilder> empty_pass_;  // asked whether one metric fits a pass by itself
};

}  // namespace opengpa::nvidia::perfworks

#endif  // OPENGPA_NVIDIA_PERFWORKS_METRICS_H_
