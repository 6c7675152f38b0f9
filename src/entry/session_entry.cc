// Sessions and counter scheduling: GpaCreateSession ... GpaIsCounterEnabled.
#include "entry/entry_support.h"

using namespace opengpa;
using namespace opengpa::entry;

namespace {

// The GpaGetSupportedSampleTypes bits a session type needs; false for a value that is no session type.
// Discrete counters need none: in GPA v3.17 kGpaContextSampleTypeDiscreteCounter is 0, every context has them.
// `type` is the caller's GpaSessionSampleType as an int (see EnumArgument).
bool RequiredContextBits(int type, GpaContextSampleTypeFlags* required) {
  switch (type) {
    case kGpaSessionSampleTypeDiscreteCounter: *required = kGpaContextSampleTypeDiscreteCounter; return true;
    case static_cast<int>(kGpaSessionSampleTypeStreamingCounter):
      *required = kGpaContextSampleTypeStreamingCounter;
      return true;
    case static_cast<int>(kGpaSessionSampleTypeSqtt): *required = kGpaContextSampleTypeSqtt; return true;
    case static_cast<int>(kGpaSessionSampleTypeStreamingCounterAndSqtt):
      *required = kGpaContextSampleTypeStreamingCounter | kGpaContextSampleTypeSqtt;
      return true;
    default: return false;
  }
}

// How messages name a session type: GPA 4 clients pass 1..3 for what the core stores as opengpa_ext.h's values.
const char* SampleTypeName(int type) {
  switch (type) {
    case kGpaSessionSampleTypeDiscreteCounter: return "kGpaSessionSampleTypeDiscreteCounter";
    case static_cast<int>(kGpaSessionSampleTypeStreamingCounter): return "kGpaSessionSampleTypeStreamingCounter";
    case static_cast<int>(kGpaSessionSampleTypeSqtt): return "kGpaSessionSampleTypeSqtt";
    case static_cast<int>(kGpaSessionSampleTypeStreamingCounterAndSqtt):
      return "kGpaSessionSampleTypeStreamingCounterAndSqtt";
    default: return "?";
  }
}

// For calls whose only handle is session_id: null check, then WithSession.
template <typename Body>
GpaStatus GuardedSessionCall(const char* function, GpaSessionId session_id, Body&& body) {
  return Guarded(function, [&] {
    if (session_id == nullptr) return NullArgument(function, "session_id");
    return WithSession(function, session_id, body);
  });
}

}  // namespace

namespace opengpa::entry {

GpaStatus CreateSessionOfType(GpaContextId context_id, int type, GpaSessionId* session_id) {
  return Guarded("GpaCreateSession", [&] {
    if (context_id == nullptr) return NullArgument("GpaCreateSession", "context_id");
    if (session_id == nullptr) return NullArgument("GpaCreateSession", "session_id");
    ExclusiveLock lock(Library().mutex);
    Context* context = nullptr;
    if (GpaStatus status = FindContext("GpaCreateSession", context_id, &context); status != kGpaStatusOk) return status;
    GpaContextSampleTypeFlags required = 0;
    if (!RequiredContextBits(type, &required)) {
      return LogError(kGpaStatusErrorInvalidParameter, "GpaCreateSession: sample_type {} is not a GpaSessionSampleType",
                      type);
    }
    if ((context->supported_sample_types() & required) != required) {
      return LogError(
          kGpaStatusErrorIncompatibleSampleTypes,
          "GpaCreateSession: sample_type {} ({}) needs context sample types {:#x}; the context supports {:#x}",
          SampleTypeName(type), type, required, context->supported_sample_types());
    }
    const HandleValue id = Library().sessions.Add(std::make_unique<Session>(*context, type));
    if (id == 0) return LogError(kGpaStatusErrorFailed, "GpaCreateSession: too many sessions");
    context->session_ids().push_back(id);
    *session_id = HandleFromValue<GpaSessionId>(id);
    return kGpaStatusOk;
  });
}

}  // namespace opengpa::entry

GpaStatus GpaCreateSession(GpaContextId context_id, GpaSessionSampleType sample_type, GpaSessionId* session_id) {
  return CreateSessionOfType(context_id, EnumArgument(sample_type), session_id);
}

