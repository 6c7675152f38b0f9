// Compiled only when the CUDA toolkit's CUPTI headers are present (see CMakeLists.txt).
#include "monitor/pm_sampling_source.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>

#include <fmt/format.h>

#include "monitor/periodic_sampler.h"
#include "nvidia/cupti_pm_library.h"
#include "nvidia/pm_host_object.h"
#include "platform/logging.h"

namespace opengpa::monitor {

using nvidia::PmHostObject;
using nvidia::PmMetricProperties;
using nvidia::cupti::CudaLibrary;
using nvidia::cupti::CuptiLibrary;
using nvidia::cupti::MakeParams;

bool PmSamplingCompiledIn() { return true; }

namespace {

uint64_t RealtimeNanoseconds() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
}

// The monitor's description of a PM sampling metric, from what CUPTI says about it on the host object's chip.
GpaStatus DescribeMetric(const PmHostObject& host, const std::string& metric, CounterDescriptor* descriptor) {
  PmMetricProperties properties;
  if (GpaStatus status = host.Describe(metric, &properties); status != kGpaStatusOk) return status;
  descriptor->name = metric;
  descriptor->description = properties.description;
  descriptor->unit = properties.unit;
  descriptor->kind = properties.accumulates ? CounterKind::kDelta : CounterKind::kGauge;
  descriptor->origin = CounterOrigin::kCuptiPmSampling;
  return kGpaStatusOk;
}

std::string FormatUuid(const CUuuid& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  return fmt::format("GPU-{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
                     b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                     b[15]);
}

// Appended to the log of a failed call: what to do when the driver keeps profiling to administrators.
const char* PrivilegeHint(CUptiResult result) {
  return result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
             ? " (GPU profiling is restricted to admin users; see NVreg_RestrictProfilingToAdminUsers)"
             : "";
}

// The chip name CUPTI knows CUDA device `ordinal` by ("GH100").
GpaStatus ChipName(const CuptiLibrary& cupti, int ordinal, std::string* chip) {
  auto params = MakeParams<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  params.deviceIndex = static_cast<size_t>(ordinal);
  if (CUptiResult r = cupti.Api().device_get_chip_name(&params); r != CUPTI_SUCCESS || params.pChipName == nullptr) {
    return LogError(kGpaStatusErrorHardwareNotSupported, "CUPTI PM sampling: cuptiDeviceGetChipName({}) failed: {}",
                    ordinal, cupti.Describe(r));
  }
  *chip = params.pChipName;
  return kGpaStatusOk;
}

// How often records are decoded while sampling, whatever the monitor's tick. Measured on the H100:
// each decode costs the SM-unit counts of one sample (so not much more often), and the hardware buffer
// holds far fewer records than its size suggests (a 1 s backlog of 1 ms records overflowed 64 MiB and
// made DecodeData fail), so not much less often either.
constexpr std::chrono::nanoseconds kDecodePeriod = std::chrono::milliseconds(100);
constexpr size_t kMinimumHardwareBuffer = size_t{4} << 20;

// cuptiProfilerInitialize / cuptiProfilerDeInitialize, counted across the process: CUPTI's own
// initialisation is process-wide and not reference-counted (a second DeInitialize while another
// monitor still samples would tear it down under that monitor). libcupti is never unloaded, so every
// CuptiLibrary holds the same functions.
class ProfilerSession {
 public:
  static GpaStatus Begin(const CuptiLibrary& cupti, std::unique_ptr<ProfilerSession>* session) {
    std::lock_guard<std::mutex> lock(Mutex());
    if (Users() == 0) {
      auto params = MakeParams<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
      if (CUptiResult result = cupti.Api().profiler_initialize(&params); result != CUPTI_SUCCESS) {
        return LogError(kGpaStatusErrorDriverNotSupported,
                        "CUPTI PM sampling: cuptiProfilerInitialize failed: {}{}", cupti.Describe(result),
                        result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                            ? " (another CUPTI client, e.g. a profiler, is active in this process)"
                            : "");
      }
    }
    ++Users();
    *session = std::make_unique<ProfilerSession>(cupti);
    return kGpaStatusOk;
  }
  explicit ProfilerSession(const CuptiLibrary& cupti) : cupti_(cupti) {}
  ~ProfilerSession() {
    std::lock_guard<std::mutex> lock(Mutex());
    if (--Users() > 0) return;
    auto params = MakeParams<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    cupti_.Api().profiler_deinitialize(&params);
  }
  ProfilerSession(const ProfilerSession&) = delete;
  ProfilerSession& operator=(const ProfilerSession&) = delete;

