#include "nvidia/pm_sampler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "nvidia/cupti_profiler_session.h"
#include "platform/logging.h"

namespace opengpa::nvidia {

using cupti::ChipName;
using cupti::MakeParams;

namespace {

uint64_t SteadyNanoseconds() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

uint64_t RealtimeNanoseconds() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

// Appended to the log of a failed call: what to do when the driver keeps profiling to administrators.
const char* PrivilegeHint(CUptiResult result) {
  return result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
             ? " (GPU profiling is restricted to admin users; see NVreg_RestrictProfilingToAdminUsers)"
             : "";
}

}  // namespace

PmSampler::PmSampler(const cupti::CuptiLibrary& cupti, const CudaDriver& cuda, int ordinal, std::string label,
                     CUcontext context)
    : cupti_(cupti), cuda_(cuda), ordinal_(ordinal), label_(std::move(label)), context_(context) {}

PmSampler::~PmSampler() {
  MakeContextCurrent();
  if (started_) {
    auto stop = MakeParams<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
    stop.pPmSamplingObject = sampler_;
    cupti_.Api().pm_stop(&stop);
  }
  if (sampler_ != nullptr) {
    auto disable = MakeParams<CUpti_PmSampling_Disable_Params>(CUpti_PmSampling_Disable_Params_STRUCT_SIZE);
    disable.pPmSamplingObject = sampler_;
    cupti_.Api().pm_disable(&disable);
  }
  host_.reset();
  if (retained_primary_) cuda_.cuDevicePrimaryCtxRelease(device_);
}

GpaStatus PmSampler::Configure(const PmSamplerOptions& options, const std::vector<std::string>& metrics) {
  if (CUresult r = cuda_.cuDeviceGet(&device_, ordinal_); r != CUDA_SUCCESS) {
    return LogError(kGpaStatusErrorIndexOutOfRange, "CUPTI PM sampling: cuDeviceGet({}) failed: {}", ordinal_,
                    cuda_.Describe(r));
  }
  int major = 0;
  int minor = 0;
  cuda_.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_);
  cuda_.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_);
  // The fixed-time trigger exists from GA10x on; Turing and GA100 only count in variable sysclk cycles.
  if (major < 8 || (major == 8 && minor < 6)) {
    return LogError(kGpaStatusErrorHardwareNotSupported,
                    "CUPTI PM sampling: {} has compute capability {}.{}; fixed-interval PM sampling needs 8.6 or newer",
                    label_, major, minor);
  }

  std::string chip;
  if (GpaStatus status = ChipName(cupti_, ordinal_, &chip); status != kGpaStatusOk) return status;
  std::vector<uint8_t> availability;
  if (GpaStatus status = CounterAvailability(&availability); status != kGpaStatusOk) return status;
  if (GpaStatus status = PmHostObject::Create(cupti_, chip, availability, &host_); status != kGpaStatusOk) {
    return status;
  }
  if (GpaStatus status = host_->BuildConfigImage(metrics, &config_); status != kGpaStatusOk) return status;
  metrics_ = metrics;
  for (const std::string& metric : metrics_) metric_names_.push_back(metric.c_str());
  if (GpaStatus status = Enable(); status != kGpaStatusOk) return status;

  auto config = MakeParams<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
  config.pPmSamplingObject = sampler_;
  config.configSize = config_.size();
  config.pConfig = config_.data();
  config.hardwareBufferSize = options.hardware_buffer_bytes;
  config.samplingInterval = options.interval_ns;
  interval_ns_ = options.interval_ns;
  decode_period_ = options.decode_period;
  config.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
  // Keep the newest records: sampling must keep flowing even if a decode came late (the hole it leaves is
  // counted as a gap).
  config.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_LATEST;
  if (CUptiResult r = cupti_.Api().pm_set_config(&config); r != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "CUPTI PM sampling: cuptiPmSamplingSetConfig (interval {} ns, hardware buffer {} bytes) on {} "
                    "failed: {}",
                    options.interval_ns, options.hardware_buffer_bytes, label_, cupti_.Describe(r));
  }

  // Room for two decode periods' worth of samples (more takes another decode round), in an image small enough
  // to decode into in time: only an image over the limit takes a second size (to learn a record's share) and a
  // shorter period.
  const uint32_t wanted_samples = PmSamplesPerImage(options.decode_period, options.interval_ns);
  size_t image_bytes = 0;
  if (GpaStatus status = CounterDataSize(wanted_samples, &image_bytes); status != kGpaStatusOk) return status;
  decode_period_ = options.decode_period;
  constexpr uint32_t kProbeSamples = 64;
  if (wanted_samples > kProbeSamples && image_bytes > options.largest_image_bytes) {
    size_t probe_bytes = 0;
    if (GpaStatus status = CounterDataSize(kProbeSamples, &probe_bytes); status != kGpaStatusOk) return status;
    const size_t per_sample = (image_bytes - probe_bytes) / (wanted_samples - kProbeSamples);
    const size_t fixed = probe_bytes - std::min(probe_bytes, per_sample * kProbeSamples);
    decode_period_ = PmDecodePeriodForImage(options.decode_period, options.interval_ns, fixed, per_sample,
                                            options.largest_image_bytes);
    Log(kGpaLoggingMessage,
        "CUPTI PM sampling on {}: a record takes {} KiB of a decode's image; decoding every {:.1f} ms instead of "
        "{:.1f} ms keeps the image within {} MiB",
        label_, per_sample >> 10, std::chrono::duration<double, std::milli>(decode_period_).count(),
        std::chrono::duration<double, std::milli>(options.decode_period).count(), options.largest_image_bytes >> 20);
    if (GpaStatus status = CounterDataSize(PmSamplesPerImage(decode_period_, options.interval_ns), &image_bytes);
        status != kGpaStatusOk) {
      return status;
    }
  }
  counter_data_.assign(image_bytes, 0);
  return InitializeImage(&counter_data_);
}

