#include "nvidia/perfworks_sampler.h"

#include <fmt/format.h>

#include <algorithm>

#include "platform/logging.h"

namespace opengpa::nvidia::perfworks {

bool SamplerSupport::HasTrigger(TriggerSource source) const {
  return std::find(trigger_sources.begin(), trigger_sources.end(), source) != trigger_sources.end();
}

SamplerSupport QuerySamplerSupport(const PerfWorksLibrary& library, std::size_t device_index) {
  const TargetFunctions& target = library.Target();
  SamplerSupport support;
  auto names = MakeParams<DeviceGetNamesParams>();
  names.device_index = device_index;
  if (Status s = target.device_get_names(&names); s != kSuccess) {
    support.why = fmt::format("NVPW_Device_GetNames({}) failed: {}", device_index, StatusName(s));
    return support;
  }
  support.device_name = names.device_name ? names.device_name : "";
  support.chip = names.chip_name ? names.chip_name : "";
  auto supported = MakeParams<SamplerIsGpuSupportedParams>();
  supported.device_index = device_index;
  if (Status s = target.sampler_is_gpu_supported(&supported); s != kSuccess) {
    support.why = fmt::format("NVPW_GPU_PeriodicSampler_IsGpuSupported failed: {}", StatusName(s));
    return support;
  }
  if (!supported.supported) {
    support.why = fmt::format(
        "PerfWorks' GPU periodic sampler does not support {} ({}): architecture level {}, vGPU level {}, "
        "confidential computing level {}, CMP level {} (1 = unsupported)",
        support.device_name, support.chip, supported.architecture_level, supported.vgpu_level,
        supported.confidential_compute_level, supported.cmp_level);
    return support;
  }
  auto sources = MakeParams<SamplerGetTriggerSourcesParams>();
  sources.device_index = device_index;
  if (target.sampler_get_trigger_sources(&sources) == kSuccess && sources.source_count > 0) {
    support.trigger_sources.assign(sources.source_count, 0);
    sources.sources = support.trigger_sources.data();
    if (target.sampler_get_trigger_sources(&sources) != kSuccess) support.trigger_sources.clear();
    support.trigger_sources.resize(std::min(sources.source_count, support.trigger_sources.size()));
  }
  auto availability = MakeParams<SamplerCounterAvailabilityParams>();
  availability.device_index = device_index;
  Status s = target.sampler_counter_availability(&availability);
  if (s == kSuccess && availability.image_size > 0) {
    support.availability.assign(availability.image_size, 0);
    availability.image = support.availability.data();
    s = target.sampler_counter_availability(&availability);
  }
  if (s != kSuccess) {
    support.availability.clear();
    support.why = fmt::format("the counters of {} are in use by another profiling or sampling session: {}",
                              support.device_name, StatusName(s));
    return support;
  }
  support.supported = true;
  return support;
}

GpaStatus PeriodicSampler::RecordBufferSize(const PerfWorksLibrary& library, std::size_t device_index,
                                            const std::vector<PassConfig>& passes, std::uint32_t max_samples,
                                            std::size_t* record_buffer) {
  *record_buffer = 0;
  for (const PassConfig& pass : passes) {
    auto size = MakeParams<SamplerRecordBufferSizeParams>();
    size.device_index = device_index;
    size.config = pass.config_image.data();
    size.config_size = pass.config_image.size();
    size.max_undecoded_samples = max_samples;
    if (Status s = library.Target().sampler_record_buffer_size(&size); s != kSuccess) {
      return LogError(kGpaStatusErrorFailed, "NVPW_GPU_PeriodicSampler_CalculateRecordBufferSize failed: {}",
                      StatusName(s));
    }
    *record_buffer = std::max(*record_buffer, size.record_buffer_size);
  }
  return kGpaStatusOk;
}

bool PeriodicSampler::Fits(const std::vector<std::uint32_t>& triggers, std::uint64_t interval_ns,
                           const std::vector<PassConfig>& passes, std::uint32_t max_samples) const {
  if (!in_session_ || sampling_ || triggers != triggers_ || interval_ns != interval_ns_ || max_samples > max_samples_) {
    return false;
  }
  std::size_t needed = 0;
  return RecordBufferSize(library_, device_index_, passes, max_samples, &needed) == kGpaStatusOk &&
         needed <= record_buffer_size_;
}

GpaStatus PeriodicSampler::Begin(const PerfWorksLibrary& library, std::size_t device_index,
                                 const std::vector<std::uint32_t>& triggers, std::uint64_t interval_ns,
                                 const std::vector<PassConfig>& passes, std::uint32_t max_samples,
                                 std::unique_ptr<PeriodicSampler>* out) {
  const TargetFunctions& target = library.Target();
  std::size_t record_buffer = 0;
  if (GpaStatus status = RecordBufferSize(library, device_index, passes, max_samples, &record_buffer);
      status != kGpaStatusOk) {
    return status;
  }
  auto begin = MakeParams<SamplerBeginSessionParams>();
  begin.device_index = device_index;
  begin.max_undecoded_sampling_ranges = 1;
  begin.trigger_sources = triggers.data();
  begin.trigger_source_count = triggers.size();
  begin.sampling_interval = interval_ns;
  begin.record_buffer_size = record_buffer;
  begin.record_buffer_append_mode = kKeepOldest;
  if (Status s = target.sampler_begin_session(&begin); s != kSuccess) {
    const GpaStatus status =
        s == kStatusResourceUnavailable ? kGpaStatusErrorContextAlreadyOpen : kGpaStatusErrorFailed;
    return LogError(
        status, "the GPU periodic sampler of device {} could not begin a session: {}{}", device_index, StatusName(s),
        s == kStatusResourceUnavailable ? " (another profiler, sampler or monitor holds its counters)" : "");
  }
  std::unique_ptr<PeriodicSampler> sampler(new PeriodicSampler(library, device_index, max_samples));
  sampler->in_session_ = true;
  sampler->triggers_ = triggers;
  sampler->interval_ns_ = interval_ns;
  sampler->record_buffer_size_ = record_buffer;
  *out = std::move(sampler);
  return kGpaStatusOk;
}

PeriodicSampler::~PeriodicSampler() {
  const TargetFunctions& target = library_.Target();
  auto device = MakeParams<SamplerDeviceParams>();
  device.device_index = device_index_;
  if (sampling_) target.sampler_stop(&device);
  if (in_session_) target.sampler_end_session(&device);
}

GpaStatus PeriodicSampler::MakeCounterData(std::uint32_t samples, std::vector<std::uint8_t>* image) const {
  const TargetFunctions& target = library_.Target();
  auto options = MakeParams<SamplerCounterDataOptions>();
  options.prefix = counter_data_prefix_.data();
  options.prefix_size = counter_data_prefix_.size();
  options.max_samples = samples;
  options.append_mode = kCounterDataLinear;
  auto size = MakeParams<SamplerCounterDataSizeParams>();
  size.device_index = device_index_;
  size.options = &options;
  if (Status s = target.sampler_counter_data_size(&size); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "the sampler's counter-data size could not be computed: {}", StatusName(s));
  }
  image->assign(size.image_size, 0);
  auto init = MakeParams<SamplerCounterDataInitializeParams>();
  init.device_index = device_index_;
  init.options = &options;
  init.image = image->data();
  init.image_size = image->size();
  if (Status s = target.sampler_counter_data_initialize(&init); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "the sampler's counter data could not be initialised: {}", StatusName(s));
  }
  return kGpaStatusOk;
}