 private:
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
  static int& Users() {
    static int users = 0;
    return users;
  }
  const CuptiLibrary& cupti_;
};

// PM sampling on one GPU: the enabled sampler object, its config and the image samples decode into.
class DeviceSampler {
 public:
  DeviceSampler(const CuptiLibrary& cupti, const CudaLibrary& cuda, DeviceIdentity identity, int ordinal)
      : cupti_(cupti), cuda_(cuda), identity_(std::move(identity)), ordinal_(ordinal) {}
  ~DeviceSampler() {
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
    if (context_ != nullptr) cuda_.Api().primary_ctx_release(device_);
  }
  DeviceSampler(const DeviceSampler&) = delete;
  DeviceSampler& operator=(const DeviceSampler&) = delete;

  GpaStatus Configure(const PmSamplingOptions& options, const std::vector<std::string>& metrics) {
    if (CUresult r = cuda_.Api().device_get(&device_, ordinal_); r != CUDA_SUCCESS) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "CUPTI PM sampling: cuDeviceGet({}) failed: {}", ordinal_,
                      cuda_.Describe(r));
    }
    int major = 0;
    int minor = 0;
    cuda_.Api().device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device_);
    cuda_.Api().device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device_);
    // The fixed-time trigger exists from GA10x on; Turing and GA100 only count in variable sysclk cycles.
    if (major < 8 || (major == 8 && minor < 6)) {
      return LogError(kGpaStatusErrorHardwareNotSupported,
                      "CUPTI PM sampling: GPU {} has compute capability {}.{}; fixed-interval PM sampling needs 8.6 "
                      "or newer",
                      identity_.index, major, minor);
    }

    std::string chip;
    if (GpaStatus status = ChipName(cupti_, ordinal_, &chip); status != kGpaStatusOk) return status;
    std::vector<uint8_t> availability;
    if (GpaStatus status = CounterAvailability(&availability); status != kGpaStatusOk) return status;
    if (GpaStatus status = PmHostObject::Create(cupti_, chip, availability, &host_); status != kGpaStatusOk) {
      return status;
    }
    if (GpaStatus status = host_->BuildConfigImage(metrics, &config_); status != kGpaStatusOk) return status;
    for (const std::string& metric : metrics) {
      CounterDescriptor descriptor;
      if (GpaStatus status = DescribeMetric(*host_, metric, &descriptor); status != kGpaStatusOk) return status;
      descriptors_.push_back(std::move(descriptor));
      metric_names_.push_back(metric.c_str());
    }
    if (GpaStatus status = Enable(); status != kGpaStatusOk) return status;

    auto config = MakeParams<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
    config.pPmSamplingObject = sampler_;
    config.configSize = config_.size();
    config.pConfig = config_.data();
    config.hardwareBufferSize = options.hardware_buffer_bytes;
    config.samplingInterval = options.interval_ns;
    interval_ns_ = options.interval_ns;
    config.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    // Keep the newest records: a long-running monitor must keep flowing even if a decode came late.
    config.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_LATEST;
    if (CUptiResult r = cupti_.Api().pm_set_config(&config); r != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "CUPTI PM sampling: cuptiPmSamplingSetConfig (interval {} ns, hardware buffer {} bytes) on GPU "
                      "{} failed: {}",
                      options.interval_ns, options.hardware_buffer_bytes, identity_.index, cupti_.Describe(r));
    }

    // Room for two decode periods' worth of samples; more takes another decode round.
    const double per_poll = std::ceil(static_cast<double>(kDecodePeriod.count()) /
                                      static_cast<double>(options.interval_ns));
    const auto max_samples = static_cast<uint32_t>(std::clamp(2.0 * per_poll + 16.0, 64.0, 100000.0));
    auto size = MakeParams<CUpti_PmSampling_GetCounterDataSize_Params>(
        CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE);
    size.pPmSamplingObject = sampler_;
    size.pMetricNames = metric_names_.data();
    size.numMetrics = metric_names_.size();
    size.maxSamples = max_samples;
    if (CUptiResult r = cupti_.Api().pm_get_counter_data_size(&size); r != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiPmSamplingGetCounterDataSize failed: {}",
                      cupti_.Describe(r));
    }
    counter_data_.assign(size.counterDataSize, 0);
    return ResetCounterData();
  }

  GpaStatus Start() {
    MakeContextCurrent();
    // CUPTI's clock -> the Unix epoch: read both as close together as possible.
    uint64_t cupti_now = 0;
    const uint64_t before = RealtimeNanoseconds();
    cupti_.Api().get_timestamp(&cupti_now);
    const uint64_t after = RealtimeNanoseconds();
    epoch_offset_ns_ = static_cast<int64_t>(before / 2 + after / 2) - static_cast<int64_t>(cupti_now);
    start_cupti_ns_ = cupti_now;
    auto start = MakeParams<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
    start.pPmSamplingObject = sampler_;
    if (CUptiResult r = cupti_.Api().pm_start(&start); r != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiPmSamplingStart on GPU {} failed: {}",
                      identity_.index, cupti_.Describe(r));
    }
    started_ = true;
    return kGpaStatusOk;
  }

  GpaStatus Stop(std::vector<MonitorRecord>* records) {
    MakeContextCurrent();
    if (!started_) return kGpaStatusOk;
    auto stop = MakeParams<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
    stop.pPmSamplingObject = sampler_;
    const CUptiResult r = cupti_.Api().pm_stop(&stop);
    started_ = false;
    if (r != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiPmSamplingStop on GPU {} failed: {}",
                      identity_.index, cupti_.Describe(r));
    }
    uint64_t stop_cupti_ns = 0;
    cupti_.Api().get_timestamp(&stop_cupti_ns);
    const GpaStatus status = Decode(records, true);
    // Records lost inside CUPTI leave no gap between the samples that remain (seen with hardware buffers
    // below 64 MiB at 1 ms: the missing time is at the ends), so compare the time the samples cover
    // with the time that passed. (Not a sample count: at 100 us fewer samples than intervals came back
    // while the instruction totals stayed exact.)
    const double passed = static_cast<double>(stop_cupti_ns - start_cupti_ns_);
    if (passed > 20.0 * static_cast<double>(interval_ns_) && static_cast<double>(covered_ns_) < 0.9 * passed) {
      Log(kGpaLoggingError,
          "CUPTI PM sampling on GPU {}: the decoded samples cover {:.1f} ms of the {:.1f} ms sampled; the rest were "
          "lost (use a longer interval or a larger hardware buffer)",
          identity_.index, covered_ns_ / 1e6, passed / 1e6);
    }
    return status;
  }

  // Decodes records from the hardware buffer. While sampling runs: one DecodeData call (more only if the
  // image filled up), because on the H100 (CUPTI 13.0, driver 580) every call zeroes the SM-unit
  // counters of the sample in flight. After Stop nothing is in flight and `drain` empties the buffer.
  // Measurements behind this: docs/realtime.md.
  GpaStatus Decode(std::vector<MonitorRecord>* records, bool drain) {
    MakeContextCurrent();
    for (int round = 0; round < 64; ++round) {  // bounded
      auto decode = MakeParams<CUpti_PmSampling_DecodeData_Params>(CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
      decode.pPmSamplingObject = sampler_;
      decode.pCounterDataImage = counter_data_.data();
      decode.counterDataImageSize = counter_data_.size();
      const CUptiResult decoded = cupti_.Api().pm_decode_data(&decode);
      if (decoded != CUPTI_SUCCESS) {
        if (decode_failures_++ > 0) return kGpaStatusErrorReadingSampleResult;  // logged once
        return LogError(kGpaStatusErrorReadingSampleResult, "CUPTI PM sampling: decode on GPU {} failed: {}",
                        identity_.index, cupti_.Describe(decoded));
      }
      if (decode.overflow != 0 && overflows_++ == 0) {
        Log(kGpaLoggingError,
            "CUPTI PM sampling: GPU {}'s hardware buffer overflowed and older samples were overwritten; use a longer "
            "interval or poll more often",
            identity_.index);
      }
      size_t completed = 0;
      if (GpaStatus status = Evaluate(records, &completed); status != kGpaStatusOk) return status;
      if (GpaStatus status = ResetCounterData(); status != kGpaStatusOk) return status;
      // A decode can stop early: COUNTER_DATA_FULL (the image was too small; go on, the image is sized
      // for two periods so this is rare), or OTHER with records left (seen at the buffer's wrap), which
      // waits for the next period unless draining.
      if (decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS) break;
      if (decode.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL && (!drain || completed == 0)) {
        break;
      }
    }
    return kGpaStatusOk;
  }

  const std::vector<CounterDescriptor>& Descriptors() const { return descriptors_; }
  const DeviceIdentity& Identity() const { return identity_; }

 private:
  void MakeContextCurrent() {
    if (context_ != nullptr) cuda_.Api().ctx_set_current(context_);
  }

  GpaStatus CounterAvailability(std::vector<uint8_t>* image) {
    auto params = MakeParams<CUpti_PmSampling_GetCounterAvailability_Params>(
        CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
    params.deviceIndex = static_cast<size_t>(ordinal_);
    for (int call = 0; call < 2; ++call) {  // first the size, then the image
      if (CUptiResult r = cupti_.Api().pm_get_counter_availability(&params); r != CUPTI_SUCCESS) {
        return LogError(r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ? kGpaStatusErrorFailed
                                                                 : kGpaStatusErrorHardwareNotSupported,
                        "CUPTI PM sampling: cuptiPmSamplingGetCounterAvailability on GPU {} failed: {}{}",
                        identity_.index, cupti_.Describe(r), PrivilegeHint(r));
      }
      if (call == 0) {
        image->assign(params.counterAvailabilityImageSize, 0);
        params.pCounterAvailabilityImage = image->data();
      }
    }
    return kGpaStatusOk;
  }

  // Without a CUDA context first (a monitor should not cost the GPU one); with the device's primary
  // context if the driver insists.
  GpaStatus Enable() {
    auto enable = MakeParams<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
    enable.deviceIndex = static_cast<size_t>(ordinal_);
    CUptiResult r = cupti_.Api().pm_enable(&enable);
    if (r != CUPTI_SUCCESS && r != CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) {
      Log(kGpaLoggingMessage, "CUPTI PM sampling: enabling on GPU {} without a context failed ({}); retrying with the "
          "primary context", identity_.index, cupti_.Describe(r));
      if (CUresult c = cuda_.Api().primary_ctx_retain(&context_, device_); c != CUDA_SUCCESS) {
        context_ = nullptr;
        return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuDevicePrimaryCtxRetain failed: {}",
                        cuda_.Describe(c));
      }
      MakeContextCurrent();
      r = cupti_.Api().pm_enable(&enable);
    }
    if (r != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: cuptiPmSamplingEnable on GPU {} failed: {}{}",
                      identity_.index, cupti_.Describe(r), PrivilegeHint(r));
    }
    sampler_ = enable.pPmSamplingObject;
    return kGpaStatusOk;
  }

  GpaStatus ResetCounterData() {
    auto params = MakeParams<CUpti_PmSampling_CounterDataImage_Initialize_Params>(
        CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    params.pPmSamplingObject = sampler_;
    params.counterDataSize = counter_data_.size();
    params.pCounterData = counter_data_.data();
    if (CUptiResult r = cupti_.Api().pm_counter_data_image_initialize(&params); r != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorFailed, "CUPTI PM sampling: counter data image initialisation failed: {}",
                      cupti_.Describe(r));
    }
    return kGpaStatusOk;
  }

  GpaStatus Evaluate(std::vector<MonitorRecord>* records, size_t* completed) {
    auto info = MakeParams<CUpti_PmSampling_GetCounterDataInfo_Params>(
        CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = counter_data_.data();
    info.counterDataImageSize = counter_data_.size();
    if (CUptiResult r = cupti_.Api().pm_get_counter_data_info(&info); r != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorReadingSampleResult, "CUPTI PM sampling: cuptiPmSamplingGetCounterDataInfo failed: {}",
                      cupti_.Describe(r));
    }
    values_.resize(metric_names_.size());
    *completed = info.numCompletedSamples;
    for (size_t sample = 0; sample < info.numCompletedSamples; ++sample) {
      auto when = MakeParams<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
          CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
      when.pPmSamplingObject = sampler_;
      when.pCounterDataImage = counter_data_.data();
      when.counterDataImageSize = counter_data_.size();
      when.sampleIndex = sample;
      if (CUptiResult r = cupti_.Api().pm_counter_data_get_sample_info(&when); r != CUPTI_SUCCESS) {
        return LogError(kGpaStatusErrorReadingSampleResult, "CUPTI PM sampling: sample {} info failed: {}", sample,
                        cupti_.Describe(r));
      }
      // The first record spans from SetConfig to the first trigger after Start: work from before Start
      // (any process's) would be counted in it.
      if (when.startTimestamp < start_cupti_ns_) continue;
      auto evaluate = MakeParams<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
          CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
      evaluate.pHostObject = host_->Raw();
      evaluate.pCounterDataImage = counter_data_.data();
      evaluate.counterDataImageSize = counter_data_.size();
      evaluate.rangeIndex = sample;
      evaluate.ppMetricNames = metric_names_.data();
      evaluate.numMetrics = metric_names_.size();
      evaluate.pMetricValues = values_.data();
      if (CUptiResult r = cupti_.Api().host_evaluate_to_gpu_values(&evaluate); r != CUPTI_SUCCESS) {
        return LogError(kGpaStatusErrorReadingSampleResult, "CUPTI PM sampling: evaluating sample {} failed: {}",
                        sample, cupti_.Describe(r));
      }
      // KEEP_LATEST overwrites unread records without setting `overflow`: a hole between consecutive
      // samples is how lost records show.
      if (last_end_ns_ != 0 && when.startTimestamp > last_end_ns_ + interval_ns_ / 2) {
        if (gaps_++ == 0) {
          Log(kGpaLoggingError,
              "CUPTI PM sampling: GPU {} lost {:.3f} ms of samples (the hardware buffer wrapped before a decode); use a "
              "longer interval, a shorter monitor interval or a larger hardware buffer",
              identity_.index, (when.startTimestamp - last_end_ns_) / 1e6);
        }
      }
      last_end_ns_ = when.endTimestamp;
      covered_ns_ += when.endTimestamp - when.startTimestamp;
      for (size_t m = 0; m < values_.size(); ++m) {
        MonitorRecord record;
        record.timestamp_ns = static_cast<uint64_t>(static_cast<int64_t>(when.endTimestamp) + epoch_offset_ns_);
        record.duration_ns = when.endTimestamp - when.startTimestamp;
        record.device_index = identity_.index;
        record.counter_index = static_cast<uint32_t>(m);
        record.value = values_[m];
        records->push_back(record);
      }
    }
    return kGpaStatusOk;
  }

  const CuptiLibrary& cupti_;
  const CudaLibrary& cuda_;
  DeviceIdentity identity_;
  int ordinal_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;  // retained only if enabling needed it
  std::unique_ptr<PmHostObject> host_;
  CUpti_PmSampling_Object* sampler_ = nullptr;
  std::vector<uint8_t> config_;
  std::vector<uint8_t> counter_data_;
  std::vector<const char*> metric_names_;  // point into the source's metric strings
  std::vector<double> values_;
  std::vector<CounterDescriptor> descriptors_;
  bool started_ = false;
  int64_t epoch_offset_ns_ = 0;
  uint64_t start_cupti_ns_ = 0;
  uint64_t interval_ns_ = 0;
  uint64_t last_end_ns_ = 0;
  uint64_t covered_ns_ = 0;
  // Counted so that each kind of trouble is logged once per session, not once per decode.
  uint64_t gaps_ = 0;
  uint64_t decode_failures_ = 0;
  uint64_t overflows_ = 0;
};

