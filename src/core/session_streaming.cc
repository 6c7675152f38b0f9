// Streaming sessions (kGpaSessionSampleTypeStreamingCounter): the options, the one span of streaming, and the
// series it leaves, evaluated into the enabled counters sample by sample. docs/gpa4.md "Streaming counters".
#include <algorithm>

#include "core/context.h"
#include "core/session.h"
#include "platform/logging.h"

namespace opengpa {
namespace {

using Lock = std::lock_guard<std::mutex>;

}  // namespace

bool Session::streaming() const {
  return sample_type_ == kGpaSessionSampleTypeStreamingCounter ||
         sample_type_ == kGpaSessionSampleTypeStreamingCounterAndSqtt;
}

GpaStatus Session::CheckStreamableLocked(const std::vector<std::uint32_t>& enabled) {
  return context_.backend().CheckStreamable(context_.counters().HardwareNeeded(enabled));
}

namespace {

// The options can change until the span begins; the backend reads them then.
GpaStatus SetOption(const char* what, std::uint64_t value, bool span_begun, std::uint64_t* option) {
  if (span_begun) {
    return LogError(kGpaStatusErrorCannotChangeCountersWhenSampling,
                    "the streaming {} cannot change once streaming has begun", what);
  }
  if (value == 0) return LogError(kGpaStatusErrorInvalidParameter, "a streaming {} of 0 is not valid", what);
  *option = value;
  return kGpaStatusOk;
}

}  // namespace

GpaStatus Session::SetStreamingInterval(std::uint64_t interval_ns) {
  Lock lock(mutex_);
  return SetOption("interval", interval_ns, span_ != Span::kNone, &streaming_options_.interval_ns);
}

GpaStatus Session::SetStreamingDuration(std::uint64_t duration_ns) {
  Lock lock(mutex_);
  return SetOption("duration", duration_ns, span_ != Span::kNone, &streaming_options_.duration_ns);
}

GpaStatus Session::SetStreamingBufferBytes(std::uint64_t bytes) {
  Lock lock(mutex_);
  return SetOption("buffer size", bytes, span_ != Span::kNone, &streaming_options_.hardware_buffer_bytes);
}

GpaStatus Session::StartSpanLocked(const char* function) {
  if (state_ != State::kStarted) {
    return LogError(kGpaStatusErrorSessionNotStarted, "{}: the session {}", function,
                    state_ == State::kEnded ? "was already ended" : "was not begun with GpaBeginSession");
  }
  if (span_ != Span::kNone) {
    return LogError(kGpaStatusErrorAlreadyEnabled, "{}: the session's streaming {}; a session streams once", function,
                    span_ == Span::kRunning ? "is already running" : "already ran");
  }
  if (GpaStatus status = backend_->StartStreaming(streaming_options_); status != kGpaStatusOk) {
    return LogError(status, "{}: the backend could not start streaming (interval {} ns)", function,
                    streaming_options_.interval_ns);
  }
  span_ = Span::kRunning;
  return kGpaStatusOk;
}

GpaStatus Session::StopSpanLocked(const char* function) {
  if (state_ != State::kStarted) {
    return LogError(kGpaStatusErrorSessionNotStarted, "{}: the session {}", function,
                    state_ == State::kEnded ? "was already ended" : "was not begun with GpaBeginSession");
  }
  if (span_ != Span::kRunning) {
    return LogError(kGpaStatusErrorNotEnabled, "{}: the session's streaming {}", function,
                    span_ == Span::kNone ? "was not begun" : "was already ended");
  }
  span_ = Span::kStopped;  // stopped whatever the backend says: its samples are what they are
  if (GpaStatus status = backend_->StopStreaming(); status != kGpaStatusOk) {
    return LogError(status, "{}: the backend could not stop streaming", function);
  }
  return kGpaStatusOk;
}

GpaStatus Session::SpmBegin() {
  Lock lock(mutex_);
  if (state_ == State::kStarted && !slots_.empty()) {
    return LogError(kGpaStatusErrorAlreadyEnabled,
                    "GpaSpmBegin: the session's one streaming span is its sample (GpaBeginSample) already");
  }
  return StartSpanLocked("GpaSpmBegin");
}

GpaStatus Session::SpmEnd() {
  Lock lock(mutex_);
  if (state_ == State::kStarted && !slots_.empty()) {
    return LogError(kGpaStatusErrorNotEnabled,
                    "GpaSpmEnd: the session streams through its sample; end it with "
                    "GpaEndSample");
  }
  return StopSpanLocked("GpaSpmEnd");
}

GpaStatus Session::ReadStreamingSeriesLocked() {
  if (state_ != State::kEnded) {
    return LogError(kGpaStatusErrorSessionNotEnded, "streamed results exist once GpaEndSession succeeded");
  }
  if (span_ != Span::kStopped) {
    return LogError(kGpaStatusErrorSampleNotFound, "the session streamed nothing (no GpaSpmBegin..GpaSpmEnd)");
  }
  if (series_read_) return kGpaStatusOk;
  StreamingSeries series;
  if (GpaStatus status = backend_->ReadStreamingSeries(&series); status != kGpaStatusOk) {
    return LogError(kGpaStatusErrorReadingSampleResult, "the backend could not read the streamed samples (status {})",
                    static_cast<int>(status));
  }
  if (series.end_ns.size() != series.start_ns.size() ||
      series.values.size() != series.start_ns.size() * hardware_.size()) {
    return LogError(kGpaStatusErrorReadingSampleResult,
                    "the backend returned {} values for {} streamed samples of {} hardware counters",
                    series.values.size(), series.start_ns.size(), hardware_.size());
  }
  series_ = std::move(series);
  series_read_ = true;
  return kGpaStatusOk;
}

GpaStatus Session::GetStreamingSeries(StreamingSeries* series, std::vector<HardwareCounterIndex>* columns) {
  Lock lock(mutex_);
  if (GpaStatus status = ReadStreamingSeriesLocked(); status != kGpaStatusOk) return status;
  *series = series_;
  *columns = hardware_;
  return kGpaStatusOk;
}

GpaStatus Session::EvaluateStreaming(const std::vector<HardwareCounterIndex>& columns, std::size_t rows,
                                     const std::vector<double>& raw, std::vector<std::uint64_t>* out) {
  Lock lock(mutex_);
  if (state_ != State::kEnded) {
    return LogError(kGpaStatusErrorSessionNotEnded, "streamed results exist once GpaEndSession succeeded");
  }
  for (HardwareCounterIndex column : columns) {
    if (column >= context_.backend().HardwareCounters().size()) {
      return LogError(kGpaStatusErrorInvalidParameter, "hardware counter index {} is not below the counter count {}",
                      column, context_.backend().HardwareCounters().size());
    }
  }
  // Every hardware counter the enabled counters need must be among the columns.
  for (HardwareCounterIndex needed : hardware_) {
    if (std::find(columns.begin(), columns.end(), needed) == columns.end()) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "the streamed data lacks hardware counter {} ('{}'), which the enabled counters need", needed,
                      context_.backend().HardwareCounters().at(needed).name);
    }
  }
  if (raw.size() != rows * columns.size()) {
    return LogError(kGpaStatusErrorInvalidParameter, "{} raw values are not {} samples of {} counters", raw.size(),
                    rows, columns.size());
  }
  SampleResultStore store;
  store.Evaluate(context_.counters(), enabled_, columns, context_.backend().HardwareCounters().size(),
                 static_cast<SampleSlot>(rows), raw);
  out->assign(rows * enabled_.size(), 0);
  for (std::size_t row = 0; row < rows; ++row) {
    store.CopyRow(static_cast<SampleSlot>(row), out->data() + row * enabled_.size());
  }
  return kGpaStatusOk;
}

}  // namespace opengpa
