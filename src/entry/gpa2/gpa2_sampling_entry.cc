// Sessions, passes and samples: GPA_BeginSession ... GPA_EndSample, and OpenGpa2BeginPassOnCommandList.
// A v2 pass is one v3 command list; a pass beyond those the counters need records nothing, as in AMD's v2.
#include "entry/gpa2/gpa2_state.h"
#include "entry/gpa2/gpa2_status.h"
#include "gpu_performance_api/v2/GPUPerfAPI-OpenGPA.h"

using namespace opengpa::gpa2;

namespace {

GPA_Status CheckRecording(const char* function, const V2Context& context) {
  if (!context.recording) {
    return Fail(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED, "{}: call GPA_BeginSession first", function);
  }
  return GPA_STATUS_OK;
}

// Drops the session being recorded when it cannot be ended: its id then reads SESSION_NOT_FOUND.
void DropLastSession(V2Context& context) {
  GpaDeleteSession(context.sessions.back().v3);
  context.sessions.pop_back();
}

GPA_Status BeginPass(const char* function, void* command_list) {
  return WithCurrentContext(function, [&](V2Context& context) {
    if (GPA_Status status = CheckRecording(function, context); status != GPA_STATUS_OK) return status;
    Recording& recording = *context.recording;
    if (recording.pass_open) {
      return Fail(GPA_STATUS_ERROR_PASS_ALREADY_STARTED, "{}: call GPA_EndPass to end pass {} first", function,
                  recording.passes_begun - 1);
    }
    const V2Session& session = context.sessions.back();
    const gpa_uint32 pass = recording.passes_begun;
    GpaCommandListId list = nullptr;
    if (pass < session.pass_count) {
      const GpaStatus status =
          GpaBeginCommandList(session.v3, pass, command_list,
                              command_list != nullptr ? kGpaCommandListPrimary : kGpaCommandListNone, &list);
      if (status != kGpaStatusOk) {
        return Fail(GPA_STATUS_ERROR_FAILED, "{}: pass {} could not begin ({}; see the message before)", function, pass,
                    GpaGetStatusAsStr(status));
      }
    } else {
      Log(GPA_LOGGING_MESSAGE, "{}: pass {} is not needed (the counters take {}): its samples record nothing", function,
          pass, session.pass_count);
    }
    recording.pass_open = true;
    recording.list = list;
    recording.passes_begun++;
    recording.ids_in_pass.clear();
    recording.samples_in_pass = 0;
    return GPA_STATUS_OK;
  });
}

}  // namespace

