// The check every SQTT and SPM entry point starts with: the session exists and its sample type is one the call
// serves (else kGpaStatusErrorIncompatibleSampleTypes, as GPA 4 answers on hardware without that feature).
#ifndef OPENGPA_ENTRY_GPA4_SESSION_TYPE_CHECK_H_
#define OPENGPA_ENTRY_GPA4_SESSION_TYPE_CHECK_H_

#include <initializer_list>

#include "entry/gpa4/core_bridge.h"
#include "platform/logging.h"

namespace opengpa::gpa4 {

inline const char* SampleTypeName(SampleType type) {
  switch (type) {
    case SampleType::kDiscrete: return "kGpaSessionSampleTypeDiscreteCounter";
    case SampleType::kStreaming: return "kGpaSessionSampleTypeStreamingCounter";
    case SampleType::kSqtt: return "kGpaSessionSampleTypeSqtt";
    case SampleType::kStreamingAndSqtt: return "kGpaSessionSampleTypeStreamingCounterAndSqtt";
  }
  return "?";
}

[[nodiscard]] inline GpaStatus RequireSampleType(const char* function, GpaSessionId session_id,
                                                 std::initializer_list<SampleType> served, SampleType* type = nullptr) {
  SampleType actual = SampleType::kDiscrete;
  if (GpaStatus status = SessionSampleType(function, session_id, &actual); status != kGpaStatusOk) return status;
  if (type != nullptr) *type = actual;
  for (SampleType t : served) {
    if (t == actual) return kGpaStatusOk;
  }
  return LogError(kGpaStatusErrorIncompatibleSampleTypes,
                  "{}: the session's sample type is {}, which this call does not serve", function,
                  SampleTypeName(actual));
}

}  // namespace opengpa::gpa4

#endif  // OPENGPA_ENTRY_GPA4_SESSION_TYPE_CHECK_H_
