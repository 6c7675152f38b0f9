#include "backends/cuda/streaming/cuda_streaming_session.h"

#include <algorithm>
#include <chrono>

#include "backends/cuda/cuda_streaming.h"
#include "nvidia/cupti_pm_library.h"
#include "nvidia/cupti_profiler_session.h"
#include "nvidia/pm_host_object.h"
#include "platform/logging.h"
#include "platform/text_affixes.h"

namespace opengpa::cuda {

using nvidia::PmHostObject;
using nvidia::cupti::CuptiLibrary;

namespace {

// libcupti through the loader PM sampling uses (the same file nvidia/cupti_loader.h loads: dlopen finds it loaded),
// resolved once; nullptr, logged, when it lacks PM sampling (CUPTI before 13).
const CuptiLibrary* PmCupti() {
  static const std::unique_ptr<CuptiLibrary> library = [] {
    std::unique_ptr<CuptiLibrary> loaded;
    // A failure is logged and leaves `loaded` empty: every caller then reports that CUPTI has no PM sampling.
    static_cast<void>(CuptiLibrary::Load(nvidia::cupti::DefaultCuptiCandidates(), &loaded));
    return loaded;
  }();
  return library.get();
}

}  // namespace

bool ChipStreams(const std::string& chip) {
  // GPU_TIME_INTERVAL triggers exist from GA10x on (compute capability 8.6); Turing, Volta, Pascal and GA100 lack them.
  if (chip.empty() || StartsWith(chip, "TU") || StartsWith(chip, "GV") || StartsWith(chip, "GP") || chip == "GA100") {
    return false;
  }
  return true;
}

GpaStatus CheckStreamableMetrics(const std::string& chip, const std::vector<std::string>& metrics) {
  const CuptiLibrary* cupti = PmCupti();
  if (cupti == nullptr) {
    return LogError(kGpaStatusErrorIncompatibleSampleTypes, "CUDA streaming: libcupti offers no PM sampling");
  }
  std::unique_ptr<PmHostObject> host;
  if (PmHostObject::Create(*cupti, chip, {}, &host) != kGpaStatusOk) {
    return LogError(kGpaStatusErrorIncompatibleSampleTypes, "CUDA streaming: chip {} has no PM sampling", chip);
  }
  for (const std::string& metric : metrics) {
    nvidia::PmMetricProperties properties;
    if (host->Describe(metric, &properties) != kGpaStatusOk) {
      return LogError(kGpaStatusErrorIncompatibleSampleTypes,
                      "CUDA streaming: {} is not a PM sampling metric on {}, so it cannot be streamed", metric, chip);
    }
  }
  std::vector<uint8_t> image;
  if (GpaStatus status = host->BuildConfigImage(metrics, &image); status != kGpaStatusOk) {
    return LogError(status == kGpaStatusErrorNotEnoughPasses ? kGpaStatusErrorNotEnabled : status,
                    "CUDA streaming: {} metrics do not fit the one pass PM sampling collects on {}", metrics.size(),
                    chip);
  }
  return kGpaStatusOk;
}

GpaStatus CreateStreamingSession(const nvidia::CudaDriver& driver, CUcontext context, CUdevice device,
                                 std::vector<std::string> metrics, std::unique_ptr<BackendSession>* out) {
  const CuptiLibrary* cupti = PmCupti();
  if (cupti == nullptr) {
    return LogError(kGpaStatusErrorIncompatibleSampleTypes, "CUDA streaming: libcupti offers no PM sampling");
  }
  // Whether each metric adds up over time, from CUPTI's host tables (no GPU needed).
  std::unique_ptr<PmHostObject> host;
  std::vector<bool> accumulates(metrics.size(), true);
  std::string chip;
  if (nvidia::cupti::ChipName(*cupti, static_cast<int>(device), &chip) == kGpaStatusOk &&
      PmHostObject::Create(*cupti, chip, {}, &host) == kGpaStatusOk) {
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      nvidia::PmMetricProperties properties;
      if (host->Describe(metrics[m], &properties) == kGpaStatusOk) accumulates[m] = properties.accumulates;
    }
  }
  *out = std::make_unique<CudaStreamingSession>(*cupti, driver, context, device, std::move(metrics),
                                                std::move(accumulates));
  return kGpaStatusOk;
}

