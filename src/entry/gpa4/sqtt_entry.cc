// GPA 4's SQTT calls. No OpenGPA context offers SQTT (docs/gpa4.md says why CUPTI's PC sampling is not
// offered in its place), so no session is of an SQTT type and each call, after finding the session, answers
// kGpaStatusErrorIncompatibleSampleTypes with a log message, as GPA 4 does for a session of another type.
#include "entry/gpa4/gpa4_entry_points.h"
#include "entry/gpa4/session_type_check.h"
#include "platform/guarded.h"

namespace opengpa::gpa4 {
namespace {

GpaStatus SqttCall(const char* function, GpaSessionId session_id) {
  return opengpa::Guarded(function, [&] {
    return RequireSampleType(function, session_id, {SampleType::kSqtt, SampleType::kStreamingAndSqtt});
  });
}

GpaStatus SqttSpmCall(const char* function, GpaSessionId session_id) {
  return opengpa::Guarded(function,
                          [&] { return RequireSampleType(function, session_id, {SampleType::kStreamingAndSqtt}); });
}

}  // namespace

GpaStatus GpaSqttGetInstructionMask(GpaSessionId session_id, GpaSqttInstructionFlags*) {
  return SqttCall("GpaSqttGetInstructionMask", session_id);
}
GpaStatus GpaSqttSetInstructionMask(GpaSessionId session_id, GpaSqttInstructionFlags) {
  return SqttCall("GpaSqttSetInstructionMask", session_id);
}
GpaStatus GpaSqttGetComputeUnitId(GpaSessionId session_id, GpaUInt32*) {
  return SqttCall("GpaSqttGetComputeUnitId", session_id);
}
GpaStatus GpaSqttSetComputeUnitId(GpaSessionId session_id, GpaUInt32) {
  return SqttCall("GpaSqttSetComputeUnitId", session_id);
}
GpaStatus GpaSqttBegin(GpaSessionId session_id, void*) { return SqttCall("GpaSqttBegin", session_id); }
GpaStatus GpaSqttEnd(GpaSessionId session_id, void*) { return SqttCall("GpaSqttEnd", session_id); }
GpaStatus GpaSqttGetSampleResultSize(GpaSessionId session_id, size_t*) {
  return SqttCall("GpaSqttGetSampleResultSize", session_id);
}
GpaStatus GpaSqttGetSampleResult(GpaSessionId session_id, size_t, void*) {
  return SqttCall("GpaSqttGetSampleResult", session_id);
}
GpaStatus GpaSqttSpmBegin(GpaSessionId session_id, void*) { return SqttSpmCall("GpaSqttSpmBegin", session_id); }
GpaStatus GpaSqttSpmEnd(GpaSessionId session_id, void*) { return SqttSpmCall("GpaSqttSpmEnd", session_id); }

}  // namespace opengpa::gpa4
