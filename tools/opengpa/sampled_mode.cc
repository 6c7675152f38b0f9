#include "sampled_mode.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "profiler/sampled_profile.h"

#ifdef OPENGPA_CLI_SAMPLED_MODE
#include "profiler/pm_recording.h"
#endif

namespace opengpa::cli {

const std::vector<std::string>& DefaultSampledMetrics() {
  static const std::vector<std::string> metrics = {"dram__bytes_read.sum", "dram__bytes_write.sum"};
  return metrics;
}

#ifdef OPENGPA_CLI_SAMPLED_MODE
namespace {

double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// OPENGPA_PM_SAMPLES_CSV=FILE: what the attribution starts from, for studying it away from the GPU: every PM sample
// ("sample", its GPU, span and values in the metrics' order) and every copy and memset ("memcpy", "memset", its
// queue and span); the launches' spans are in the profile's own rows.
void WriteRawSamples(const char* path, const std::vector<profiling::GpuSampleSeries>& series,
                     const profiling::ProfileRun& run) {
  std::FILE* file = std::fopen(path, "w");
  if (file == nullptr) {
    std::fprintf(stderr, "opengpa profile: OPENGPA_PM_SAMPLES_CSV: cannot write %s\n", path);
    return;
  }
  std::fprintf(file, "kind,gpu_or_queue,start_ns,end_ns,values\n");
  for (const profiling::GpuSampleSeries& gpu : series) {
    const auto& spans = gpu.samples.spans;
    const std::size_t metrics = spans.empty() ? 0 : gpu.samples.values.size() / spans.size();
    for (std::size_t i = 0; i < spans.size(); ++i) {
      std::fprintf(file, "sample,%d,%llu,%llu", gpu.gpu.index, static_cast<unsigned long long>(spans[i].start_ns),
                   static_cast<unsigned long long>(spans[i].end_ns));
      for (std::size_t m = 0; m < metrics; ++m) std::fprintf(file, ",%.17g", gpu.samples.values[i * metrics + m]);
      std::fputc('\n', file);
    }
  }
  for (const profiling::OtherWork& work : run.other_work) {
    std::fprintf(file, "%s,%u,%llu,%llu\n", work.kind.c_str(), work.queue,
                 static_cast<unsigned long long>(work.start_ns), static_cast<unsigned long long>(work.end_ns));
  }
  std::fclose(file);
}

class PmSampledRecording final : public SampledRecording {
 public:
  PmSampledRecording(std::unique_ptr<profiling::PmRecording> recording, double start_seconds)
      : recording_(std::move(recording)), cpu_at_start_(CpuSeconds()), start_seconds_(start_seconds) {}

  bool Stop(std::string* error) override {
    std::lock_guard<std::mutex> lock(stopping_);
    if (!stop_seconds_) {
      const auto stop_begin = std::chrono::steady_clock::now();
      stopped_ = recording_->Stop(&stop_error_);
      stop_seconds_ = SecondsSince(stop_begin);
      cpu_while_sampling_ = CpuSeconds() - cpu_at_start_;
    }
    if (!stopped_) *error = stop_error_;
    return stopped_;
  }

  bool Finish(profiling::ProfileRun* run, double stream_read_seconds, bool while_program_exits,
              std::vector<std::string>* notes, std::string* error) override {
    const bool stopped = Stop(error);
    const double cpu = cpu_while_sampling_;
    std::vector<profiling::GpuSampleSeries> series;
    for (const profiling::RecordedGpu& gpu : recording_->Gpus()) series.push_back(gpu.series);
    for (const std::string& note : recording_->CoverageNotes()) notes->push_back(note);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    char cost[256];
    std::snprintf(cost, sizeof cost, "the profiler's own cost: %.2f s of CPU while sampling, %.0f MiB peak memory", cpu,
                  static_cast<double>(usage.ru_maxrss) / 1024.0);
    notes->push_back(cost);
    const char* raw = std::getenv("OPENGPA_PM_SAMPLES_CSV");
    if (raw != nullptr && *raw != '\0') WriteRawSamples(raw, series, *run);
    const auto attribution_begin = std::chrono::steady_clock::now();
    profiling::AttributeSampledRun(series, recording_->Columns(), recording_->Kinds(), recording_->interval_ns(), run);
    // What the mode adds to the program's own time outside it: the set-up before the program starts; the drain, the
    // reading and the attribution while it exits or after it (the outputs are written after this).
    char phases[384];
    std::snprintf(phases, sizeof phases,
                  "the profiler's own time around the program: PM sampling set up in %.3f s while it started (its "
                  "processes wait at their CUDA start until then); stopped and drained in %.3f s, its launches read "
                  "in %.3f s and the samples attributed in %.3f s %s",
                  start_seconds_, *stop_seconds_, stream_read_seconds, SecondsSince(attribution_begin),
                  while_program_exits ? "while it exited" : "after it");
    notes->push_back(phases);
    return stopped;
  }

 private:
  std::unique_ptr<profiling::PmRecording> recording_;
  double cpu_at_start_;
  double start_seconds_;
  std::mutex stopping_;                 // Stop's, from the thread that stops early or from Finish
  std::optional<double> stop_seconds_;  // set by the first Stop
  bool stopped_ = false;
  std::string stop_error_;
  double cpu_while_sampling_ = 0.0;
};

}  // namespace

bool SampledRecording::Start(const std::vector<std::string>& metrics, double interval_us,
                             std::unique_ptr<SampledRecording>* recording, std::string* error) {
  profiling::PmRecordingOptions options;
  options.metrics = metrics;
  options.interval_ns = static_cast<std::uint64_t>(interval_us * 1000.0);
  std::unique_ptr<profiling::PmRecording> pm;
  const auto start_begin = std::chrono::steady_clock::now();
  if (!profiling::PmRecording::Start(options, &pm, error)) return false;
  *recording = std::make_unique<PmSampledRecording>(std::move(pm), SecondsSince(start_begin));
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

void SampledWhileExiting::Ended(const std::set<std::uint32_t>& writers) {
  writers_ = writers;
  std::string error;  // Finish says it again
  if (SampledRecording* recording = Recording()) recording->Stop(&error);
}

void SampledWhileExiting::Read(profiling::ProfileRun* run, double read_seconds) {
  SampledRecording* recording = Recording();
  if (recording == nullptr) return;
  finished_ = recording->Finish(run, read_seconds, /*while_program_exits=*/true, &notes_, &error_);
  attributed_ = true;
}

SampledRecording* SampledWhileExiting::Recording() const {
  return set_up_->load(std::memory_order_acquire) ? recording_->get() : nullptr;
}

}  // namespace opengpa::cli