GpaStatus PmSampler::CounterDataSize(uint32_t max_samples, size_t* bytes) const {
  auto size =
      MakeParams<CUpti_PmSampling_GetCounterDataSize_Params>(CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pPmSamplingObject = sampler_;
  size.pMetricNames = const_cast<const char**>(metric_names_.data());
  size.numMetrics = metric_names_.size();
  size.maxSamples = max_samples;
  if (CUptiResult r = cupti_.Api().pm_get_counter_data_size(&size); r != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiPmSamplingGetCounterDataSize failed: {}",
                    cupti_.Describe(r));
  }
  *bytes = size.counterDataSize;
  return kGpaStatusOk;
}

uint32_t PmSamplesPerImage(std::chrono::nanoseconds period, uint64_t interval_ns) {
  const double per_period =
      std::ceil(static_cast<double>(period.count()) / static_cast<double>(std::max<uint64_t>(interval_ns, 1)));
  return static_cast<uint32_t>(std::clamp(2.0 * per_period + 16.0, 64.0, 100000.0));
}

std::chrono::nanoseconds PmDecodePeriodForImage(std::chrono::nanoseconds wanted, uint64_t interval_ns,
                                                size_t fixed_bytes, size_t bytes_per_sample,
                                                size_t largest_image_bytes) {
  const auto image_bytes = [&](std::chrono::nanoseconds period) {
    return fixed_bytes + bytes_per_sample * PmSamplesPerImage(period, interval_ns);
  };
  if (image_bytes(wanted) <= largest_image_bytes || bytes_per_sample == 0) return wanted;
  // The samples that fit, less the margin, are two periods' worth.
  const size_t room = largest_image_bytes > fixed_bytes ? (largest_image_bytes - fixed_bytes) / bytes_per_sample : 0;
  const uint64_t per_period = room > 16 ? (room - 16) / 2 : 0;
  const std::chrono::nanoseconds fits(per_period * interval_ns);
  return std::clamp(fits, std::min(kPmShortestDecodePeriod, wanted), wanted);
}