class PmSamplingSource final : public CounterSource {
 public:
  PmSamplingSource(std::unique_ptr<CuptiLibrary> cupti, std::unique_ptr<CudaLibrary> cuda,
                   std::vector<std::string> metrics)
      : cupti_(std::move(cupti)), cuda_(std::move(cuda)), metrics_(std::move(metrics)) {}
  ~PmSamplingSource() override {
    decoder_.reset();
    samplers_.clear();  // before the profiler session and the libraries they use
    session_.reset();
  }

  GpaStatus Configure(const PmSamplingOptions& options) {
    if (GpaStatus status = ProfilerSession::Begin(*cupti_, &session_); status != kGpaStatusOk) return status;
    std::vector<std::pair<DeviceIdentity, int>> targets;
    if (GpaStatus status = ResolveDevices(options.devices, &targets); status != kGpaStatusOk) return status;
    for (auto& [identity, ordinal] : targets) {
      auto sampler = std::make_unique<DeviceSampler>(*cupti_, *cuda_, identity, ordinal);
      if (GpaStatus status = sampler->Configure(options, metrics_); status != kGpaStatusOk) return status;
      if (descriptors_.empty()) descriptors_ = sampler->Descriptors();
      identities_.push_back(sampler->Identity());
      samplers_.push_back(std::move(sampler));
    }
    return kGpaStatusOk;
  }