std::size_t DefaultHardwareBufferBytes(std::uint64_t interval_ns, std::uint64_t duration_ns) {
  constexpr std::uint64_t kRecordBytes = 64 << 10;
  constexpr std::uint64_t kMinimum = std::uint64_t{64} << 20;
  constexpr std::uint64_t kMaximum = std::uint64_t{1} << 30;
  std::uint64_t window = 2 * static_cast<std::uint64_t>(nvidia::kPmDecodePeriod.count());
  if (duration_ns != 0) window = std::min(window, duration_ns);
  const std::uint64_t records = window / std::max<std::uint64_t>(interval_ns, 1) + 1;
  return static_cast<std::size_t>(std::clamp(records * kRecordBytes, kMinimum, kMaximum));
}

std::uint64_t LostSamples(const nvidia::PmSamplingLosses& losses, std::uint64_t interval_ns) {
  if (interval_ns == 0) return 0;
  return (losses.gap_ns + interval_ns / 2) / interval_ns;
}

CudaStreamingSession::CudaStreamingSession(const CuptiLibrary& cupti, const nvidia::CudaDriver& driver,
                                           CUcontext context, CUdevice device, std::vector<std::string> metrics,
                                           std::vector<bool> accumulates)
    : cupti_(cupti),
      driver_(driver),
      context_(context),
      device_(device),
      metrics_(std::move(metrics)),
      accumulates_(std::move(accumulates)) {}

CudaStreamingSession::~CudaStreamingSession() {
  StopDecodeThread();
  sampler_.reset();  // stops and disables PM sampling if still running (an aborted session)
}

GpaStatus CudaStreamingSession::StartStreaming(const StreamingOptions& options) {
  if (options.interval_ns < kMinimumStreamingIntervalNs) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "CUDA streaming: an interval of {} ns is below the {} ns PM sampling keeps its records at",
                    options.interval_ns, kMinimumStreamingIntervalNs);
  }
  nvidia::PmSamplerOptions sampler_options;
  sampler_options.interval_ns = options.interval_ns;
  sampler_options.hardware_buffer_bytes = options.hardware_buffer_bytes != 0
                                              ? static_cast<std::size_t>(options.hardware_buffer_bytes)
                                              : DefaultHardwareBufferBytes(options.interval_ns, options.duration_ns);
  if (sampler_options.hardware_buffer_bytes < nvidia::kPmMinimumHardwareBuffer) {
    return LogError(kGpaStatusErrorInvalidParameter, "CUDA streaming: a hardware buffer of {} bytes is below {} MiB",
                    sampler_options.hardware_buffer_bytes, nvidia::kPmMinimumHardwareBuffer >> 20);
  }
  nvidia::ScopedCurrentContext current(driver_, context_);
  auto sampler = std::make_unique<nvidia::PmSampler>(cupti_, driver_, static_cast<int>(device_),
                                                     "CUDA device " + std::to_string(device_), context_);
  if (GpaStatus status = sampler->Configure(sampler_options, metrics_); status != kGpaStatusOk) return status;
  if (GpaStatus status = sampler->Start(); status != kGpaStatusOk) return status;
  sampler_ = std::move(sampler);
  streaming_ = true;
  Log(kGpaLoggingMessage, "CUDA streaming: {} metrics every {} ns, hardware buffer {} MiB", metrics_.size(),
      options.interval_ns, sampler_options.hardware_buffer_bytes >> 20);
  stop_decoding_ = false;
  decoder_ = std::thread([this] { DecodeLoop(); });
  // Past the first record boundary (at most one interval after the start; two for safety), so that the
  // caller's work lands in records that are kept.
  std::this_thread::sleep_for(std::chrono::nanoseconds(2 * options.interval_ns));
  return kGpaStatusOk;
}