GpaStatus GpaDeleteSession(GpaSessionId session_id) {
  return Guarded("GpaDeleteSession", [&] {
    if (session_id == nullptr) return NullArgument("GpaDeleteSession", "session_id");
    ExclusiveLock lock(Library().mutex);
    Session* session = nullptr;
    if (GpaStatus status = FindSession("GpaDeleteSession", session_id, &session); status != kGpaStatusOk) return status;
    Retired retired;
    Library().DeleteSessionLocked(HandleValueOf(session_id), &retired);
    DestroyRetired(retired, lock);  // waits, with `lock` released, for a GpaGetSampleResult still reading it
    return kGpaStatusOk;
  });
}

GpaStatus GpaBeginSession(GpaSessionId session_id) {
  return GuardedSessionCall("GpaBeginSession", session_id, [](Session& s) { return s.Begin(); });
}

GpaStatus GpaEndSession(GpaSessionId session_id) {
  return GuardedSessionCall("GpaEndSession", session_id, [](Session& s) { return s.End(); });
}

GpaStatus GpaEnableCounter(GpaSessionId session_id, GpaUInt32 counter_index) {
  return GuardedSessionCall("GpaEnableCounter", session_id, [&](Session& s) { return s.EnableCounter(counter_index); });
}

GpaStatus GpaDisableCounter(GpaSessionId session_id, GpaUInt32 counter_index) {
  return GuardedSessionCall("GpaDisableCounter", session_id,
                            [&](Session& s) { return s.DisableCounter(counter_index); });
}

GpaStatus GpaEnableCounterByName(GpaSessionId session_id, const char* counter_name) {
  return GuardedSessionCall("GpaEnableCounterByName", session_id, [&](Session& s) {
    if (counter_name == nullptr) return NullArgument("GpaEnableCounterByName", "counter_name");
    return s.EnableCounterByName(counter_name);
  });
}

GpaStatus GpaDisableCounterByName(GpaSessionId session_id, const char* counter_name) {
  return GuardedSessionCall("GpaDisableCounterByName", session_id, [&](Session& s) {
    if (counter_name == nullptr) return NullArgument("GpaDisableCounterByName", "counter_name");
    return s.DisableCounterByName(counter_name);
  });
}

GpaStatus GpaEnableAllCounters(GpaSessionId session_id) {
  return GuardedSessionCall("GpaEnableAllCounters", session_id, [](Session& s) { return s.EnableAllCounters(); });
}

GpaStatus GpaDisableAllCounters(GpaSessionId session_id) {
  return GuardedSessionCall("GpaDisableAllCounters", session_id, [](Session& s) { return s.DisableAllCounters(); });
}

// The counter-schedule queries look the session up before checking their output, as GPA does: an unknown
// session is SessionNotFound whatever the output pointer.
GpaStatus GpaGetPassCount(GpaSessionId session_id, GpaUInt32* number_of_passes) {
  return GuardedSessionCall("GpaGetPassCount", session_id, [&](Session& s) {
    if (number_of_passes == nullptr) return NullArgument("GpaGetPassCount", "number_of_passes");
    return s.GetPassCount(number_of_passes);
  });
}

GpaStatus GpaGetNumEnabledCounters(GpaSessionId session_id, GpaUInt32* counter_count) {
  return GuardedSessionCall("GpaGetNumEnabledCounters", session_id, [&](Session& s) {
    if (counter_count == nullptr) return NullArgument("GpaGetNumEnabledCounters", "counter_count");
    *counter_count = s.NumEnabledCounters();
    return kGpaStatusOk;
  });
}

GpaStatus GpaGetEnabledIndex(GpaSessionId session_id, GpaUInt32 enabled_number, GpaUInt32* enabled_counter_index) {
  return GuardedSessionCall("GpaGetEnabledIndex", session_id, [&](Session& s) {
    if (enabled_counter_index == nullptr) return NullArgument("GpaGetEnabledIndex", "enabled_counter_index");
    return s.GetEnabledIndex(enabled_number, enabled_counter_index);
  });
}

GpaStatus GpaIsCounterEnabled(GpaSessionId session_id, GpaUInt32 counter_index) {
  return GuardedSessionCall("GpaIsCounterEnabled", session_id,
                            [&](Session& s) { return s.IsCounterEnabled(counter_index); });
}
