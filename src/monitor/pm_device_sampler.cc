#include "monitor/pm_device_sampler.h"

#include <fmt/format.h>

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
    : identity_(std::move(identity)), sampler_(cupti, cuda, ordinal, fmt::format("GPU {}", identity_.index)) {}

GpaStatus PmDeviceSampler::Configure(const PmSamplingOptions& options, const std::vector<std::string>& metrics) {
  nvidia::PmSamplerOptions sampler_options;
  sampler_options.interval_ns = options.interval_ns;
  sampler_options.hardware_buffer_bytes = options.hardware_buffer_bytes;
  decode_period_ = nvidia::PmDecodePeriodFor(options.interval_ns);
  sampler_options.decode_period = decode_period_;
  if (GpaStatus status = sampler_.Configure(sampler_options, metrics); status != kGpaStatusOk) return status;
  for (const std::string& metric : metrics) {
    CounterDescriptor descriptor;
    if (GpaStatus status = DescribePmMetric(sampler_.Host(), metric, &descriptor); status != kGpaStatusOk) {
      return status;
    }
    descriptors_.push_back(std::move(descriptor));
  }
  return kGpaStatusOk;
}

GpaStatus PmDeviceSampler::Start() {
  if (GpaStatus status = sampler_.Start(); status != kGpaStatusOk) return status;
  pipeline_ = std::make_unique<nvidia::PmSamplingPipeline>(sampler_, decode_period_);
  return kGpaStatusOk;
}

void PmDeviceSampler::Collect(std::vector<MonitorRecord>* records) {
  if (pipeline_) pipeline_->TakeSamples(&samples_);
  AppendRecords(records);
}

GpaStatus PmDeviceSampler::Stop(std::vector<MonitorRecord>* records) {
  if (pipeline_) {
    pipeline_->Finish();  // everything decoded is evaluated before the sampler's own drain
    pipeline_->TakeSamples(&samples_);
    pipeline_.reset();
  }
  const GpaStatus status = sampler_.Stop(&samples_);
  AppendRecords(records);
  return status;
}

// One record per metric per sample, stamped with the sample's end on the Unix clock.
void PmDeviceSampler::AppendRecords(std::vector<MonitorRecord>* records) {
  const size_t metrics = sampler_.MetricCount();
  for (size_t sample = 0; sample < samples_.times.size(); ++sample) {
    const nvidia::PmSampleTime& when = samples_.times[sample];
    for (size_t m = 0; m < metrics; ++m) {
      MonitorRecord record;
      record.timestamp_ns = static_cast<uint64_t>(static_cast<int64_t>(when.end_ns) + sampler_.epoch_offset_ns());
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
