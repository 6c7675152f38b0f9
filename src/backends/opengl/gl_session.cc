#include "backends/opengl/gl_session.h"

#include <utility>

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

GlSession::GlSession(std::shared_ptr<const ContextState> device, std::vector<HardwareCounterIndex> counters)
    : ImmediateSession("OpenGL"), device_(std::move(device)), columns_(std::move(counters)) {
  for (HardwareCounterIndex index : columns_) {
    const GlHardwareCounter& counter = device_->counters[index];
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
  if (GpaStatus status = CheckSampleCanBegin(slot, slot < samples_.size() && samples_[slot] != nullptr);
      status != kGpaStatusOk) {
    return status;
  }
  if (GpaStatus status = CheckTargetsFree(slot); status != kGpaStatusOk) return status;

  const Api& gl = device_->gl;
  auto sample = std::make_unique<Sample>(Sample{QueryNames(device_, FirstQueryIndex() + query_counters_.size())});
  if (timestamps_) gl.QueryCounter(sample->queries[0], GL_TIMESTAMP);
  for (std::size_t i = 0; i < query_counters_.size(); ++i) {
    gl.BeginQuery(query_counters_[i]->target, sample->queries[FirstQueryIndex() + i]);
  }
  if (samples_.size() <= slot) samples_.resize(slot + 1);
  samples_[slot] = std::move(sample);
  SampleOpened(slot);
  return kGpaStatusOk;
}

GpaStatus GlSession::EndSample(BackendCommandList& /*list*/, SampleSlot slot) {
  if (GpaStatus status = device_->context->RequireCurrent("GpaEndSample"); status != kGpaStatusOk) return status;
  if (GpaStatus status = CheckSampleIsOpen(slot); status != kGpaStatusOk) return status;
  const Api& gl = device_->gl;
  Sample& sample = *samples_[slot];
  for (std::size_t i = query_counters_.size(); i-- > 0;) {
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
  if (timestamps_) gl.QueryCounter(sample.queries[1], GL_TIMESTAMP);
  sample.ended = true;
  SampleClosed();
  return kGpaStatusOk;
}

bool GlSession::IsPassComplete(GpaUInt32 pass) {
  if (pass != 0 || !device_->context->IsCurrent()) return false;
  const Api& gl = device_->gl;
  for (const auto& sample : samples_) {
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
    case CounterSource::kTimestampAtBegin:
      return NanosecondsSince(results[0], origin_, device_->caps.timestamp_bits);
    case CounterSource::kTimestampAtEnd:
      return NanosecondsSince(results[1], origin_, device_->caps.timestamp_bits);
    case CounterSource::kQuery:
      for (std::size_t i = 0; i < query_counters_.size(); ++i) {
        if (query_counters_[i] == &counter) return static_cast<double>(results[FirstQueryIndex() + i]);
      }
      break;
  }
  return 0.0;
}

GpaStatus GlSession::ReadResults(SampleSlot slot_count, std::vector<double>* values) {
  if (GpaStatus status = device_->context->RequireCurrent("GpaGetSampleResult"); status != kGpaStatusOk) {
    return status;
  }
  const Api& gl = device_->gl;
  values->assign(static_cast<std::size_t>(slot_count) * columns_.size(), 0.0);
  std::vector<GLuint64> results;
  for (SampleSlot slot = 0; slot < slot_count && slot < samples_.size(); ++slot) {
    const Sample* sample = samples_[slot].get();
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
    for (std::size_t column = 0; column < columns_.size(); ++column) {
      (*values)[slot * columns_.size() + column] = ValueOf(device_->counters[columns_[column]], results);
    }
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::gl