  std::string_view Name() const override { return "cupti_pm"; }
  const std::vector<CounterDescriptor>& Counters() const override { return descriptors_; }
  const std::vector<DeviceIdentity>& Devices() const override { return identities_; }

  GpaStatus Start() override {
    for (auto& sampler : samplers_) {
      if (GpaStatus status = sampler->Start(); status != kGpaStatusOk) return status;
    }
    decoder_ = std::make_unique<PeriodicSampler>(kDecodePeriod, [this] { DecodeTick(); });
    decoder_->Start();
    return kGpaStatusOk;
  }
  // Hands over what the decode thread produced since the last Poll.
  GpaStatus Poll(std::vector<MonitorRecord>* records) override {
    std::lock_guard<std::mutex> lock(pending_mutex_);
    records->insert(records->end(), pending_.begin(), pending_.end());
    pending_.clear();
    return kGpaStatusOk;
  }
  GpaStatus Stop(std::vector<MonitorRecord>* records) override {
    decoder_.reset();  // joins the decode thread
    Poll(records);
    GpaStatus result = kGpaStatusOk;
    for (auto& sampler : samplers_) {
      if (GpaStatus status = sampler->Stop(records); status != kGpaStatusOk) result = status;
    }
    return result;
  }

 private:
  void DecodeTick() {
    decoded_.clear();
    for (auto& sampler : samplers_) sampler->Decode(&decoded_, false);  // failures are logged by the sampler
    std::lock_guard<std::mutex> lock(pending_mutex_);
    pending_.insert(pending_.end(), decoded_.begin(), decoded_.end());
  }