GpaStatus PmSampler::Start() {
  MakeContextCurrent();
  // CUPTI's clock -> the Unix epoch: read both as close together as possible.
  uint64_t cupti_now = 0;
  const uint64_t before = RealtimeNanoseconds();
  cupti_.Api().get_timestamp(&cupti_now);
  const uint64_t after = RealtimeNanoseconds();
  epoch_offset_ns_ = static_cast<int64_t>(before / 2 + after / 2) - static_cast<int64_t>(cupti_now);
  start_cupti_ns_ = cupti_now;
  last_end_ns_ = 0;
  losses_ = PmSamplingLosses{};
  costs_ = PmSamplingCosts{};
  decode_starts_.clear();
  costs_.image_bytes = counter_data_.size();
  auto start = MakeParams<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
  start.pPmSamplingObject = sampler_;
  if (CUptiResult r = cupti_.Api().pm_start(&start); r != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiPmSamplingStart on {} failed: {}", label_,
                    cupti_.Describe(r));
  }
  started_ = true;
  return kGpaStatusOk;
}

GpaStatus PmSampler::Stop(PmSamples* samples) {
  MakeContextCurrent();
  if (!started_) return kGpaStatusOk;
  auto stop = MakeParams<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
  stop.pPmSamplingObject = sampler_;
  const CUptiResult r = cupti_.Api().pm_stop(&stop);
  started_ = false;
  if (r != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiPmSamplingStop on {} failed: {}", label_,
                    cupti_.Describe(r));
  }
  uint64_t stop_cupti_ns = 0;
  cupti_.Api().get_timestamp(&stop_cupti_ns);
  const GpaStatus status = Decode(samples, true);
  // Records lost inside CUPTI leave no gap between the samples that remain (seen with hardware buffers
  // below 64 MiB at 1 ms: the missing time is at the ends), so compare the time the samples cover
  // with the time that passed. (Not a sample count: at 100 us fewer samples than intervals came back
  // while the instruction totals stayed exact.)
  losses_.sampled_ns = stop_cupti_ns - start_cupti_ns_;
  const auto passed = static_cast<double>(losses_.sampled_ns);
  if (passed > 20.0 * static_cast<double>(interval_ns_) && static_cast<double>(losses_.covered_ns) < 0.9 * passed) {
    Log(kGpaLoggingError,
        "CUPTI PM sampling on {}: the decoded samples cover {:.1f} ms of the {:.1f} ms sampled; the rest were "
        "lost (use a longer interval or a larger hardware buffer)",
        label_, losses_.covered_ns / 1e6, passed / 1e6);
  }
  return status;
}

// Decodes records from the hardware buffer. While sampling runs: one DecodeData call (more only if the
// image filled up), because on the H100 (CUPTI 13.0, driver 580) every call zeroes the SM-unit
// counters of the sample in flight. After Stop nothing is in flight and `drain` empties the buffer.
// Measurements behind this: docs/realtime.md.
GpaStatus PmSampler::Decode(PmSamples* samples, bool drain) {
  std::vector<std::vector<uint8_t>> images;
  const GpaStatus decoded = DecodeImages(&images, drain);
  for (const std::vector<uint8_t>& image : images) {
    if (GpaStatus status = EvaluateImage(image, samples); status != kGpaStatusOk) return status;
  }
  return decoded;
}

