#include "backends/opengl/gl_session.h"

#include <algorithm>
#include <utility>

#include "backends/common/timing_pass.h"
#include "platform/logging.h"

namespace opengpa::gl {
namespace {

// Nanoseconds from `origin` to `timestamp` on a GL clock that wraps after `bits` bits.
double NanosecondsSince(GLuint64 timestamp, GLint64 origin, GLint bits) {
  GLuint64 delta = timestamp - static_cast<GLuint64>(origin);
  if (bits > 0 && bits < 64) delta &= (GLuint64{1} << bits) - 1;
  return static_cast<double>(delta);
}

}  // namespace

GlSession::GlSession(std::shared_ptr<const ContextState> device, std::vector<HardwareCounterIndex> counters,
                     std::shared_ptr<nvidia::SampledPasses> sampled)
    : ImmediateSession("OpenGL", PassesWithTimingPass(sampled != nullptr ? sampled->PassCount() : 0, 1,
                                                      HoldsTimingCounter(device->counters, counters))),
      device_(std::move(device)),
      columns_(std::move(counters)),
      samples_(PassCount()),
      sampled_(std::move(sampled)),
      triggers_(PassCount(), 0) {
  int sampled_index = 0;
  for (HardwareCounterIndex index : columns_) {
    const GlHardwareCounter& counter = device_->counters[index];
    sampled_column_.push_back(counter.source == CounterSource::kSampledMetric ? sampled_index++ : -1);
    if (counter.source == CounterSource::kSampledMetric) continue;
    if (counter.source == CounterSource::kQuery) {
      bool seen = false;
      for (const GlHardwareCounter* other : query_counters_) seen = seen || other == &counter;
      if (!seen) query_counters_.push_back(&counter);
    } else {
      timestamps_ = true;
    }
  }
}

GpaStatus GlSession::Begin() {
  if (GpaStatus status = device_->context->RequireCurrent("GpaBeginSession"); status != kGpaStatusOk) return status;
  if (timestamps_) device_->gl.GetInteger64v(GL_TIMESTAMP, &origin_);
  if (sampled_ != nullptr) {
    device_->gl.Finish();  // the application's earlier work is not the first sample's
    return sampled_->Begin();
  }
  return kGpaStatusOk;
}

GpaStatus GlSession::BeginPass(GpaUInt32 pass) {
  if (sampled_ == nullptr) return kGpaStatusOk;
  if (pass < sampled_->ActivePass()) {
    return LogError(kGpaStatusErrorFailed,
                    "GpaBeginCommandList: pass {} comes after pass {}; the GPU periodic sampler takes OpenGL's passes "
                    "in order",
                    pass, sampled_->ActivePass());
  }
  if (pass == sampled_->ActivePass()) return kGpaStatusOk;
  if (GpaStatus status = device_->context->RequireCurrent("GpaBeginCommandList"); status != kGpaStatusOk) return status;
  return DecodeThrough(pass - 1);  // leaves the sampler sampling `pass`, or ended after its last pass
}

GpaStatus GlSession::Trigger(std::size_t* index) {
  device_->gl.Finish();  // a CPU trigger closes the interval when it is fired: the work before it must be done
  if (GpaStatus status = sampled_->CpuTrigger(); status != kGpaStatusOk) return status;
  *index = triggers_[CurrentPass()]++;
  return kGpaStatusOk;
}

bool GlSession::PassEnded(GpaUInt32 pass) const {
  for (const auto& sample : samples_[pass]) {
    if (sample != nullptr && !sample->ended) return false;
  }
  return true;
}

GpaStatus GlSession::DecodeThrough(GpaUInt32 pass) {
  while (sampled_->ActivePass() <= pass && sampled_->ActivePass() < sampled_->PassCount()) {
    const GpaUInt32 active = sampled_->ActivePass();
    if (!PassEnded(active)) {
      return LogError(kGpaStatusErrorSampleNotEnded, "pass {} still has an open sample", active);
    }
    device_->gl.Finish();
    if (GpaStatus status = sampled_->Advance(triggers_[active]); status != kGpaStatusOk) return status;
    if (sampled_->IntervalCount(active) < triggers_[active]) {
      return LogError(
          kGpaStatusErrorFailed,
          "pass {}: the GPU periodic sampler decoded {} interval(s) for {} trigger(s); its samples cannot be "
          "told apart",
          active, sampled_->IntervalCount(active), triggers_[active]);
    }
  }
  return kGpaStatusOk;
}

GpaStatus GlSession::End() {
  if (GpaStatus status = device_->context->RequireCurrent("GpaEndSession"); status != kGpaStatusOk) return status;
  if (GpaStatus status = RequireNoOpenSample("GpaEndSession"); status != kGpaStatusOk) return status;
  // Results become available only once the commands reach the GPU.
  device_->gl.Flush();
  return kGpaStatusOk;
}

GpaStatus GlSession::CheckTargetsFree(SampleSlot slot) const {
  const Api& gl = device_->gl;
  for (const GlHardwareCounter* counter : query_counters_) {
    // The counter's own target, then the ones GL does not let be active beside it; checked in place
    // because this runs in every GpaBeginSample.
    auto check = [&](GLenum target) {
      GLint active = 0;
      gl.GetQueryiv(target, GL_CURRENT_QUERY, &active);
      if (active == 0) return kGpaStatusOk;
      return LogError(kGpaStatusErrorFailed,
                      "GpaBeginSample (slot {}): the application's query {} is active on target 0x{:04X}, which "
                      "counter {} needs; GL allows one active query per target. End that query before "
                      "GpaBeginSample or disable {}",
                      slot, active, target, counter->info.name, counter->info.name);
    };
    if (GpaStatus status = check(counter->target); status != kGpaStatusOk) return status;
    for (GLenum target : counter->conflicting_targets) {
      if (GpaStatus status = check(target); status != kGpaStatusOk) return status;
    }
  }
  return kGpaStatusOk;
}

GpaStatus GlSession::BeginSample(BackendCommandList& /*list*/, SampleSlot slot) {
  if (GpaStatus status = device_->context->RequireCurrent("GpaBeginSample"); status != kGpaStatusOk) return status;
  std::vector<std::unique_ptr<Sample>>& samples = samples_[CurrentPass()];
  if (GpaStatus status = CheckSampleCanBegin(slot, slot < samples.size() && samples[slot] != nullptr);
      status != kGpaStatusOk) {
    return status;
  }
  // Timestamps and statistics are read from one pass; the others exist for the sampler's counters.
  const bool queries = CurrentPass() == QueryPass();
  if (queries) {
    if (GpaStatus status = CheckTargetsFree(slot); status != kGpaStatusOk) return status;
  }

  const Api& gl = device_->gl;
  auto sample =
      std::make_unique<Sample>(Sample{QueryNames(device_, queries ? FirstQueryIndex() + query_counters_.size() : 0)});
  if (Triggered(CurrentPass())) {
    if (GpaStatus status = Trigger(&sample->first_trigger); status != kGpaStatusOk) return status;
  }
  // The queries begin before the first timestamp and end after the last, so that GPUTime holds the sample's work
  // alone: begun and ended inside them, the statistics queries of NVIDIA's driver added 7-13 µs to each sample
  // (on the H200, a draw of 1,000 triangles read 13.9 µs against 0.64 µs).
  for (std::size_t i = 0; queries && i < query_counters_.size(); ++i) {
    gl.BeginQuery(query_counters_[i]->target, sample->queries[FirstQueryIndex() + i]);
  }
  if (queries && timestamps_) gl.QueryCounter(sample->queries[0], GL_TIMESTAMP);
  if (samples.size() <= slot) samples.resize(slot + 1);
  samples[slot] = std::move(sample);
  SampleOpened(slot);
  return kGpaStatusOk;
}

GpaStatus GlSession::EndSample(BackendCommandList& /*list*/, SampleSlot slot) {
  if (GpaStatus status = device_->context->RequireCurrent("GpaEndSample"); status != kGpaStatusOk) return status;
  if (GpaStatus status = CheckSampleIsOpen(slot); status != kGpaStatusOk) return status;
  const Api& gl = device_->gl;
  Sample& sample = *samples_[CurrentPass()][slot];
  const bool queries = CurrentPass() == QueryPass();
  if (queries && timestamps_) gl.QueryCounter(sample.queries[1], GL_TIMESTAMP);
  for (std::size_t i = queries ? query_counters_.size() : 0; i-- > 0;) {
    const GlHardwareCounter& counter = *query_counters_[i];
    GLuint ours = sample.queries[FirstQueryIndex() + i];
    GLint active = 0;
    gl.GetQueryiv(counter.target, GL_CURRENT_QUERY, &active);
    if (static_cast<GLuint>(active) == ours) {
      gl.EndQuery(counter.target);
    } else {
      // The sample still ends (so the session can end); reading results reports the loss.
      sample.broken = true;
      Log(kGpaLoggingError,
          "GpaEndSample (slot {}): GPA's query {} for {} is no longer active (active query on target 0x{:04X}: {}); "
          "the application ended it inside the sample, so the session's results will be unavailable",
          slot, ours, counter.info.name, counter.target, active);
    }
  }
  if (Triggered(CurrentPass())) {
    if (GpaStatus status = Trigger(&sample.last_trigger); status != kGpaStatusOk) return status;
  }
  sample.ended = true;
  SampleClosed();
  return kGpaStatusOk;
}

bool GlSession::IsPassComplete(GpaUInt32 pass) {
  if (pass >= PassCount() || !device_->context->IsCurrent()) return false;
  if (Triggered(pass)) {
    // Each sample's work was finished when its trigger fired, so decoding now waits for nothing.
    if (pass >= sampled_->ActivePass() && (!PassEnded(pass) || DecodeThrough(pass) != kGpaStatusOk)) return false;
    if (pass != QueryPass()) return sampled_->Decoded(pass);
  }
  const Api& gl = device_->gl;
  for (const auto& sample : samples_[pass]) {
    if (sample == nullptr) continue;
    if (!sample->ended) return false;
    for (std::size_t i = 0; i < sample->queries.size(); ++i) {
      GLuint available = GL_FALSE;
      gl.GetQueryObjectuiv(sample->queries[i], GL_QUERY_RESULT_AVAILABLE, &available);
      if (available == GL_FALSE) return false;
    }
  }
  return true;
}

double GlSession::ValueOf(const GlHardwareCounter& counter, const std::vector<GLuint64>& results) const {
  switch (counter.source) {
    case CounterSource::kTimestampAtBegin: return NanosecondsSince(results[0], origin_, device_->caps.timestamp_bits);
    case CounterSource::kTimestampAtEnd: return NanosecondsSince(results[1], origin_, device_->caps.timestamp_bits);
    case CounterSource::kQuery:
      for (std::size_t i = 0; i < query_counters_.size(); ++i) {
        if (query_counters_[i] == &counter) return static_cast<double>(results[FirstQueryIndex() + i]);
      }
      break;
  }
  return 0.0;
}

GpaStatus GlSession::SampledValues(SampleSlot slot, std::vector<double>* values) const {
  std::vector<double> sums(static_cast<std::size_t>(std::count_if(sampled_column_.begin(), sampled_column_.end(),
                                                                  [](int c) { return c >= 0; })),
                           0.0);
  std::vector<double> weights(sums.size(), 0.0);
  for (GpaUInt32 pass = 0; pass < SamplerPassCount(); ++pass) {
    const Sample* sample = slot < samples_[pass].size() ? samples_[pass][slot].get() : nullptr;
    if (sample == nullptr || !sample->ended) {
      return LogError(kGpaStatusErrorSampleNotFound,
                      "GpaGetSampleResult: sample slot {} was not sampled in pass {}: every pass must sample the same "
                      "work",
                      slot, pass);
    }
    // Interval k is the work before the pass's trigger k, so the sample is intervals first+1 .. last.
    sampled_->Accumulate(pass, sample->first_trigger, sample->last_trigger, &sums, &weights);
  }
  sampled_->Finish(sums, weights, values);
  return kGpaStatusOk;
}

GpaStatus GlSession::ReadResults(SampleSlot slot_count, std::vector<double>* values) {
  if (GpaStatus status = device_->context->RequireCurrent("GpaGetSampleResult"); status != kGpaStatusOk) {
    return status;
  }
  const Api& gl = device_->gl;
  if (sampled_ != nullptr) {
    if (GpaStatus status = DecodeThrough(SamplerPassCount() - 1); status != kGpaStatusOk) return status;
  }
  values->assign(static_cast<std::size_t>(slot_count) * columns_.size(), 0.0);
  std::vector<GLuint64> results;
  std::vector<double> sampled;
  const std::vector<std::unique_ptr<Sample>>& samples = samples_[QueryPass()];
  for (SampleSlot slot = 0; slot < slot_count && slot < samples.size(); ++slot) {
    const Sample* sample = samples[slot].get();
    if (sample == nullptr) continue;
    if (!sample->ended) {
      return LogError(kGpaStatusErrorSampleNotEnded, "GpaGetSampleResult: sample slot {} was never ended", slot);
    }
    if (sample->broken) {
      return LogError(kGpaStatusErrorReadingSampleResult,
                      "GpaGetSampleResult: the application ended one of GPA's queries inside sample slot {}", slot);
    }
    results.assign(sample->queries.size(), 0);
    for (std::size_t i = 0; i < sample->queries.size(); ++i) {
      gl.GetQueryObjectui64v(sample->queries[i], GL_QUERY_RESULT, &results[i]);  // waits for the GPU
    }
    if (sampled_ != nullptr) {
      if (GpaStatus status = SampledValues(slot, &sampled); status != kGpaStatusOk) return status;
    }
    for (std::size_t column = 0; column < columns_.size(); ++column) {
      (*values)[slot * columns_.size() + column] = sampled_column_[column] >= 0
                                                       ? sampled[static_cast<std::size_t>(sampled_column_[column])]
                                                       : ValueOf(device_->counters[columns_[column]], results);
    }
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::gl
