#include "entry/gpa2/gpa2_state.h"

#include <new>

namespace opengpa::gpa2 {

bool V2Session::HasSampleInAllPasses(gpa_uint32 sample_id) const {
  if (pass_samples.empty()) return false;
  for (const std::set<gpa_uint32>& samples : pass_samples) {
    if (samples.count(sample_id) == 0) return false;
  }
  return true;
}

V2Session* V2Context::FindSession(gpa_uint32 id) {
  for (V2Session& session : sessions) {
    if (session.id == id) return &session;
  }
  return nullptr;
}

State& Gpa2() {
  // Never destroyed (entry points may run during process exit, after static destructors), and not on the heap:
  // a client may unload the library and load it again, and a heap object would leak at every unload.
  alignas(State) static unsigned char storage[sizeof(State)];
  static auto* state = new (storage) State();
  return *state;
}

std::vector<gpa_uint32> EnabledCounters(GpaSessionId session) {
  std::vector<gpa_uint32> enabled;
  GpaUInt32 count = 0;
  if (GpaGetNumEnabledCounters(session, &count) != kGpaStatusOk) return enabled;
  for (GpaUInt32 i = 0; i < count; ++i) {
    GpaUInt32 index = 0;
    if (GpaGetEnabledIndex(session, i, &index) == kGpaStatusOk) enabled.push_back(index);
  }
  return enabled;
}

GpaSessionId CreateSelection(GpaContextId context, const std::vector<gpa_uint32>& counters) {
  GpaSessionId session = nullptr;
  if (GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session) != kGpaStatusOk) {
    Log(GPA_LOGGING_ERROR, "a session could not be created on the context");
    return nullptr;
  }
  for (gpa_uint32 index : counters) {
    if (GpaEnableCounter(session, index) != kGpaStatusOk) {
      Log(GPA_LOGGING_ERROR, "counter {} could not be enabled on a new session", index);
      GpaDeleteSession(session);
      return nullptr;
    }
  }
  return session;
}

}  // namespace opengpa::gpa2