GpaStatus PmSampler::DecodeImages(std::vector<std::vector<uint8_t>>* images, bool drain) {
  MakeContextCurrent();
  for (int round = 0; round < 64; ++round) {  // bounded
    auto decode = MakeParams<CUpti_PmSampling_DecodeData_Params>(CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
    decode.pPmSamplingObject = sampler_;
    decode.pCounterDataImage = counter_data_.data();
    decode.counterDataImageSize = counter_data_.size();
    uint64_t on_gpu_clock = 0;
    cupti_.Api().get_timestamp(&on_gpu_clock);
    if (decode_starts_.size() < kDecodeStartsKept) decode_starts_.push_back(on_gpu_clock);
    const uint64_t decode_start = SteadyNanoseconds();
    const CUptiResult decoded = cupti_.Api().pm_decode_data(&decode);
    const uint64_t decode_took = SteadyNanoseconds() - decode_start;
    ++costs_.decode_calls;
    costs_.decode_ns += decode_took;
    costs_.longest_decode_ns = std::max(costs_.longest_decode_ns, decode_took);
    costs_.slow_decodes += decode_took > static_cast<uint64_t>(decode_period_.count());
    if (decoded != CUPTI_SUCCESS) {
      if (losses_.decode_failures++ > 0) return kGpaStatusErrorReadingSampleResult;  // logged once
      return LogError(kGpaStatusErrorReadingSampleResult, "CUPTI PM sampling: decode on {} failed: {}", label_,
                      cupti_.Describe(decoded));
    }
    if (decode.overflow != 0 && losses_.overflows++ == 0) {
      Log(kGpaLoggingError,
          "CUPTI PM sampling: {}'s hardware buffer overflowed and older samples were overwritten; use a longer "
          "interval or a larger hardware buffer",
          label_);
    }
    // The decoded image goes to the caller; a readied one, or a fresh one, takes its place.
    const size_t image_size = counter_data_.size();
    images->push_back(std::move(counter_data_));
    counter_data_ = ImageForNextDecode(image_size);
    if (counter_data_.empty()) return kGpaStatusErrorFailed;  // logged
    // A decode can stop early: COUNTER_DATA_FULL (the image was too small; go on, the image is sized
    // for two periods so this is rare), or OTHER with records left (seen at the buffer's wrap), which
    // waits for the next period unless draining.
    if (decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS) break;
    if (decode.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL &&
        (!drain || CompletedSamples(images->back()) == 0)) {
      break;
    }
  }
  return kGpaStatusOk;
}

GpaStatus PmSampler::ReadyImage(std::vector<uint8_t> image) {
  // A few are enough: a decode takes one, and more than one only when it fell behind.
  constexpr size_t kReadyImagesKept = 4;
  const uint64_t start = SteadyNanoseconds();
  const GpaStatus initialized = InitializeImage(&image);
  costs_.ready_elsewhere_ns += SteadyNanoseconds() - start;
  if (initialized != kGpaStatusOk) return initialized;
  std::lock_guard<std::mutex> lock(ready_mutex_);
  if (ready_images_.size() < kReadyImagesKept) ready_images_.push_back(std::move(image));
  return kGpaStatusOk;
}

std::vector<uint8_t> PmSampler::ImageForNextDecode(size_t size) {
  {
    std::lock_guard<std::mutex> lock(ready_mutex_);
    if (!ready_images_.empty()) {
      std::vector<uint8_t> image = std::move(ready_images_.back());
      ready_images_.pop_back();
      return image;
    }
  }
  const uint64_t start = SteadyNanoseconds();
  std::vector<uint8_t> image(size, 0);
  if (InitializeImage(&image) != kGpaStatusOk) image.clear();
  costs_.prepare_ns += SteadyNanoseconds() - start;
  return image;
}

size_t PmSampler::CompletedSamples(const std::vector<uint8_t>& image) const {
  auto info =
      MakeParams<CUpti_PmSampling_GetCounterDataInfo_Params>(CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = image.data();
  info.counterDataImageSize = image.size();
  return cupti_.Api().pm_get_counter_data_info(&info) == CUPTI_SUCCESS ? info.numCompletedSamples : 0;
}

GpaStatus PmSampler::EvaluateImage(const std::vector<uint8_t>& image, PmSamples* samples) {
  size_t completed = 0;
  const uint64_t evaluate_start = SteadyNanoseconds();
  const GpaStatus evaluated = Evaluate(image, samples, &completed);
  costs_.evaluate_ns += SteadyNanoseconds() - evaluate_start;
  costs_.samples += completed;
  return evaluated;
}

void PmSampler::MakeContextCurrent() {
  if (context_ != nullptr) cuda_.cuCtxSetCurrent(context_);
}

GpaStatus PmSampler::CounterAvailability(std::vector<uint8_t>* image) {
  auto params = MakeParams<CUpti_PmSampling_GetCounterAvailability_Params>(
      CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
  params.deviceIndex = static_cast<size_t>(ordinal_);
  for (int call = 0; call < 2; ++call) {  // first the size, then the image
    if (CUptiResult r = cupti_.Api().pm_get_counter_availability(&params); r != CUPTI_SUCCESS) {
      return LogError(
          r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ? kGpaStatusErrorFailed : kGpaStatusErrorHardwareNotSupported,
          "CUPTI PM sampling: cuptiPmSamplingGetCounterAvailability on {} failed: {}{}", label_, cupti_.Describe(r),
          PrivilegeHint(r));
    }
    if (call == 0) {
      image->assign(params.counterAvailabilityImageSize, 0);
      params.pCounterAvailabilityImage = image->data();
    }
  }
  return kGpaStatusOk;
}

// With the caller's context current when there is one. Without one, first without any context (a monitor
// should not cost the GPU one), then with the device's primary context if the driver insists.
GpaStatus PmSampler::Enable() {
  MakeContextCurrent();
  auto enable = MakeParams<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
  enable.deviceIndex = static_cast<size_t>(ordinal_);
  CUptiResult r = cupti_.Api().pm_enable(&enable);
  if (r != CUPTI_SUCCESS && r != CUPTI_ERROR_INSUFFICIENT_PRIVILEGES && context_ == nullptr) {
    Log(kGpaLoggingMessage,
        "CUPTI PM sampling: enabling on {} without a context failed ({}); retrying with the "
        "primary context",
        label_, cupti_.Describe(r));
    if (CUresult c = cuda_.cuDevicePrimaryCtxRetain(&context_, device_); c != CUDA_SUCCESS) {
      context_ = nullptr;
      return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuDevicePrimaryCtxRetain failed: {}",
                      cuda_.Describe(c));
    }
    retained_primary_ = true;
    MakeContextCurrent();
    r = cupti_.Api().pm_enable(&enable);
  }
  if (r != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiPmSamplingEnable on {} failed: {}{}", label_,
                    cupti_.Describe(r), PrivilegeHint(r));
  }
  sampler_ = enable.pPmSamplingObject;
  return kGpaStatusOk;
}

GpaStatus PmSampler::InitializeImage(std::vector<uint8_t>* image) const {
  auto params = MakeParams<CUpti_PmSampling_CounterDataImage_Initialize_Params>(
      CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  params.pPmSamplingObject = sampler_;
  params.counterDataSize = image->size();
  params.pCounterData = image->data();
  if (CUptiResult r = cupti_.Api().pm_counter_data_image_initialize(&params); r != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: counter data image initialisation failed: {}",
                    cupti_.Describe(r));
  }
  return kGpaStatusOk;
}

GpaStatus PmSampler::Evaluate(const std::vector<uint8_t>& image, PmSamples* samples, size_t* completed) {
  auto info =
      MakeParams<CUpti_PmSampling_GetCounterDataInfo_Params>(CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = image.data();
  info.counterDataImageSize = image.size();
  if (CUptiResult r = cupti_.Api().pm_get_counter_data_info(&info); r != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorReadingSampleResult,
                    "CUPTI PM sampling: cuptiPmSamplingGetCounterDataInfo failed: {}", cupti_.Describe(r));
  }
  values_.resize(metric_names_.size());
  *completed = info.numCompletedSamples;
  for (size_t sample = 0; sample < info.numCompletedSamples; ++sample) {
    auto when = MakeParams<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
        CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
    when.pPmSamplingObject = sampler_;
    when.pCounterDataImage = image.data();
    when.counterDataImageSize = image.size();
    when.sampleIndex = sample;
    if (CUptiResult r = cupti_.Api().pm_counter_data_get_sample_info(&when); r != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorReadingSampleResult, "CUPTI PM sampling: sample {} info failed: {}", sample,
                      cupti_.Describe(r));
    }
    const PmSpanVerdict verdict =
        AccountPmSpan({when.startTimestamp, when.endTimestamp}, start_cupti_ns_, interval_ns_, &last_end_ns_, &losses_);
    if (verdict == PmSpanVerdict::kMalformed && losses_.malformed == 1) {
      Log(kGpaLoggingError, "CUPTI PM sampling: {} returned a sample ending before it began; such samples are skipped",
          label_);
    }
    if (verdict == PmSpanVerdict::kBeforeStart || verdict == PmSpanVerdict::kMalformed) continue;
    if (verdict == PmSpanVerdict::kKeptAfterHole && losses_.gaps == 1) {
      Log(kGpaLoggingError,
          "CUPTI PM sampling: {} lost {:.3f} ms of samples (the hardware buffer wrapped before a decode); use a "
          "longer interval or a larger hardware buffer",
          label_, losses_.first_gaps.front().length_ns / 1e6);
    }
    auto evaluate = MakeParams<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    evaluate.pHostObject = host_->Raw();
    evaluate.pCounterDataImage = image.data();
    evaluate.counterDataImageSize = image.size();
    evaluate.rangeIndex = sample;
    evaluate.ppMetricNames = metric_names_.data();
    evaluate.numMetrics = metric_names_.size();
    evaluate.pMetricValues = values_.data();
    if (CUptiResult r = cupti_.Api().host_evaluate_to_gpu_values(&evaluate); r != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorReadingSampleResult, "CUPTI PM sampling: evaluating sample {} failed: {}", sample,
                      cupti_.Describe(r));
    }
    samples->times.push_back(PmSampleTime{when.startTimestamp, when.endTimestamp});
    samples->values.insert(samples->values.end(), values_.begin(), values_.end());
  }
  return kGpaStatusOk;
}

