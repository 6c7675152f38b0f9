// GPA 4's SPM (streaming counter) calls. They serve sessions of kGpaSessionSampleTypeStreamingCounter, which a
// context offers when GpaGetSupportedSampleTypes reports kGpaContextSampleTypeStreamingCounter; no OpenGPA
// context reports it yet (docs/gpa4.md), so each call, after finding the session, answers
// kGpaStatusErrorIncompatibleSampleTypes with a log message, as GPA 4 does for a session of another type.
#include "entry/gpa4/gpa4_entry_points.h"
#include "entry/gpa4/session_type_check.h"
#include "entry/guarded.h"

namespace opengpa::gpa4 {
namespace {

GpaStatus SpmCall(const char* function, GpaSessionId session_id) {
  return entry::Guarded(function, [&] {
    if (GpaStatus status =
            RequireSampleType(function, session_id, {SampleType::kStreaming, SampleType::kStreamingAndSqtt});
        status != kGpaStatusOk) {
      return status;
    }
    // Only a backend that streams could have made this session; none does yet.
    return LogError(kGpaStatusErrorApiNotSupported, "{}: this library streams no counters", function);
  });
}

}  // namespace

GpaStatus GpaSpmSetSampleInterval(GpaSessionId session_id, GpaUInt32) {
  return SpmCall("GpaSpmSetSampleInterval", session_id);
}
GpaStatus GpaSpmSetDuration(GpaSessionId session_id, GpaUInt32) { return SpmCall("GpaSpmSetDuration", session_id); }
GpaStatus GpaSpmBegin(GpaSessionId session_id, void*) { return SpmCall("GpaSpmBegin", session_id); }
GpaStatus GpaSpmEnd(GpaSessionId session_id, void*) { return SpmCall("GpaSpmEnd", session_id); }
GpaStatus GpaSpmGetSampleResultSize(GpaSessionId session_id, size_t*) {
  return SpmCall("GpaSpmGetSampleResultSize", session_id);
}
GpaStatus GpaSpmGetSampleResult(GpaSessionId session_id, size_t, void*) {
  return SpmCall("GpaSpmGetSampleResult", session_id);
}
GpaStatus GpaSpmCalculateDerivedCounters(GpaSessionId session_id, GpaSpmData*, GpaUInt32, GpaUInt64*) {
  return SpmCall("GpaSpmCalculateDerivedCounters", session_id);
}

}  // namespace opengpa::gpa4
