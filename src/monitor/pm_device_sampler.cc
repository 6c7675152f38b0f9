#include "monitor/pm_device_sampler.h"

#include <fmt/format.h>

#include "platform/logging.h"

namespace opengpa::monitor {

using nvidia::PmHostObject;
using nvidia::PmMetricProperties;

GpaStatus DescribePmMetric(const PmHostObject& host, const std::string& metric, CounterDescriptor* descriptor) {
  PmMetricProperties properties;
  if (GpaStatus status = host.Describe(metric, &properties); status != kGpaStatusOk) return status;
  descriptor->name = metric;
  descriptor->description = properties.description;
  descriptor->unit = properties.unit;
  descriptor->kind = properties.accumulates ? CounterKind::kDelta : CounterKind::kGauge;
  descriptor->origin = CounterOrigin::kCuptiPmSampling;
  return kGpaStatusOk;
}

PmDeviceSampler::PmDeviceSampler(const nvidia::cupti::CuptiLibrary& cupti, const nvidia::CudaDriver& cuda,
                                 DeviceIdentity identity, int ordinal)
    : cupti_(cupti), cuda_(cuda), ordinal_(ordinal), identity_(std::move(identity)) {}

GpaStatus PmDeviceSampler::MakeSampler() {
  sampler_ = std::make_unique<nvidia::PmSampler>(cupti_, cuda_, ordinal_, fmt::format("GPU {}", identity_.index));
  if (GpaStatus status = sampler_->Configure(sampler_options_, metrics_); status != kGpaStatusOk) {
    sampler_.reset();
    return status;
  }
  return kGpaStatusOk;
}

GpaStatus PmDeviceSampler::Configure(const PmSamplingOptions& options, const std::vector<std::string>& metrics) {
  sampler_options_.interval_ns = options.interval_ns;
  sampler_options_.hardware_buffer_bytes = options.hardware_buffer_bytes != 0
                                               ? options.hardware_buffer_bytes
                                               : nvidia::PmHardwareBufferFor(options.interval_ns);
  sampler_options_.decode_period = nvidia::PmDecodePeriodFor(options.interval_ns);
  metrics_ = metrics;
  if (GpaStatus status = MakeSampler(); status != kGpaStatusOk) return status;
  for (const std::string& metric : metrics) {
    CounterDescriptor descriptor;
    if (GpaStatus status = DescribePmMetric(sampler_->Host(), metric, &descriptor); status != kGpaStatusOk) {
      return status;
    }
    descriptors_.push_back(std::move(descriptor));
  }
  return kGpaStatusOk;
}

GpaStatus PmDeviceSampler::Resume() {
  if (started_) return kGpaStatusOk;
  if (sampler_ == nullptr) {
    if (GpaStatus status = MakeSampler(); status != kGpaStatusOk) return status;
  }
  if (GpaStatus status = sampler_->Start(); status != kGpaStatusOk) return status;
  started_ = true;
  pipeline_ = std::make_unique<nvidia::PmSamplingPipeline>(*sampler_);
  return kGpaStatusOk;
}

void PmDeviceSampler::Collect(std::vector<MonitorRecord>* records) {
  if (pipeline_) pipeline_->TakeSamples(&samples_);
  AppendRecords(records);
}

GpaStatus PmDeviceSampler::Release(std::vector<MonitorRecord>* records) {
  GpaStatus status = kGpaStatusOk;
  if (started_) {
    pipeline_->Finish();  // everything decoded is evaluated before the sampler's own drain
    pipeline_->TakeSamples(&samples_);
    pipeline_.reset();
    status = sampler_->Stop(&samples_);
    AppendRecords(records);
    started_ = false;
    // What the fine intervals cost and lost, once per run (or hand-over): the figures behind a choice of interval.
    Log(kGpaLoggingMessage, "{}", sampler_->Describe());
  }
  sampler_.reset();  // disables PM sampling on the GPU
  return status;
}

// One record per metric per sample, stamped with the sample's end on the Unix clock.
void PmDeviceSampler::AppendRecords(std::vector<MonitorRecord>* records) {
  if (sampler_ == nullptr) return;
  const size_t metrics = sampler_->MetricCount();
  for (size_t sample = 0; sample < samples_.times.size(); ++sample) {
    const nvidia::PmSampleTime& when = samples_.times[sample];
    for (size_t m = 0; m < metrics; ++m) {
      MonitorRecord record;
      record.timestamp_ns = static_cast<uint64_t>(static_cast<int64_t>(when.end_ns) + sampler_->epoch_offset_ns());
      record.duration_ns = when.end_ns - when.start_ns;
      record.device_index = identity_.index;
      record.counter_index = static_cast<uint32_t>(m);
      record.value = samples_.values[sample * metrics + m];
      records->push_back(record);
    }
  }
  samples_.times.clear();
  samples_.values.clear();
}

}  // namespace opengpa::monitor