  GpaStatus ResolveDevices(const std::vector<DeviceIdentity>& wanted,
                           std::vector<std::pair<DeviceIdentity, int>>* targets) {
    int count = 0;
    if (CUresult r = cuda_->Api().device_get_count(&count); r != CUDA_SUCCESS || count == 0) {
      return LogError(kGpaStatusErrorHardwareNotSupported, "CUPTI PM sampling: no CUDA device ({})",
                      r == CUDA_SUCCESS ? "count is 0" : cuda_->Describe(r));
    }
    std::vector<DeviceIdentity> cuda_devices(static_cast<size_t>(count));
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      CUdevice device = 0;
      cuda_->Api().device_get(&device, ordinal);
      char name[256] = {};
      cuda_->Api().device_get_name(name, sizeof(name), device);
      CUuuid uuid{};
      cuda_->Api().device_get_uuid(&uuid, device);
      cuda_devices[static_cast<size_t>(ordinal)] = {static_cast<uint32_t>(ordinal), FormatUuid(uuid), name};
    }
    if (wanted.empty()) {
      for (int ordinal = 0; ordinal < count; ++ordinal) {
        targets->emplace_back(cuda_devices[static_cast<size_t>(ordinal)], ordinal);
      }
      return kGpaStatusOk;
    }
    for (const DeviceIdentity& device : wanted) {
      int found = -1;
      for (int ordinal = 0; ordinal < count; ++ordinal) {
        const DeviceIdentity& candidate = cuda_devices[static_cast<size_t>(ordinal)];
        if (device.uuid.empty() ? candidate.index == device.index : candidate.uuid == device.uuid) found = ordinal;
      }
      if (found < 0) {
        return LogError(kGpaStatusErrorIndexOutOfRange, "CUPTI PM sampling: GPU {} ({}) is not among the {} CUDA device(s)",
                        device.index, device.uuid.empty() ? "by CUDA ordinal" : device.uuid, count);
      }
      DeviceIdentity identity = cuda_devices[static_cast<size_t>(found)];
      identity.index = device.index;  // keep the caller's label
      targets->emplace_back(identity, found);
    }
    return kGpaStatusOk;
  }

  std::unique_ptr<CuptiLibrary> cupti_;
  std::unique_ptr<CudaLibrary> cuda_;
  std::vector<std::string> metrics_;
  std::unique_ptr<ProfilerSession> session_;
  std::vector<std::unique_ptr<DeviceSampler>> samplers_;
  std::vector<CounterDescriptor> descriptors_;
  std::vector<DeviceIdentity> identities_;
  std::unique_ptr<PeriodicSampler> decoder_;  // decodes every kDecodePeriod while sampling
  std::vector<MonitorRecord> decoded_;        // decode thread only
  std::mutex pending_mutex_;
  std::vector<MonitorRecord> pending_;
};

