// CUPTI PM sampling on one GPU: the enabled CUPTI sampler object, its config image, and the counter-data image
// its records decode into, turned into samples (a GPU-clock span and one value per metric). One implementation for
// both users: the monitor (`opengpa monitor`, one sampler per GPU, device-wide, for as long as it runs) and the
// CUDA backend's streaming sessions (GPA's kGpaSessionSampleTypeStreamingCounter, GPA 4's GpaSpm*). Only compiled
// with OPENGPA_WITH_PM_SAMPLING.
#ifndef OPENGPA_NVIDIA_PM_SAMPLER_H_
#define OPENGPA_NVIDIA_PM_SAMPLER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "nvidia/cuda_driver.h"
#include "nvidia/cupti_pm_library.h"
#include "nvidia/pm_host_object.h"

namespace opengpa::nvidia {

// How often records are decoded while sampling. Measured on the H100 (docs/realtime.md): each decode costs the
// SM-unit counts of one sample (so not much more often), and the hardware buffer holds far fewer records than
// its size suggests (a 1 s backlog of 1 ms records overflowed 64 MiB and made DecodeData fail), so not much
// less often either.
inline constexpr std::chrono::nanoseconds kPmDecodePeriod = std::chrono::milliseconds(100);

// The smallest hardware buffer that kept every 1 ms record of nine metrics with kPmDecodePeriod (docs/realtime.md).
inline constexpr size_t kPmMinimumHardwareBuffer = size_t{4} << 20;

// The largest counter-data image a decode fills. An image holds two decode periods of records, and a record of
// the SOL set takes 85 KiB of it: on the H200, decoding into images of 30 and 43 MiB fell behind, losing 2-40 % of
// the time, and the cost of a decode per record grew with the image (two DRAM metrics at 5 µs: 3.8 µs a record
// into 12 MiB images, 5.3 µs into 30 MiB ones). Two DRAM metrics at 5 µs kept every record with 12 MiB images
// and lost 13-49 % with 16 MiB ones (docs/validation.md row 76), so a set with large records is decoded more often.
inline constexpr size_t kPmLargestImage = size_t{12} << 20;
// Decoding more often than this costs more in fixed per-call work and in disturbed SM counts than it saves.
inline constexpr std::chrono::nanoseconds kPmShortestDecodePeriod = std::chrono::milliseconds(2);

struct PmSamplerOptions {
  uint64_t interval_ns = 1'000'000;                 // the hardware sampling interval (GPU time)
  size_t hardware_buffer_bytes = size_t{64} << 20;  // where records wait for a decode; >= kPmMinimumHardwareBuffer
  // How often the caller would decode while sampling: sizes the counter-data image so that one decode call holds
  // what arrived in one period (two, for a late one). Shortened, down to kPmShortestDecodePeriod, where that image
  // would exceed largest_image_bytes; PmSampler::decode_period() says what was chosen.
  std::chrono::nanoseconds decode_period = kPmDecodePeriod;
  size_t largest_image_bytes = kPmLargestImage;
};

// Samples a counter-data image makes room for when decoded every `period` at `interval_ns`: two periods' worth and
// a margin, within CUPTI's limits.
uint32_t PmSamplesPerImage(std::chrono::nanoseconds period, uint64_t interval_ns);
// The decode period an image of at most `largest_image_bytes` allows (pure: tested without a GPU), given what an
// image costs: `fixed_bytes` plus `bytes_per_sample` a sample. `wanted` when its image fits; otherwise the longest
// period whose image does, not below kPmShortestDecodePeriod.
std::chrono::nanoseconds PmDecodePeriodForImage(std::chrono::nanoseconds wanted, uint64_t interval_ns,
                                                size_t fixed_bytes, size_t bytes_per_sample,
                                                size_t largest_image_bytes);

// Decoded samples: times[i] is sample i's span on CUPTI's GPU clock (ns), values[i * metric count + m] its value of
// metric m (an amount over the span for counters, a reading for ratios and rates).
struct PmSampleTime {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};
struct PmSamples {
  std::vector<PmSampleTime> times;
  std::vector<double> values;
};

// A hole between consecutive samples: where it began (CUPTI's clock, ns after Start) and how long it was.
struct PmGap {
  uint64_t at_ns = 0;
  uint64_t length_ns = 0;
};

// What was lost, counted over one Start..Stop (each kind is logged once when it first happens).
struct PmSamplingLosses {
  static constexpr size_t kGapsKept = 8;
  uint64_t gaps = 0;              // holes between consecutive samples (the buffer wrapped before a decode)
  uint64_t gap_ns = 0;            // their total length
  std::vector<PmGap> first_gaps;  // the first kGapsKept holes: whether they come early, late or evenly says why
  uint64_t overflows = 0;         // decodes that reported an overflowed hardware buffer
  uint64_t decode_failures = 0;
  uint64_t malformed = 0;   // samples that ended before they began (skipped)
  uint64_t sampled_ns = 0;  // Start to Stop
  uint64_t covered_ns = 0;  // what the decoded samples cover
};

// What decoding cost this process, over one Start..Stop: the profiler reports it as its own overhead, and it
// says whether a fine interval can be kept up with (each record must be decoded and evaluated in less host
// time than the interval it covers).
struct PmSamplingCosts {
  uint64_t decode_calls = 0;
  uint64_t decode_ns = 0;  // inside cuptiPmSamplingDecodeData
  uint64_t longest_decode_ns = 0;
  uint64_t slow_decodes = 0;        // calls that took longer than the decode period (the buffer filled meanwhile)
  uint64_t evaluate_ns = 0;         // sample info and metric evaluation on the host
  uint64_t samples = 0;             // samples evaluated
  uint64_t image_bytes = 0;         // one counter-data image (sized for two decode periods of samples)
  uint64_t prepare_ns = 0;          // readying images on the decoding thread (allocation and CUPTI's initialisation)
  uint64_t ready_elsewhere_ns = 0;  // readying images off the decoding thread (ReadyImage)
};

// What the sampler makes of one decoded record's span (pure: tested without a GPU). kBeforeStart: it began before
// Start (not this session's); kMalformed: it ends before it begins (counted in losses->malformed, skipped);
// kKept: a sample, its span added to losses->covered_ns; kKeptAfterHole: the same, after a hole since *last_end_ns
// (more than half an interval) that was counted as lost. *last_end_ns is the end of the last kept record (0
// before the first).
enum class PmSpanVerdict { kBeforeStart, kMalformed, kKept, kKeptAfterHole };
PmSpanVerdict AccountPmSpan(PmSampleTime span, uint64_t start_ns, uint64_t interval_ns, uint64_t* last_end_ns,
                            PmSamplingLosses* losses);

// The shortest interval of 1, 2 or 5 times a power of ten (ns) that this host kept up with, judged by what a record
// cost it to decode and, on another thread, to evaluate: the slower of the two must take at most kPmHostShare of the
// interval. On the H200's hosts two DRAM metrics at 5 µs were kept where decoding took 3.5 µs a record (70 %) and
// lost 7 % and 22-34 % where it took 4.4 and 6.0 µs (docs/validation.md row 77). 0 when nothing was evaluated.
inline constexpr double kPmHostShare = 0.7;
uint64_t PmIntervalThisHostKeepsUpWith(const PmSamplingCosts& costs);

// One line for a log or a profile's notes: what `losses` and `costs` say of one Start..Stop on `label`, e.g.
// "PM sampling on GPU 0: 801,234 samples of 5.0 µs cover 4006.2 of 4010.0 ms (2 gaps, 3.1 ms lost, at 1.20 s
// +1.9 ms, 3.41 s +1.2 ms; 0 overflows); decoding 2.10 s of CPU in 160 calls (longest 31.0 ms, 3 slower than
// the 25 ms period), evaluating 1.36 s"; where time was lost, the interval this host keeps up with
// (PmIntervalThisHostKeepsUpWith).
std::string DescribePmSampling(const std::string& label, uint64_t interval_ns, const PmSamplingLosses& losses,
                               const PmSamplingCosts& costs, std::chrono::nanoseconds decode_period);

// The shortest interval at which the samples a decode disturbs were found (docs/realtime.md): with FMA work on every
// SM, one sample per decode read SM-idle (sm__cycles_active.avg and sm__inst_executed.sum under half the median): at
// 100 µs the sample in flight when the decode call began (31 %) or the one after it (69 %), at 1 ms the one in
// flight (41 of 42). At 10 and 20 µs no sample near a decode's start stood out.
inline constexpr uint64_t kPmDisturbanceKnownInterval = 100'000;

// Per sample (times in order), 1 when a decode call that began at one of `decode_starts_ns` (in order) may have
// zeroed its SM-unit counts: the sample in flight at the call's start and the one after it; none below
// kPmDisturbanceKnownInterval, where the disturbed sample is not known. Pure: tested without a GPU.
std::vector<uint8_t> PmDecodeDisturbedSamples(const std::vector<PmSampleTime>& times,
                                              const std::vector<uint64_t>& decode_starts_ns, uint64_t interval_ns);

class PmSampler {
 public:
  // `ordinal`: the CUDA device. `label` names it in log messages ("GPU 0"). `context`: a CUDA context of the
  // device that the caller owns (a GPA context's), made current on whichever thread calls; nullptr to enable
  // without one, falling back to the device's primary context if the driver insists (the monitor's way).
  PmSampler(const cupti::CuptiLibrary& cupti, const CudaDriver& cuda, int ordinal, std::string label,
            CUcontext context = nullptr);
  ~PmSampler();
  PmSampler(const PmSampler&) = delete;
  PmSampler& operator=(const PmSampler&) = delete;