GpaStatus PeriodicSampler::Start(const PassConfig& pass) {
  const TargetFunctions& target = library_.Target();
  if (sampling_) return LogError(kGpaStatusErrorFailed, "the GPU periodic sampler is already sampling");
  auto config = MakeParams<SamplerSetConfigParams>();
  config.device_index = device_index_;
  config.config = pass.config_image.data();
  config.config_size = pass.config_image.size();
  config.pass_index = 0;
  if (Status s = target.sampler_set_config(&config); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "NVPW_GPU_PeriodicSampler_SetConfig failed: {}", StatusName(s));
  }
  counter_data_prefix_ = pass.counter_data_prefix;
  auto device = MakeParams<SamplerDeviceParams>();
  device.device_index = device_index_;
  if (Status s = target.sampler_start(&device); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "NVPW_GPU_PeriodicSampler_StartSampling failed: {}", StatusName(s));
  }
  sampling_ = true;
  return kGpaStatusOk;
}

GpaStatus PeriodicSampler::CpuTrigger() {
  auto device = MakeParams<SamplerDeviceParams>();
  device.device_index = device_index_;
  if (Status s = library_.Target().sampler_cpu_trigger(&device); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "NVPW_GPU_PeriodicSampler_CpuTrigger failed: {}", StatusName(s));
  }
  return kGpaStatusOk;
}

GpaStatus PeriodicSampler::Stop(DecodedSamples* out, std::size_t expected_samples) {
  const TargetFunctions& target = library_.Target();
  if (!sampling_) return LogError(kGpaStatusErrorFailed, "the GPU periodic sampler is not sampling");
  auto device = MakeParams<SamplerDeviceParams>();
  device.device_index = device_index_;
  sampling_ = false;
  if (Status s = target.sampler_stop(&device); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "NVPW_GPU_PeriodicSampler_StopSampling failed: {}", StatusName(s));
  }
  std::vector<std::uint8_t> counter_data;
  const std::uint32_t capacity =
      expected_samples == 0 ? max_samples_
                            : static_cast<std::uint32_t>(std::min<std::size_t>(max_samples_, expected_samples));
  if (GpaStatus status = MakeCounterData(capacity, &counter_data); status != kGpaStatusOk) return status;
  auto decode = MakeParams<SamplerDecodeParams>();
  decode.device_index = device_index_;
  decode.counter_data = counter_data.data();
  decode.counter_data_size = counter_data.size();
  decode.ranges_to_decode = 1;
  if (Status s = target.sampler_decode(&decode); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "NVPW_GPU_PeriodicSampler_DecodeCounters_V2 failed: {}", StatusName(s));
  }
  auto info = MakeParams<CounterDataGetInfoParams>();
  info.counter_data = counter_data.data();
  info.counter_data_size = counter_data.size();
  if (Status s = target.counter_data_get_info(&info); s != kSuccess) {
    return LogError(kGpaStatusErrorFailed, "NVPW_PeriodicSampler_CounterData_GetInfo failed: {}", StatusName(s));
  }
  out->samples = info.completed_ranges;
  out->dropped = decode.samples_dropped;
  out->merged = decode.samples_merged;
  out->overflow = decode.record_buffer_overflow != 0;
  out->start_ns.assign(out->samples, 0);
  out->end_ns.assign(out->samples, 0);
  for (std::size_t i = 0; i < out->samples; ++i) {
    auto time = MakeParams<CounterDataGetSampleTimeParams>();
    time.counter_data = counter_data.data();
    time.range_index = i;
    if (target.counter_data_get_sample_time(&time) == kSuccess) {
      out->start_ns[i] = time.start_ns;
      out->end_ns[i] = time.end_ns;
    }
  }
  out->counter_data = std::move(counter_data);
  return kGpaStatusOk;
}

}  // namespace opengpa::nvidia::perfworks
