#include "backends/common/sampled_stream_session.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "platform/logging.h"

namespace opengpa {
std::uint32_t StreamSampleCapacity(std::uint64_t interval_ns, std::uint64_t duration_ns) {
  if (duration_ns == 0 || interval_ns == 0) return kDefaultStreamSamples;
  const std::uint64_t intervals = (duration_ns + interval_ns - 1) / interval_ns + 4;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(intervals, kMaximumStreamSamples));
}

std::vector<double> WholeSeriesValues(const std::vector<double>& values, const std::vector<std::uint64_t>& start_ns,
                                      const std::vector<std::uint64_t>& end_ns, const std::vector<bool>& additive) {
  const std::size_t width = additive.size();
  std::vector<double> totals(width, 0.0);
  double covered = 0.0;
  for (std::size_t i = 0; i < start_ns.size() && (i + 1) * width <= values.size(); ++i) {
    const double span = end_ns[i] > start_ns[i] ? static_cast<double>(end_ns[i] - start_ns[i]) : 0.0;
    covered += span;
    for (std::size_t m = 0; m < width; ++m) {
      totals[m] += additive[m] ? values[i * width + m] : values[i * width + m] * span;
    }
  }
  for (std::size_t m = 0; m < width; ++m) {
    if (!additive[m]) totals[m] = covered > 0.0 ? totals[m] / covered : 0.0;
  }
  return totals;
}

GpaStatus CheckSampledStreamable(const nvidia::GraphicsCounterSource* source, const std::string& api,
                                 const std::string& not_sampled, std::size_t counters, std::size_t passes) {
  if (source == nullptr || !source->SamplesByTime()) {
    return LogError(kGpaStatusErrorIncompatibleSampleTypes,
                    "{} streaming needs NVIDIA's GPU periodic sampler sampling by GPU time, which this device lacks "
                    "(its log says why it has no hardware counters)",
                    api);
  }
  if (!not_sampled.empty()) {
    return LogError(kGpaStatusErrorIncompatibleSampleTypes,
                    "{} is not a counter of the GPU periodic sampler (timestamps, queries and pipeline statistics "
                    "belong to samples), so it cannot be streamed",
                    not_sampled);
  }
  if (passes > 1) {
    return LogError(kGpaStatusErrorNotEnabled, "{} streaming: {} counters need {} sampler passes; a stream has one",
                    api, counters, passes);
  }
  return kGpaStatusOk;
}

GpaStatus CreateSampledStreamSession(const nvidia::GraphicsCounterSource& source, const std::string& api,
                                     StreamPlan plan, std::unique_ptr<BackendSession>* out) {
  if (plan.passes.empty()) return LogError(kGpaStatusErrorNoCountersEnabled, "{} streaming: no counter to stream", api);
  *out = std::make_unique<SampledStreamSession>(source, api + " streaming", std::move(plan.names),
                                                std::move(plan.additive), std::move(plan.passes.front()));
  return kGpaStatusOk;
}

SampledStreamSession::SampledStreamSession(const nvidia::GraphicsCounterSource& source, std::string label,
                                           std::vector<std::string> names, std::vector<bool> additive,
                                           nvidia::perfworks::PassConfig pass)
    : source_(source),
      label_(std::move(label)),
      names_(std::move(names)),
      additive_(std::move(additive)),
      pass_(std::move(pass)) {}

SampledStreamSession::~SampledStreamSession() = default;  // the sampler stops and ends its session