  // Checks the GPU, builds the config image of `metrics` (one pass) and enables sampling on it.
  [[nodiscard]] GpaStatus Configure(const PmSamplerOptions& options, const std::vector<std::string>& metrics);
  [[nodiscard]] GpaStatus Start();
  // Stops and drains what is left into `samples`; logs when the samples cover less than 90 % of the time sampled.
  [[nodiscard]] GpaStatus Stop(PmSamples* samples);
  // Decodes records from the hardware buffer; `drain` empties it (after Stop).
  [[nodiscard]] GpaStatus Decode(PmSamples* samples, bool drain);
  // Decode in two halves, for callers that evaluate on another thread so that the decoding thread keeps up with
  // a fine interval: DecodeImages moves what the hardware buffer holds into counter-data images (appended to
  // `images`) without evaluating; EvaluateImage turns one into samples. Images must be evaluated in the order they
  // were decoded, by one thread at a time; Stop evaluates its own drain, so evaluate every earlier image first.
  [[nodiscard]] GpaStatus DecodeImages(std::vector<std::vector<uint8_t>>* images, bool drain);
  [[nodiscard]] GpaStatus EvaluateImage(const std::vector<uint8_t>& image, PmSamples* samples);
  // Readies an evaluated image for a later decode to fill (CUPTI's initialisation) and keeps it until one takes
  // it, so that the decoding thread neither allocates nor initialises images: an image holds two decode periods
  // of records, and readying one cost the decoding thread as much as decoding (the SOL set at 100 µs: 43 MiB
  // images, 35 ms each, docs/validation.md row 76). One thread at a time.
  [[nodiscard]] GpaStatus ReadyImage(std::vector<uint8_t> image);

