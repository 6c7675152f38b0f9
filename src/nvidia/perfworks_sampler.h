// PerfWorks' GPU periodic sampler on one device: a session with its trigger sources, one sampling range per
// configuration (Start .. Stop), and the samples decoded from it. Sample k holds what the GPU counted between
// trigger k-1 (or the start) and trigger k; the device counts every process's work, so what a sample means is
// decided by whoever places the triggers (graphics_counter_source.h).
#ifndef OPENGPA_NVIDIA_PERFWORKS_SAMPLER_H_
#define OPENGPA_NVIDIA_PERFWORKS_SAMPLER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "nvidia/perfworks_metrics.h"

namespace opengpa::nvidia::perfworks {

// What one sampling range decoded to.
struct DecodedSamples {
  std::vector<std::uint8_t> counter_data;  // evaluate with ChipMetrics::Evaluate
  std::size_t samples = 0;                 // completed samples in counter_data
  std::vector<std::uint64_t> start_ns;     // per sample, on the GPU's clock
  std::vector<std::uint64_t> end_ns;
  std::size_t dropped = 0;  // samples the counter data had no room for
  std::size_t merged = 0;   // samples too close together for the hardware to separate
  bool overflow = false;    // the record buffer overflowed
};

// Facts about a device's sampler, read without starting anything.
struct SamplerSupport {
  bool supported = false;
  std::vector<std::uint32_t> trigger_sources;
  std::string device_name;                 // PerfWorks' names
  std::string chip;                        // "GH100"
  std::vector<std::uint8_t> availability;  // counter availability image; empty if another session holds it
  std::string why;                         // why not supported, or why availability is empty
  bool HasTrigger(TriggerSource source) const;
};

SamplerSupport QuerySamplerSupport(const PerfWorksLibrary& library, std::size_t device_index);

class PeriodicSampler {
 public:
  // Begins a session on `device_index` with `triggers` (and `interval_ns` for kTriggerGpuTimeInterval), sized for
  // the largest of `passes`' configurations and `max_samples` samples per range. Fails (logged, with PerfWorks'
  // status) when another profiler or sampler holds the device.
  static GpaStatus Begin(const PerfWorksLibrary& library, std::size_t device_index,
                         const std::vector<std::uint32_t>& triggers, std::uint64_t interval_ns,
                         const std::vector<PassConfig>& passes, std::uint32_t max_samples,
                         std::unique_ptr<PeriodicSampler>* out);
  ~PeriodicSampler();  // stops sampling and ends the session
  PeriodicSampler(const PeriodicSampler&) = delete;
  PeriodicSampler& operator=(const PeriodicSampler&) = delete;

  std::size_t device_index() const { return device_index_; }
  bool sampling() const { return sampling_; }
  // Whether this session can sample `passes` with these triggers and up to `max_samples` samples a range without
  // beginning another: the same triggers and interval, and a record buffer at least as large as they need.
  bool Fits(const std::vector<std::uint32_t>& triggers, std::uint64_t interval_ns,
            const std::vector<PassConfig>& passes, std::uint32_t max_samples) const;

  // Sets `pass`'s configuration and starts a sampling range.
  GpaStatus Start(const PassConfig& pass);
  GpaStatus CpuTrigger();
  // Stops the range and decodes it into counter data with room for `expected_samples` samples (0: the session's
  // maximum). The counter data is made here, not at Start: it is only written by the decode, and sized for the
  // session's maximum it is hundreds of megabytes (702 MB for 65,536 samples of a 3-metric configuration on
  // GH100, 0.6 s to make), which a pass of a few samples does not need.
  GpaStatus Stop(DecodedSamples* out, std::size_t expected_samples = 0);

 private:
  PeriodicSampler(const PerfWorksLibrary& library, std::size_t device_index, std::uint32_t max_samples)
      : library_(library), device_index_(device_index), max_samples_(max_samples) {}
  // Counter data of the configuration being sampled, with room for `samples` samples.
  GpaStatus MakeCounterData(std::uint32_t samples, std::vector<std::uint8_t>* image) const;

  // The record buffer that holds `max_samples` undecoded samples of the largest of `passes`' configurations.
  static GpaStatus RecordBufferSize(const PerfWorksLibrary& library, std::size_t device_index,
                                    const std::vector<PassConfig>& passes, std::uint32_t max_samples,
                                    std::size_t* size);

  const PerfWorksLibrary& library_;
  std::size_t device_index_;
  std::uint32_t max_samples_;
  std::vector<std::uint32_t> triggers_;
  std::uint64_t interval_ns_ = 0;
  std::size_t record_buffer_size_ = 0;
  bool in_session_ = false;
  bool sampling_ = false;
  std::vector<std::uint8_t> counter_data_prefix_;  // of the configuration being sampled
};

}  // namespace opengpa::nvidia::perfworks

#endif  // OPENGPA_NVIDIA_PERFWORKS_SAMPLER_H_