GpaStatus LoadCupti(const std::vector<std::string>& candidates, std::unique_ptr<CuptiLibrary>* cupti) {
  return CuptiLibrary::Load(candidates.empty() ? nvidia::cupti::DefaultCuptiCandidates() : candidates, cupti);
}

GpaStatus CheckMetricNames(const std::vector<std::string>& metrics) {
  for (const std::string& metric : metrics) {
    if (!LooksLikePmMetricName(metric)) {
      return LogError(kGpaStatusErrorCounterNotFound,
                      "CUPTI PM sampling: '{}' is not a CUPTI metric name (unit__counter.rollup)", metric);
    }
  }
  return kGpaStatusOk;
}

}  // namespace

GpaStatus CreatePmSamplingSource(const PmSamplingOptions& options, std::unique_ptr<CounterSource>* source) {
  if (source == nullptr) return LogError(kGpaStatusErrorNullPointer, "CUPTI PM sampling: output pointer is null");
  source->reset();
  if (options.interval_ns == 0) {
    return LogError(kGpaStatusErrorInvalidParameter, "CUPTI PM sampling: interval_ns is 0");
  }
  if (options.hardware_buffer_bytes < kMinimumHardwareBuffer) {
    return LogError(kGpaStatusErrorInvalidParameter, "CUPTI PM sampling: hardware_buffer_bytes {} is below the {} MiB minimum",
                    options.hardware_buffer_bytes, kMinimumHardwareBuffer >> 20);
  }
  const std::vector<std::string> metrics = options.metrics.empty() ? DefaultPmMetrics() : options.metrics;
  if (GpaStatus status = CheckMetricNames(metrics); status != kGpaStatusOk) return status;

  std::unique_ptr<CuptiLibrary> cupti;
  if (GpaStatus status = LoadCupti(options.cupti_library_candidates, &cupti); status != kGpaStatusOk) return status;
  std::unique_ptr<CudaLibrary> cuda;
  const auto& cuda_candidates =
      options.cuda_library_candidates.empty() ? nvidia::cupti::DefaultCudaCandidates() : options.cuda_library_candidates;
  if (GpaStatus status = CudaLibrary::Load(cuda_candidates, &cuda); status != kGpaStatusOk) return status;

  auto pm = std::make_unique<PmSamplingSource>(std::move(cupti), std::move(cuda), metrics);
  if (GpaStatus status = pm->Configure(options); status != kGpaStatusOk) return status;
  *source = std::move(pm);
  return kGpaStatusOk;
}

