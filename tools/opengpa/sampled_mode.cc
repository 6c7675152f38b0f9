#include "sampled_mode.h"

#include <sys/resource.h>

#include <cstdio>

#include "profiler/sampled_profile.h"

#ifdef OPENGPA_CLI_SAMPLED_MODE
#include "profiler/pm_recording.h"
#endif

namespace opengpa::cli {

const std::vector<std::string>& DefaultSampledMetrics() {
  static const std::vector<std::string> metrics = {"dram__bytes_read.sum", "dram__bytes_write.sum"};
  return metrics;
}

bool CheckSampledMetrics(const std::vector<std::string>& metrics, std::string* error) {
  for (const std::string& name : metrics) {
    if (!profiling::IsPmMetricName(name)) {
      *error = "--mode sampled measures CUPTI PM sampling metrics (such as dram__bytes_read.sum); '" + name +
               "' is not one (GPA counters are measured per launch by --mode exact; `opengpa monitor "
               "--list-pm-metrics` lists the metrics)";
      return false;
    }
  }
  return true;
}

#ifdef OPENGPA_CLI_SAMPLED_MODE
namespace {

double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

class PmSampledRecording final : public SampledRecording {
 public:
  explicit PmSampledRecording(std::unique_ptr<profiling::PmRecording> recording)
      : recording_(std::move(recording)), cpu_at_start_(CpuSeconds()) {}

  bool Finish(profiling::ProfileRun* run, std::vector<std::string>* notes, std::string* error) override {
    const bool stopped = recording_->Stop(error);
    const double cpu = CpuSeconds() - cpu_at_start_;
    std::vector<profiling::GpuSampleSeries> series;
    for (const profiling::RecordedGpu& gpu : recording_->Gpus()) series.push_back(gpu.series);
    for (const std::string& note : recording_->CoverageNotes()) notes->push_back(note);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    char cost[256];
    std::snprintf(cost, sizeof cost, "the profiler's own cost: %.2f s of CPU while sampling, %.0f MiB peak memory", cpu,
                  static_cast<double>(usage.ru_maxrss) / 1024.0);
    notes->push_back(cost);
    profiling::AttributeSampledRun(series, recording_->Columns(), recording_->Kinds(), recording_->interval_ns(), run);
    return stopped;
  }

 private:
  std::unique_ptr<profiling::PmRecording> recording_;
  double cpu_at_start_;
};

}  // namespace

bool SampledRecording::Start(const std::vector<std::string>& metrics, double interval_us,
                             std::unique_ptr<SampledRecording>* recording, std::string* error) {
  profiling::PmRecordingOptions options;
  options.metrics = metrics;
  options.interval_ns = static_cast<std::uint64_t>(interval_us * 1000.0);
  std::unique_ptr<profiling::PmRecording> pm;
  if (!profiling::PmRecording::Start(options, &pm, error)) return false;
  *recording = std::make_unique<PmSampledRecording>(std::move(pm));
  return true;
}
#else
bool SampledRecording::Start(const std::vector<std::string>&, double, std::unique_ptr<SampledRecording>*,
                             std::string* error) {
  *error =
      "this opengpa was built without CUPTI PM sampling (the CUDA toolkit's cupti_pmsampling.h was not found): "
      "--mode sampled is not available";
  return false;
}
#endif

}  // namespace opengpa::cli
