#include "nvidia/sampled_passes.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "platform/logging.h"

namespace opengpa::nvidia {

namespace pw = perfworks;

namespace {

// Which interval each trigger closed, by order when every trigger closed one, else by time (AssignIntervals).
GpaStatus MatchIntervals(const std::vector<std::uint64_t>& stamps_ns,
                         const std::vector<std::uint64_t>& interval_ends_ns, std::vector<std::size_t>* intervals) {
  // Every trigger closed one interval, in order: trigger k closed interval k.
  if (stamps_ns.size() == interval_ends_ns.size()) {
    for (std::size_t k = 0; k < stamps_ns.size(); ++k) {
      const std::uint64_t end = interval_ends_ns[k];
      const std::uint64_t apart = end > stamps_ns[k] ? end - stamps_ns[k] : stamps_ns[k] - end;
      if (apart > kTriggerToIntervalEndLimitNs) {
        return LogError(kGpaStatusErrorFailed,
                        "trigger {} of {} (timestamp {} ns) closed interval {}, which ends {} ns from it (at most {})",
                        k, stamps_ns.size(), stamps_ns[k], k, apart, kTriggerToIntervalEndLimitNs);
      }
      intervals->push_back(k);
    }
    return kGpaStatusOk;
  }
  // Otherwise some were lost or foreign ones came between: place each by time, in order.
  Log(kGpaLoggingMessage, "{} trigger(s) but {} sampler interval(s): placing the triggers by their timestamps",
      stamps_ns.size(), interval_ends_ns.size());
  std::size_t next = 0;  // the first interval the next trigger may have closed
  for (std::size_t k = 0; k < stamps_ns.size(); ++k) {
    const std::uint64_t earliest = stamps_ns[k] > kTriggerBeforeStampNs ? stamps_ns[k] - kTriggerBeforeStampNs : 0;
    auto at = std::lower_bound(
        interval_ends_ns.begin() + static_cast<std::ptrdiff_t>(std::min(next, interval_ends_ns.size())),
        interval_ends_ns.end(), earliest);
    // The sampler may stop before recording the last triggers of a pass (each command list ends with a trigger of
    // its own for that reason); a sample boundary left without an interval is reported by the caller.
    if (at == interval_ends_ns.end()) return kGpaStatusOk;
    if (*at > stamps_ns[k] + kTriggerToIntervalEndLimitNs) {
      return LogError(kGpaStatusErrorFailed,
                      "trigger {} of {} (timestamp {} ns): the next interval ends {} ns after it (at most {})", k,
                      stamps_ns.size(), stamps_ns[k], *at - stamps_ns[k], kTriggerToIntervalEndLimitNs);
    }
    next = static_cast<std::size_t>(at - interval_ends_ns.begin());
    intervals->push_back(next++);
  }
  return kGpaStatusOk;
}

}  // namespace

GpaStatus AssignIntervals(const std::vector<std::uint64_t>& stamps_ns, const std::vector<std::uint64_t>& done_ns,
                          const std::vector<std::uint64_t>& interval_ends_ns, std::vector<std::size_t>* intervals,
                          std::vector<std::size_t>* short_counts) {
  intervals->clear();
  if (short_counts != nullptr) short_counts->clear();
  if (GpaStatus status = MatchIntervals(stamps_ns, interval_ends_ns, intervals); status != kGpaStatusOk) {
    return status;
  }
  // A trigger that ends a sample and fired before the sample's work was done closes the interval that counted it.
  std::size_t floor = 0;
  for (std::size_t k = 0; k < intervals->size(); ++k) {
    std::size_t interval = (*intervals)[k];
    const std::uint64_t done = k < done_ns.size() ? done_ns[k] : 0;
    if (done > kTriggerBeforeStampNs && interval_ends_ns[interval] + kTriggerBeforeStampNs < done) {
      const auto at = std::lower_bound(interval_ends_ns.begin() + static_cast<std::ptrdiff_t>(interval),
                                       interval_ends_ns.end(), done - kTriggerBeforeStampNs);
      if (at != interval_ends_ns.end() && *at <= done + kTriggerToIntervalEndLimitNs) {
        const auto later = static_cast<std::size_t>(at - interval_ends_ns.begin());
        Log(kGpaLoggingMessage,
            "trigger {} of {} fired {} ns before the work of the sample it ends was done; it closes interval {}, the "
            "first that ends after that work, rather than {}",
            k, stamps_ns.size(), done - interval_ends_ns[interval], later, interval);
        interval = later;
      } else {
        // No interval ends after the work: the GPU's channel ran ahead of its engine past every later trigger too
        // (a freshly started H200, docs/graphics-counters.md), and what the sample ran after this trigger was
        // counted where no sample reads it. Its counts are short, and nothing here can tell by how much.
        Log(kGpaLoggingError,
            "trigger {} of {} fired {} ns before the work of the sample it ends was done, and no later interval of "
            "the pass holds that work (the GPU ran behind its triggers): that sample's hardware counts miss what ran "
            "after the trigger; run the pass again",
            k, stamps_ns.size(), done - interval_ends_ns[interval]);
        if (short_counts != nullptr) short_counts->push_back(k);
      }
    }
    interval = std::max(interval, floor);
    floor = interval;
    (*intervals)[k] = interval;
  }
  return kGpaStatusOk;
}

SampledPasses::SampledPasses(const GraphicsCounterSource& source, pw::TriggerSource trigger,
                             std::vector<std::string> names, std::vector<bool> additive,
                             std::vector<pw::PassConfig> passes)
    : source_(source),
      trigger_(trigger),
      names_(std::move(names)),
      additive_(std::move(additive)),
      passes_(std::move(passes)),
      decoded_(passes_.size()),
      merged_(passes_.size(), false) {}

SampledPasses::~SampledPasses() = default;

bool SamplerTraceOn() {
  static const bool on = [] {
    const char* trace = std::getenv("OPENGPA_SAMPLER_TRACE");
    return trace != nullptr && *trace == '1';
  }();
  return on;
}

namespace {

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

GpaStatus SampledPasses::Begin() {
  if (passes_.empty()) return kGpaStatusOk;
  const auto begun = std::chrono::steady_clock::now();
  if (GpaStatus status = source_.BeginSampler(trigger_, passes_, &sampler_); status != kGpaStatusOk) return status;
  const double session_ms = MillisecondsSince(begun);
  active_ = 0;
  const auto started = std::chrono::steady_clock::now();
  const GpaStatus status = sampler_->Start(passes_[0]);
  if (SamplerTraceOn()) {
    std::fprintf(stderr, "opengpa sampler session begun in %.1f ms, pass 0 started in %.1f ms\n", session_ms,
                 MillisecondsSince(started));
  }
  return status;
}

GpaStatus SampledPasses::CpuTrigger() {
  if (sampler_ == nullptr || !sampler_->sampling()) {
    return LogError(kGpaStatusErrorFailed, "the GPU periodic sampler is not sampling (pass {} of {})", active_,
                    passes_.size());
  }
  return sampler_->CpuTrigger();
}

GpaStatus SampledPasses::Advance(std::size_t triggers) {
  if (active_ >= passes_.size() || sampler_ == nullptr) {
    return LogError(kGpaStatusErrorFailed, "every sampled pass is already decoded");
  }
  pw::DecodedSamples decoded;
  const auto stopping = std::chrono::steady_clock::now();
  // Room for the pass's own triggers twice over and a margin: intervals closed by another process's triggers;
  // an interval the counter data has no room for is counted as dropped and the pass's samples fail (logged).
  constexpr std::size_t kForeignTriggerMargin = 256;
  GpaStatus status = sampler_->Stop(&decoded, 2 * triggers + kForeignTriggerMargin);
  if (status != kGpaStatusOk) return status;
  if (SamplerTraceOn()) {
    std::fprintf(stderr,
                 "opengpa sampler pass %u decoded %zu intervals, %zu dropped, %zu merged, overflow %d; stopped and "
                 "decoded in %.1f ms (counter data %zu bytes)\n",
                 active_, decoded.samples, decoded.dropped, decoded.merged, decoded.overflow ? 1 : 0,
                 MillisecondsSince(stopping), decoded.counter_data.size());
  }
  const auto evaluating = std::chrono::steady_clock::now();
  if (decoded.merged > 0) {
    Log(kGpaLoggingError,
        "the GPU periodic sampler merged {} trigger(s) of pass {} with their neighbours (closer together than it can "
        "tell apart); that pass's samples cannot be placed and are reported as failed",
        decoded.merged, active_);
    merged_[active_] = true;
  }
  if (decoded.dropped > 0 || decoded.overflow) {
    Log(kGpaLoggingError,
        "the GPU periodic sampler lost {} interval(s) of pass {}{}; its samples cannot be told apart and read 0",
        decoded.dropped, active_, decoded.overflow ? " (its record buffer overflowed)" : "");
  }
  const pw::PassConfig& pass = passes_[active_];
  std::vector<std::string> pass_names;
  for (std::size_t m : pass.metrics) pass_names.push_back(names_[m]);
  DecodedPass& out = decoded_[active_];
  const pw::ChipMetrics& evaluator = source_.Evaluator();
  if (decoded.samples > 0) {
    if (GpaStatus s = evaluator.UseDeviceOf(decoded.counter_data); s != kGpaStatusOk) return s;
  }
  for (std::size_t i = 0; i < decoded.samples; ++i) {
    std::vector<double> values;
    if (GpaStatus s = evaluator.Evaluate(pass_names, decoded.counter_data, i, &values); s != kGpaStatusOk) return s;
    out.values.push_back(std::move(values));
    out.end_ns.push_back(decoded.end_ns[i]);
    out.durations.push_back(static_cast<double>(decoded.end_ns[i] - decoded.start_ns[i]));
  }
  ++active_;
  const double evaluate_ms = MillisecondsSince(evaluating);
  const auto next = std::chrono::steady_clock::now();
  if (active_ < passes_.size()) {
    status = sampler_->Start(passes_[active_]);
  } else {
    source_.KeepSampler(std::move(sampler_));  // for the context's next session (graphics_counter_source.h)
  }
  if (SamplerTraceOn()) {
    std::fprintf(stderr, "opengpa sampler pass %u evaluated in %.1f ms; %s in %.1f ms\n", active_ - 1, evaluate_ms,
                 active_ < passes_.size() ? "next pass started" : "session kept", MillisecondsSince(next));
  }
  return status;
}

GpaStatus SampledPasses::IntervalsClosedAfter(GpaUInt32 pass, const std::vector<std::uint64_t>& stamps_ns,
                                              const std::vector<std::uint64_t>& done_ns,
                                              std::vector<std::size_t>* intervals,
                                              std::vector<std::size_t>* short_counts) const {
  if (merged_[pass]) {
    return LogError(kGpaStatusErrorFailed, "pass {}: the GPU periodic sampler merged some of its triggers", pass);
  }
  const GpaStatus assigned = AssignIntervals(stamps_ns, done_ns, decoded_[pass].end_ns, intervals, short_counts);
  // OPENGPA_SAMPLER_TRACE=1: every interval and trigger of the pass on stderr, to see how samples were placed.
  if (SamplerTraceOn()) {
    const DecodedPass& decoded = decoded_[pass];
    const std::vector<std::size_t>& metrics = passes_[pass].metrics;
    for (std::size_t i = 0; i < decoded.end_ns.size(); ++i) {
      // Every metric of the pass, so that one can see which interval holds which work (e.g. a draw's vertex
      // threads counted before the trigger that begins its sample).
      std::string values;
      for (std::size_t m = 0; m < metrics.size() && m < decoded.values[i].size(); ++m) {
        char value[64];
        std::snprintf(value, sizeof value, "=%g", decoded.values[i][m]);
        values += ' ' + names_[metrics[m]] + value;
      }
      std::fprintf(stderr, "opengpa sampler pass %u interval %zu ends %llu (%.0f ns)%s\n", pass, i,
                   static_cast<unsigned long long>(decoded.end_ns[i]), decoded.durations[i], values.c_str());
    }
    for (std::size_t k = 0; k < stamps_ns.size(); ++k) {
      std::fprintf(stderr, "opengpa sampler pass %u trigger %zu stamp %llu done %llu -> interval %lld\n", pass, k,
                   static_cast<unsigned long long>(stamps_ns[k]),
                   static_cast<unsigned long long>(k < done_ns.size() ? done_ns[k] : 0),
                   k < intervals->size() ? static_cast<long long>((*intervals)[k]) : -1LL);
    }
  }
  if (GpaStatus status = assigned; status != kGpaStatusOk) {
    return LogError(status,
                    "pass {}: its samples cannot be placed in the GPU periodic sampler's intervals: the pass's command "
                    "buffers ran while the sampler had another pass's counters or none (submit each pass after the "
                    "previous pass's work has completed), or another process's triggers fell between them",
                    pass);
  }
  return kGpaStatusOk;
}

void SampledPasses::Accumulate(GpaUInt32 pass, std::size_t after, std::size_t last, std::vector<double>* sums,
                               std::vector<double>* weights) const {
  const DecodedPass& decoded = decoded_[pass];
  const std::vector<std::size_t>& metrics = passes_[pass].metrics;
  for (std::size_t i = after + 1; i <= last && i < decoded.values.size(); ++i) {
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      const std::size_t name = metrics[m];
      if (additive_[name]) {
        (*sums)[name] += decoded.values[i][m];
      } else {
        (*sums)[name] += decoded.values[i][m] * decoded.durations[i];
        (*weights)[name] += decoded.durations[i];
      }
    }
  }
}

void SampledPasses::Finish(const std::vector<double>& sums, const std::vector<double>& weights,
                           std::vector<double>* values) const {
  values->assign(names_.size(), 0.0);
  for (std::size_t i = 0; i < names_.size(); ++i) {
    (*values)[i] = additive_[i] ? sums[i] : (weights[i] > 0 ? sums[i] / weights[i] : 0.0);
  }
}

}  // namespace opengpa::nvidia