GpaStatus SampledStreamSession::StartStreaming(const StreamingOptions& options) {
  if (sampler_ != nullptr) return LogError(kGpaStatusErrorAlreadyEnabled, "{}: a session streams once", label_);
  const std::uint32_t capacity = StreamSampleCapacity(options.interval_ns, options.duration_ns);
  if (options.duration_ns != 0 && capacity == kMaximumStreamSamples) {
    Log(kGpaLoggingMessage,
        "{}: {} ns at {} ns intervals is more than the {} samples a stream keeps; later ones are "
        "dropped and counted as lost",
        label_, options.duration_ns, options.interval_ns, kMaximumStreamSamples);
  }
  if (GpaStatus status = source_.BeginSampler(nvidia::perfworks::kTriggerGpuTimeInterval, {pass_}, &sampler_,
                                              options.interval_ns, capacity);
      status != kGpaStatusOk) {
    return status;
  }
  if (GpaStatus status = sampler_->Start(pass_); status != kGpaStatusOk) {
    sampler_.reset();
    return status;
  }
  interval_ns_ = options.interval_ns;
  Log(kGpaLoggingMessage, "{}: {} counters every {} ns on {} (GPU periodic sampler, up to {} samples)", label_,
      names_.size(), interval_ns_, source_.DeviceName(), capacity);
  return kGpaStatusOk;
}

GpaStatus SampledStreamSession::StopStreaming() {
  if (sampler_ == nullptr || stopped_) return LogError(kGpaStatusErrorNotEnabled, "{}: not streaming", label_);
  stopped_ = true;
  // The interval in which the caller's (waited-for) work ended closes at the next boundary: run two more.
  std::this_thread::sleep_for(std::chrono::nanoseconds(2 * interval_ns_));
  nvidia::perfworks::DecodedSamples decoded;
  if (GpaStatus status = sampler_->Stop(&decoded); status != kGpaStatusOk) return status;
  const nvidia::perfworks::ChipMetrics& evaluator = source_.Evaluator();
  if (decoded.samples > 0) {
    if (GpaStatus status = evaluator.UseDeviceOf(decoded.counter_data); status != kGpaStatusOk) return status;
  }
  series_ = StreamingSeries{};
  series_.interval_ns = interval_ns_;
  std::vector<double> values;
  for (std::size_t i = 0; i < decoded.samples; ++i) {
    if (GpaStatus status = evaluator.Evaluate(names_, decoded.counter_data, i, &values); status != kGpaStatusOk) {
      return status;
    }
    series_.start_ns.push_back(decoded.start_ns[i]);
    series_.end_ns.push_back(decoded.end_ns[i]);
    series_.values.insert(series_.values.end(), values.begin(), values.end());
    series_.covered_ns += decoded.end_ns[i] - decoded.start_ns[i];
  }
  if (decoded.samples > 0) {
    series_.begin_ns = series_.start_ns.front();
    series_.stop_ns = series_.end_ns.back();
  }
  series_.lost_samples = decoded.dropped;
  series_.overflows = decoded.overflow ? 1 : 0;
  if (decoded.dropped > 0 || decoded.overflow) {
    Log(kGpaLoggingError,
        "{}: {} samples were lost{} (the stream keeps {}; give GpaSpmSetDuration the stream's length or use a longer "
        "interval)",
        label_, decoded.dropped, decoded.overflow ? " and the sampler's record buffer overflowed" : "",
        decoded.samples);
  }
  if (decoded.merged > 0) {
    Log(kGpaLoggingMessage, "{}: the sampler merged {} intervals too close together to separate", label_,
        decoded.merged);
  }
  sampler_.reset();  // ends the sampler session: the counters are free for the next user
  return kGpaStatusOk;
}

GpaStatus SampledStreamSession::ReadStreamingSeries(StreamingSeries* series) {
  if (!stopped_) return LogError(kGpaStatusErrorSessionNotEnded, "{}: the stream has not been stopped", label_);
  *series = series_;
  return kGpaStatusOk;
}

GpaStatus SampledStreamSession::ReadResults(SampleSlot slot_count, std::vector<double>* values) {
  values->assign(static_cast<std::size_t>(slot_count) * names_.size(), 0.0);
  if (slot_count == 0 || !stopped_) return kGpaStatusOk;
  const std::vector<double> totals = WholeSeriesValues(series_.values, series_.start_ns, series_.end_ns, additive_);
  std::copy(totals.begin(), totals.end(), values->begin());
  return kGpaStatusOk;
}

}  // namespace opengpa