  const PmHostObject& Host() const { return *host_; }
  size_t MetricCount() const { return metric_names_.size(); }
  uint64_t interval_ns() const { return interval_ns_; }
  // How often to decode: the options' period, or a shorter one that keeps the image within its limit.
  std::chrono::nanoseconds decode_period() const { return decode_period_; }
  // CUPTI's clock at Start, and CUPTI's clock -> Unix epoch (ns) measured then.
  uint64_t start_ns() const { return start_cupti_ns_; }
  int64_t epoch_offset_ns() const { return epoch_offset_ns_; }
  const PmSamplingLosses& Losses() const { return losses_; }
  const PmSamplingCosts& Costs() const { return costs_; }
  // When each decode call of the last Start..Stop began, on CUPTI's clock (the first kDecodeStartsKept: 35 minutes
  // at the shortest decode period): a decode zeroes the SM-unit counts of a sample near it (docs/realtime.md), so
  // these say which samples to distrust (PmDecodeDisturbedSamples).
  static constexpr size_t kDecodeStartsKept = size_t{1} << 20;
  const std::vector<uint64_t>& DecodeStarts() const { return decode_starts_; }
  // DescribePmSampling of the last Start..Stop, labelled as this sampler's GPU.
  std::string Describe() const;

 private:
  void MakeContextCurrent();
  [[nodiscard]] GpaStatus CounterAvailability(std::vector<uint8_t>* image);
  [[nodiscard]] GpaStatus Enable();
  [[nodiscard]] GpaStatus InitializeImage(std::vector<uint8_t>* image) const;
  [[nodiscard]] GpaStatus CounterDataSize(uint32_t max_samples, size_t* bytes) const;
  // An image ReadyImage readied, or a fresh one initialised here; empty when initialisation failed.
  std::vector<uint8_t> ImageForNextDecode(size_t size);
  size_t CompletedSamples(const std::vector<uint8_t>& image) const;
  [[nodiscard]] GpaStatus Evaluate(const std::vector<uint8_t>& image, PmSamples* samples, size_t* completed);

  const cupti::CuptiLibrary& cupti_;
  const CudaDriver& cuda_;
  int ordinal_;
  std::string label_;
  CUcontext context_;  // the caller's, or the primary context retained by Enable
  bool retained_primary_ = false;
  CUdevice device_ = 0;
  std::unique_ptr<PmHostObject> host_;
  CUpti_PmSampling_Object* sampler_ = nullptr;
  std::vector<uint8_t> config_;
  std::vector<uint8_t> counter_data_;
  std::mutex ready_mutex_;
  std::vector<std::vector<uint8_t>> ready_images_;  // initialised, for the next decodes
  std::vector<std::string> metrics_;
  std::vector<const char*> metric_names_;  // point into metrics_
  std::vector<double> values_;
  bool started_ = false;
  int64_t epoch_offset_ns_ = 0;
  uint64_t start_cupti_ns_ = 0;
  uint64_t interval_ns_ = 0;
  std::chrono::nanoseconds decode_period_ = kPmDecodePeriod;
  uint64_t last_end_ns_ = 0;
  PmSamplingLosses losses_;
  PmSamplingCosts costs_;
  std::vector<uint64_t> decode_starts_;
};

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_PM_SAMPLER_H_