GpaStatus ListPmBaseMetrics(const std::string& chip, const std::vector<std::string>& cupti_library_candidates,
                            std::string* resolved_chip, std::vector<std::string>* names) {
  std::unique_ptr<CuptiLibrary> cupti;
  if (GpaStatus status = LoadCupti(cupti_library_candidates, &cupti); status != kGpaStatusOk) return status;
  std::string chip_name = chip;
  std::unique_ptr<CudaLibrary> cuda;
  std::unique_ptr<ProfilerSession> session;
  if (chip_name.empty()) {  // the first GPU's chip
    if (GpaStatus status = CudaLibrary::Load(nvidia::cupti::DefaultCudaCandidates(), &cuda); status != kGpaStatusOk) {
      return status;
    }
    if (GpaStatus status = ProfilerSession::Begin(*cupti, &session); status != kGpaStatusOk) return status;
    if (GpaStatus status = ChipName(*cupti, 0, &chip_name); status != kGpaStatusOk) return status;
  }
  std::unique_ptr<PmHostObject> host;
  if (GpaStatus status = PmHostObject::Create(*cupti, chip_name, {}, &host); status != kGpaStatusOk) return status;
  if (resolved_chip != nullptr) *resolved_chip = chip_name;
  return host->BaseMetrics(names);
}

GpaStatus DescribePmMetrics(const std::string& chip, const std::vector<std::string>& metrics,
                            const std::vector<std::string>& cupti_library_candidates,
                            std::vector<CounterDescriptor>* descriptors) {
  descriptors->clear();
  if (GpaStatus status = CheckMetricNames(metrics); status != kGpaStatusOk) return status;
  std::unique_ptr<CuptiLibrary> cupti;
  if (GpaStatus status = LoadCupti(cupti_library_candidates, &cupti); status != kGpaStatusOk) return status;
  std::unique_ptr<PmHostObject> host;
  if (GpaStatus status = PmHostObject::Create(*cupti, chip, {}, &host); status != kGpaStatusOk) return status;
  std::vector<uint8_t> image;
  if (GpaStatus status = host->BuildConfigImage(metrics, &image); status != kGpaStatusOk) return status;
  for (const std::string& metric : metrics) {
    CounterDescriptor descriptor;
    if (GpaStatus status = DescribeMetric(*host, metric, &descriptor); status != kGpaStatusOk) return status;
    descriptors->push_back(std::move(descriptor));
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::monitor