void CudaStreamingSession::DecodeLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_decoding_) {
    if (wake_.wait_for(lock, sampler_->decode_period(), [this] { return stop_decoding_; })) break;
    // A failed decode is logged by the sampler; the next period tries again, and End reports what was lost.
    static_cast<void>(sampler_->Decode(&samples_, false));
  }
}

void CudaStreamingSession::StopDecodeThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_decoding_ = true;
  }
  wake_.notify_all();
  if (decoder_.joinable()) decoder_.join();
}

GpaStatus CudaStreamingSession::StopStreaming() {
  if (!streaming_) return LogError(kGpaStatusErrorNotEnabled, "CUDA streaming: not streaming");
  nvidia::ScopedCurrentContext current(driver_, context_);
  // The span covers the work submitted before GpaSpmEnd: wait for it before stopping.
  const CUresult synced = driver_.cuCtxSynchronize();
  StopDecodeThread();
  streaming_ = false;
  std::lock_guard<std::mutex> lock(mutex_);
  const GpaStatus stopped = sampler_->Stop(&samples_);
  stop_ns_ = sampler_->start_ns() + sampler_->Losses().sampled_ns;
  if (synced != CUDA_SUCCESS) {
    return driver_.Failure(kGpaStatusErrorFailed, synced, "cuCtxSynchronize",
                           "waiting for the streamed work before stopping");
  }
  if (const std::uint64_t lost = LostSamples(sampler_->Losses(), sampler_->interval_ns()); lost > 0) {
    Log(kGpaLoggingError,
        "CUDA streaming: {} samples of {} ns were lost in {} holes of the series (the samples cover {:.3f} of {:.3f} "
        "ms); use a longer interval or a larger hardware buffer",
        lost, sampler_->interval_ns(), sampler_->Losses().gaps, sampler_->Losses().covered_ns / 1e6,
        sampler_->Losses().sampled_ns / 1e6);
  }
  return stopped;
}

GpaStatus CudaStreamingSession::ReadStreamingSeries(StreamingSeries* series) {
  if (sampler_ == nullptr || streaming_) {
    return LogError(kGpaStatusErrorSessionNotEnded, "CUDA streaming: the stream has not been stopped");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  *series = StreamingSeries{};
  for (const nvidia::PmSampleTime& when : samples_.times) {
    series->start_ns.push_back(when.start_ns);
    series->end_ns.push_back(when.end_ns);
  }
  series->values = samples_.values;
  const nvidia::PmSamplingLosses& losses = sampler_->Losses();
  series->begin_ns = sampler_->start_ns();
  series->stop_ns = stop_ns_;
  series->interval_ns = sampler_->interval_ns();
  series->lost_samples = LostSamples(losses, sampler_->interval_ns());
  series->overflows = losses.overflows;
  series->covered_ns = losses.covered_ns;
  return kGpaStatusOk;
}

GpaStatus CudaStreamingSession::ReadResults(SampleSlot slot_count, std::vector<double>* values) {
  values->assign(static_cast<std::size_t>(slot_count) * metrics_.size(), 0.0);
  if (slot_count == 0 || sampler_ == nullptr) return kGpaStatusOk;
  std::lock_guard<std::mutex> lock(mutex_);
  const std::size_t width = metrics_.size();
  double covered = 0.0;
  for (std::size_t i = 0; i < samples_.times.size(); ++i) {
    const auto span = static_cast<double>(samples_.times[i].end_ns - samples_.times[i].start_ns);
    covered += span;
    for (std::size_t m = 0; m < width; ++m) {
      const double value = samples_.values[i * width + m];
      (*values)[m] += accumulates_[m] ? value : value * span;
    }
  }
  for (std::size_t m = 0; m < width; ++m) {
    if (!accumulates_[m] && covered > 0.0) (*values)[m] /= covered;
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::cuda