GPA_Status GPA_BeginSession(gpa_uint32* sessionID) {
  return WithCurrentContext("GPA_BeginSession", [&](V2Context& context) {
    if (sessionID == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_BeginSession: sessionID is NULL");
    const std::vector<gpa_uint32> enabled = EnabledCounters(context.selection);
    if (enabled.empty()) {
      return Fail(GPA_STATUS_ERROR_NO_COUNTERS_ENABLED, "GPA_BeginSession: enable at least one counter first");
    }
    if (context.recording) {
      return Fail(GPA_STATUS_ERROR_SAMPLING_ALREADY_STARTED,
                  "GPA_BeginSession: session {} is still open: call GPA_EndSession", context.sessions.back().id);
    }
    V2Session session;
    session.v3 = context.selection;
    session.enabled = enabled;
    if (GpaStatus status = GpaGetPassCount(session.v3, &session.pass_count); status != kGpaStatusOk) {
      return Fail(GPA_STATUS_ERROR_FAILED, "GPA_BeginSession: the passes could not be counted");
    }
    // The next selection first, so that a failure leaves everything as it was.
    GpaSessionId next_selection = CreateSelection(context.v3, enabled);
    if (next_selection == nullptr) {
      return Fail(GPA_STATUS_ERROR_FAILED, "GPA_BeginSession: the session could not be created");
    }
    if (GpaStatus status = GpaBeginSession(session.v3); status != kGpaStatusOk) {
      GpaDeleteSession(next_selection);
      return Fail(GPA_STATUS_ERROR_FAILED, "GPA_BeginSession: the session could not begin ({})",
                  GpaGetStatusAsStr(status));
    }
    context.selection = next_selection;
    session.id = context.next_session_id++;
    session.pass_samples.resize(session.pass_count);
    if (context.sessions.size() == kBufferedSessions) {
      GpaDeleteSession(context.sessions.front().v3);
      context.sessions.pop_front();
    }
    context.sessions.push_back(std::move(session));
    context.recording.emplace();
    *sessionID = context.sessions.back().id;
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_EndSession() {
  return WithCurrentContext("GPA_EndSession", [&](V2Context& context) {
    if (GPA_Status status = CheckRecording("GPA_EndSession", context); status != GPA_STATUS_OK) return status;
    if (context.recording->pass_open) {
      return Fail(GPA_STATUS_ERROR_PASS_NOT_ENDED, "GPA_EndSession: call GPA_EndPass first");
    }
    const gpa_uint32 passes_begun = context.recording->passes_begun;
    context.recording.reset();
    V2Session& session = context.sessions.back();
    if (passes_begun < session.pass_count) {
      const gpa_uint32 id = session.id, needed = session.pass_count;
      DropLastSession(context);
      return Fail(GPA_STATUS_ERROR_NOT_ENOUGH_PASSES,
                  "GPA_EndSession: session {} had {} pass(es); its counters need {}", id, passes_begun, needed);
    }
    if (GpaStatus status = GpaEndSession(session.v3); status != kGpaStatusOk) {
      const gpa_uint32 id = session.id;
      DropLastSession(context);
      const GPA_Status v2_status = status == kGpaStatusErrorVariableNumberOfSamplesInPasses
                                       ? GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES
                                       : GPA_STATUS_ERROR_FAILED;
      return Fail(v2_status, "GPA_EndSession: session {} could not end ({}; see the message before); it is dropped", id,
                  GpaGetStatusAsStr(status));
    }
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_BeginPass() { return BeginPass("GPA_BeginPass", nullptr); }

GPA_Status OpenGpa2BeginPassOnCommandList(void* command_list) {
  if (command_list == nullptr) {
    return Guarded("OpenGpa2BeginPassOnCommandList", [] {
      return Fail(GPA_STATUS_ERROR_NULL_POINTER, "OpenGpa2BeginPassOnCommandList: command_list is NULL");
    });
  }
  return BeginPass("OpenGpa2BeginPassOnCommandList", command_list);
}

GPA_Status GPA_EndPass() {
  return WithCurrentContext("GPA_EndPass", [&](V2Context& context) {
    if (GPA_Status status = CheckRecording("GPA_EndPass", context); status != GPA_STATUS_OK) return status;
    Recording& recording = *context.recording;
    if (!recording.pass_open) return Fail(GPA_STATUS_ERROR_PASS_NOT_STARTED, "GPA_EndPass: call GPA_BeginPass first");
    if (recording.sample_open) {
      return Fail(GPA_STATUS_ERROR_SAMPLE_NOT_ENDED, "GPA_EndPass: call GPA_EndSample to end sample {} first",
                  recording.open_sample_id);
    }
    // The pass ends either way, so the application is never stuck in it.
    GPA_Status result = GPA_STATUS_OK;
    if (recording.passes_begun == 1) {
      recording.samples_in_first_pass = recording.samples_in_pass;
    } else if (recording.samples_in_pass != recording.samples_in_first_pass) {
      result = Fail(GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES,
                    "GPA_EndPass: pass {} has {} sample(s), the first pass {}", recording.passes_begun - 1,
                    recording.samples_in_pass, recording.samples_in_first_pass);
    }
    if (recording.list != nullptr) {
      if (GpaStatus status = GpaEndCommandList(recording.list); status != kGpaStatusOk && result == GPA_STATUS_OK) {
        result = Fail(GPA_STATUS_ERROR_FAILED, "GPA_EndPass: the pass could not end ({})", GpaGetStatusAsStr(status));
      }
    }
    recording.pass_open = false;
    recording.list = nullptr;
    return result;
  });
}

GPA_Status GPA_BeginSample(gpa_uint32 sampleID) {
  return WithCurrentContext("GPA_BeginSample", [&](V2Context& context) {
    if (GPA_Status status = CheckRecording("GPA_BeginSample", context); status != GPA_STATUS_OK) return status;
    Recording& recording = *context.recording;
    if (!recording.pass_open) {
      return Fail(GPA_STATUS_ERROR_PASS_NOT_STARTED, "GPA_BeginSample: call GPA_BeginPass first");
    }
    if (recording.sample_open) {
      return Fail(GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED, "GPA_BeginSample: call GPA_EndSample to end sample {} first",
                  recording.open_sample_id);
    }
    if (recording.ids_in_pass.count(sampleID) != 0) {
      return Fail(GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED, "GPA_BeginSample: sampleID {} was already used in this pass",
                  sampleID);
    }
    if (recording.list != nullptr) {
      if (GpaStatus status = GpaBeginSample(sampleID, recording.list); status != kGpaStatusOk) {
        return Fail(GPA_STATUS_ERROR_FAILED, "GPA_BeginSample: sample {} could not begin ({}; see the message before)",
                    sampleID, GpaGetStatusAsStr(status));
      }
    }
    recording.sample_open = true;
    recording.open_sample_id = sampleID;
    recording.ids_in_pass.insert(sampleID);
    return GPA_STATUS_OK;
  });
}

GPA_Status GPA_EndSample() {
  return WithCurrentContext("GPA_EndSample", [&](V2Context& context) {
    if (!context.recording || !context.recording->sample_open) {
      return Fail(GPA_STATUS_ERROR_SAMPLE_NOT_STARTED, "GPA_EndSample: call GPA_BeginSample first");
    }
    Recording& recording = *context.recording;
    V2Session& session = context.sessions.back();
    // The sample is closed either way; one that failed here is missing from its pass, which GPA_EndSession reports.
    recording.sample_open = false;
    recording.samples_in_pass++;
    if (recording.list != nullptr) {
      if (GpaStatus status = GpaEndSample(recording.list); status != kGpaStatusOk) {
        return Fail(GPA_STATUS_ERROR_FAILED, "GPA_EndSample: sample {} could not end ({}; see the message before)",
                    recording.open_sample_id, GpaGetStatusAsStr(status));
      }
      session.pass_samples[recording.passes_begun - 1].insert(recording.open_sample_id);
    }
    return GPA_STATUS_OK;
  });
}
