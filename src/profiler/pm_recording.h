// The CLI's side of `opengpa profile --mode sampled`: CUPTI PM sampling on every GPU the CLI sees, device-wide,
// for as long as the program runs, at the interval asked, each GPU through its own nvidia::PmSamplingPipeline. What it
// returns is what sampled_attribution.h shares out among the launches. Only compiled with OPENGPA_WITH_PM_SAMPLING.
#ifndef OPENGPA_PROFILER_PM_RECORDING_H_
#define OPENGPA_PROFILER_PM_RECORDING_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nvidia/pm_sampler.h"
#include "profiler/profile_run.h"
#include "profiler/sampled_attribution.h"
#include "profiler/sampled_profile.h"

namespace opengpa::profiling {

struct PmRecordingOptions {
  std::vector<std::string> metrics;  // CUPTI metrics that fit one PM sampling pass
  std::uint64_t interval_ns = 20'000;
  // Records wait here between decodes. At 5 µs one DRAM metric kept every record with 256 MiB and a 25 ms
  // decode period on the H100 (docs/cli.md, "--mode sampled"); a set with larger records is decoded more often
  // (nvidia::kPmLargestImage).
  std::size_t hardware_buffer_bytes = std::size_t{256} << 20;
  std::chrono::nanoseconds decode_period = std::chrono::milliseconds(25);
  // Where libcupti is looked for; empty: nvidia::cupti::DefaultCuptiCandidates(). A process that already loaded
  // one (Python's in-process session) names that file, so that one CUPTI serves the process.
  std::vector<std::string> cupti_candidates;
};

// What one GPU gave.
struct RecordedGpu {
  GpuSampleSeries series;  // gpu.index: the CLI's CUDA ordinal
  std::string name;
  nvidia::PmSamplingLosses losses;
  nvidia::PmSamplingCosts costs;
  std::chrono::nanoseconds decode_period{0};  // as the sampler chose it (nvidia::PmSampler::decode_period)
};

class PmRecording {
 public:
  // Loads CUPTI and the driver, configures and starts every GPU. False and *error (a sentence naming the GPU and
  // CUPTI's answer) when any cannot sample: nothing is started then.
  static bool Start(const PmRecordingOptions& options, std::unique_ptr<PmRecording>* recording, std::string* error);
  ~PmRecording();
  PmRecording(const PmRecording&) = delete;
  PmRecording& operator=(const PmRecording&) = delete;

  // Stops every GPU, drains what is left and releases the samplers and CUPTI's session (the counters are free for
  // another user then). Once: a second call has nothing left to stop. False and *error when a GPU could not stop or
  // decode; what was decoded is kept.
  bool Stop(std::string* error);

  const std::vector<RecordedGpu>& Gpus() const { return gpus_; }
  // One column per metric (name, unit as CUPTI says it) and how its values add up.
  const std::vector<ProfiledCounter>& Columns() const { return columns_; }
  const std::vector<MetricKind>& Kinds() const { return kinds_; }
  std::uint64_t interval_ns() const { return options_.interval_ns; }
  // After Stop, one line per GPU: the samples, the time they covered of the time sampled, what was lost, and the
  // CPU time decoding and evaluating took.
  std::vector<std::string> CoverageNotes() const;

 private:
  struct Device;
  explicit PmRecording(PmRecordingOptions options);

  PmRecordingOptions options_;
  struct Libraries;
  std::unique_ptr<Libraries> libraries_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<RecordedGpu> gpus_;
  std::vector<ProfiledCounter> columns_;
  std::vector<MetricKind> kinds_;
};

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_PM_RECORDING_H_
