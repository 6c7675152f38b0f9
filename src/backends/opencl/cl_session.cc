#include "backends/opencl/cl_session.h"

#include <cstdint>
#include <utility>

#include "platform/logging.h"

namespace opengpa::cl {
namespace {

bool IsFinished(cl_event event) {
  cl_int status = CL_QUEUED;
  if (clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) != CL_SUCCESS) {
    return true;  // ReadResults reports the failure
  }
  return status <= CL_COMPLETE;  // CL_COMPLETE is 0; negative values are errors
}

GpaStatus ProfilingTime(cl_event event, cl_profiling_info when, const char* what, SampleSlot slot, cl_ulong* out) {
  cl_int status = clGetEventProfilingInfo(event, when, sizeof *out, out, nullptr);
  if (status != CL_SUCCESS) {
    return LogError(kGpaStatusErrorReadingSampleResult,
                    "GpaGetSampleResult: clGetEventProfilingInfo(0x{:X}) of the {} of sample slot {} returned {}", when,
                    what, slot, status);
  }
  return kGpaStatusOk;
}

// A driver that does not time a command reports 0 or an END before its START; such values are refused
// rather than turned into times.
GpaStatus CheckDeviceTimes(cl_event event, const char* what, SampleSlot slot) {
  cl_ulong start = 0;
  cl_ulong end = 0;
  if (GpaStatus status = ProfilingTime(event, CL_PROFILING_COMMAND_START, what, slot, &start); status != kGpaStatusOk) {
    return status;
  }
  if (GpaStatus status = ProfilingTime(event, CL_PROFILING_COMMAND_END, what, slot, &end); status != kGpaStatusOk) {
    return status;
  }
  if (start == 0 || end < start) {
    return LogError(kGpaStatusErrorReadingSampleResult,
                    "GpaGetSampleResult: the driver timed the {} of sample slot {} as START {} END {}, which are not "
                    "device times",
                    what, slot, start, end);
  }
  return kGpaStatusOk;
}

}  // namespace

GpaStatus ClSession::Begin() {
  cl_event origin = nullptr;
  cl_int status = clEnqueueMarkerWithWaitList(queue_->queue.get(), 0, nullptr, &origin);
  if (status != CL_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "GpaBeginSession: clEnqueueMarkerWithWaitList returned {}", status);
  }
  origin_.reset(origin);
  return kGpaStatusOk;
}

GpaStatus ClSession::End() {
  if (GpaStatus status = RequireNoOpenSample("GpaEndSession"); status != kGpaStatusOk) return status;
  cl_int status = clFlush(queue_->queue.get());
  if (status != CL_SUCCESS) return LogError(kGpaStatusErrorFailed, "GpaEndSession: clFlush returned {}", status);
  return kGpaStatusOk;
}

GpaStatus ClSession::BeginSample(BackendCommandList& /*list*/, SampleSlot slot) {
  if (GpaStatus status = CheckSampleCanBegin(slot, slot < samples_.size() && samples_[slot] != nullptr);
      status != kGpaStatusOk) {
    return status;
  }
  cl_event begin = nullptr;
  cl_int status = clEnqueueMarkerWithWaitList(queue_->queue.get(), 0, nullptr, &begin);
  if (status != CL_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "GpaBeginSample (slot {}): clEnqueueMarkerWithWaitList returned {}", slot,
                    status);
  }
  Event begin_event(begin);
  if (queue_->out_of_order) {
    // Keeps the sample's commands from starting before the begin marker has completed.
    status = clEnqueueBarrierWithWaitList(queue_->queue.get(), 1, &begin, nullptr);
    if (status != CL_SUCCESS) {
      return LogError(kGpaStatusErrorFailed, "GpaBeginSample (slot {}): clEnqueueBarrierWithWaitList returned {}", slot,
                      status);
    }
  }
  if (samples_.size() <= slot) samples_.resize(slot + 1);
  samples_[slot] = std::make_unique<Sample>();
  samples_[slot]->begin = std::move(begin_event);
  SampleOpened(slot);
  return kGpaStatusOk;
}

GpaStatus ClSession::EndSample(BackendCommandList& /*list*/, SampleSlot slot) {
  if (GpaStatus status = CheckSampleIsOpen(slot); status != kGpaStatusOk) return status;
  cl_event end = nullptr;
  cl_int status = clEnqueueMarkerWithWaitList(queue_->queue.get(), 0, nullptr, &end);
  if (status != CL_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "GpaEndSample (slot {}): clEnqueueMarkerWithWaitList returned {}", slot,
                    status);
  }
  samples_[slot]->end.reset(end);
  SampleClosed();
  return kGpaStatusOk;
}

bool ClSession::IsPassComplete(GpaUInt32 pass) {
  if (pass != 0) return false;
  for (const auto& sample : samples_) {
    if (sample == nullptr) continue;
    if (sample->end == nullptr || !IsFinished(sample->end.get()) || !IsFinished(sample->begin.get())) return false;
  }
  return true;
}

GpaStatus ClSession::ReadResults(SampleSlot slot_count, std::vector<double>* values) {
  values->assign(static_cast<std::size_t>(slot_count) * columns_.size(), 0.0);
  cl_event origin_event = origin_.get();
  if (clWaitForEvents(1, &origin_event) != CL_SUCCESS) {
    // clWaitForEvents fails if any listed command failed; the profiling queries below say which.
    Log(kGpaLoggingMessage, "GpaGetSampleResult: the session-start marker did not complete normally");
  }
  cl_ulong origin = 0;
  if (GpaStatus status = ProfilingTime(origin_.get(), CL_PROFILING_COMMAND_QUEUED, "session-start marker", 0, &origin);
      status != kGpaStatusOk) {
    return status;
  }
  const std::vector<ClHardwareCounter>& counters = BuildHardwareCounters();
  for (SampleSlot slot = 0; slot < slot_count && slot < samples_.size(); ++slot) {
    const Sample* sample = samples_[slot].get();
    if (sample == nullptr) continue;
    if (sample->end == nullptr) {
      return LogError(kGpaStatusErrorSampleNotEnded, "GpaGetSampleResult: sample slot {} was never ended", slot);
    }
    cl_event events[2] = {sample->begin.get(), sample->end.get()};
    cl_int wait = clWaitForEvents(2, events);
    if (wait != CL_SUCCESS) {
      return LogError(kGpaStatusErrorReadingSampleResult,
                      "GpaGetSampleResult: the commands around sample slot {} did not complete (clWaitForEvents "
                      "returned {})",
                      slot, wait);
    }
    if (GpaStatus status = CheckDeviceTimes(events[0], "begin marker", slot); status != kGpaStatusOk) return status;
    if (GpaStatus status = CheckDeviceTimes(events[1], "end marker", slot); status != kGpaStatusOk) return status;
    for (std::size_t column = 0; column < columns_.size(); ++column) {
      const ClHardwareCounter& counter = counters[columns_[column]];
      const bool begin = counter.bracket == Bracket::kBeginMarker;
      cl_ulong time = 0;
      if (GpaStatus status = ProfilingTime(begin ? events[0] : events[1], counter.when,
                                           begin ? "begin marker" : "end marker", slot, &time);
          status != kGpaStatusOk) {
        return status;
      }
      // Signed, so a device clock that ran backwards shows as a negative time instead of wrapping.
      (*values)[slot * columns_.size() + column] = static_cast<double>(static_cast<std::int64_t>(time - origin));
    }
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::cl