std::vector<uint8_t> PmDecodeDisturbedSamples(const std::vector<PmSampleTime>& times,
                                              const std::vector<uint64_t>& decode_starts_ns, uint64_t interval_ns) {
  std::vector<uint8_t> disturbed(times.size(), 0);
  if (interval_ns < kPmDisturbanceKnownInterval) return disturbed;
  size_t s = 0;
  for (uint64_t start : decode_starts_ns) {
    while (s < times.size() && times[s].end_ns <= start) ++s;  // the first sample still running at `start`
    if (s == times.size()) break;
    // In flight at the start (or, in a hole, the first after it, if it follows within an interval)...
    if (times[s].start_ns > start + interval_ns) continue;
    disturbed[s] = 1;
    // ...and the one after it, when it follows without a hole.
    if (s + 1 < times.size() && times[s + 1].start_ns <= times[s].end_ns + interval_ns / 2) disturbed[s + 1] = 1;
  }
  return disturbed;
}

PmSpanVerdict AccountPmSpan(PmSampleTime span, uint64_t start_ns, uint64_t interval_ns, uint64_t* last_end_ns,
                            PmSamplingLosses* losses) {
  // The first record spans from SetConfig to the first trigger after Start: work from before Start (any
  // process's) would be counted in it.
  if (span.start_ns < start_ns) return PmSpanVerdict::kBeforeStart;
  // Seen on the H200 while decoding fell far behind (one thread decoding and evaluating at 50 µs): spans that end
  // before they begin, which would count negative time (a run's coverage then read 18,446,744,071,612 ms). Such a
  // record's values are not trusted either.
  if (span.end_ns <= span.start_ns) {
    ++losses->malformed;
    return PmSpanVerdict::kMalformed;
  }
  // KEEP_LATEST overwrites unread records without setting `overflow`: a hole between consecutive records is how
  // lost records show.
  const bool after_hole = *last_end_ns != 0 && span.start_ns > *last_end_ns + interval_ns / 2;
  if (after_hole) {
    losses->gap_ns += span.start_ns - *last_end_ns;
    if (losses->first_gaps.size() < PmSamplingLosses::kGapsKept) {
      losses->first_gaps.push_back({*last_end_ns - start_ns, span.start_ns - *last_end_ns});
    }
    ++losses->gaps;
  }
  *last_end_ns = span.end_ns;
  losses->covered_ns += span.end_ns - span.start_ns;
  return after_hole ? PmSpanVerdict::kKeptAfterHole : PmSpanVerdict::kKept;
}

