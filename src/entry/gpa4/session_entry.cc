// GPA 4's session calls: GpaCreateSession with v4's sample types, GpaResetSession, GpaAbortSession.
#include "entry/gpa4/core_bridge.h"
#include "entry/gpa4/gpa4_entry_points.h"
#include "platform/enum_argument.h"

namespace opengpa::gpa4 {

GpaStatus GpaCreateSession(GpaContextId context_id, GpaSessionSampleType sample_type, GpaSessionId* session_id) {
  // Read as an int: a C caller may pass any value, and loading it as the enum would be undefined behaviour.
  return CreateSession(context_id, EnumArgument(sample_type), session_id);
}

GpaStatus GpaResetSession(GpaSessionId session_id) { return ResetSession(session_id); }

GpaStatus GpaAbortSession(GpaSessionId session_id) { return AbortSession(session_id); }

}  // namespace opengpa::gpa4