std::string PmSampler::Describe() const {
  return DescribePmSampling(label_, interval_ns_, losses_, costs_, decode_period_);
}

std::string DescribePmSampling(const std::string& label, uint64_t interval_ns, const PmSamplingLosses& losses,
                               const PmSamplingCosts& costs, std::chrono::nanoseconds decode_period) {
  char buffer[320];
  std::snprintf(buffer, sizeof buffer,
                "PM sampling on %s: %llu samples of %.1f µs cover %.1f of %.1f ms (%llu gap(s), %.3f ms lost",
                label.c_str(), static_cast<unsigned long long>(costs.samples), interval_ns / 1e3,
                losses.covered_ns / 1e6, losses.sampled_ns / 1e6, static_cast<unsigned long long>(losses.gaps),
                losses.gap_ns / 1e6);
  std::string line = buffer;
  for (size_t i = 0; i < losses.first_gaps.size(); ++i) {
    std::snprintf(buffer, sizeof buffer, "%s%.3f s +%.3f ms", i == 0 ? ": at " : ", ", losses.first_gaps[i].at_ns / 1e9,
                  losses.first_gaps[i].length_ns / 1e6);
    line += buffer;
  }
  if (losses.gaps > losses.first_gaps.size()) line += ", ...";
  if (losses.malformed != 0) line += "; " + std::to_string(losses.malformed) + " malformed sample(s) skipped";
  std::snprintf(buffer, sizeof buffer,
                "; %llu overflow(s)); decoding %.2f s of CPU in %llu call(s) (longest %.1f ms, %llu slower than the "
                "%.0f ms period), readying %.1f MiB images %.2f s there and %.2f s beside it, evaluating %.2f s",
                static_cast<unsigned long long>(losses.overflows), costs.decode_ns / 1e9,
                static_cast<unsigned long long>(costs.decode_calls), costs.longest_decode_ns / 1e6,
                static_cast<unsigned long long>(costs.slow_decodes),
                std::chrono::duration<double, std::milli>(decode_period).count(),
                static_cast<double>(costs.image_bytes) / (1 << 20), costs.prepare_ns / 1e9,
                costs.ready_elsewhere_ns / 1e9, costs.evaluate_ns / 1e9);
  line += buffer;
  const bool lost =
      losses.gap_ns != 0 || static_cast<double>(losses.covered_ns) < 0.99 * static_cast<double>(losses.sampled_ns);
  if (const uint64_t keeps_up = PmIntervalThisHostKeepsUpWith(costs); lost && keeps_up > interval_ns) {
    const auto samples = static_cast<double>(costs.samples);
    std::snprintf(buffer, sizeof buffer,
                  "; this host decoded %.1f µs and evaluated %.1f µs a record, so it keeps up with intervals of "
                  "%.0f µs or more",
                  costs.decode_ns / samples / 1e3, costs.evaluate_ns / samples / 1e3, keeps_up / 1e3);
    line += buffer;
  }
  return line;
}

uint64_t PmIntervalThisHostKeepsUpWith(const PmSamplingCosts& costs) {
  if (costs.samples == 0) return 0;
  const double per_record =
      static_cast<double>(std::max(costs.decode_ns, costs.evaluate_ns)) / static_cast<double>(costs.samples);
  const double needed = per_record / kPmHostShare;
  for (uint64_t decade = 1; decade <= 1'000'000'000'000; decade *= 10) {
    for (uint64_t step : {1, 2, 5}) {
      if (static_cast<double>(step * decade) >= needed) return step * decade;
    }
  }
  return 0;
}

}  // namespace opengpa::nvidia
