// The core side of GPA 4's entry points (entry/gpa4/core_bridge.h): what the v3 entry points do not offer.
#include "entry/gpa4/core_bridge.h"

#include <cstring>

#include "entry/entry_support.h"

using namespace opengpa;
using namespace opengpa::entry;

namespace opengpa::gpa4 {
namespace {

// The core's GpaSessionSampleType for a GPA 4 value (the streaming and SQTT types are opengpa_ext.h's values).
bool CoreSampleType(int v4_type, int* type) {
  if (v4_type < 0) return false;
  switch (static_cast<SampleType>(v4_type)) {
    case SampleType::kDiscrete: *type = kGpaSessionSampleTypeDiscreteCounter; return true;
    case SampleType::kStreaming: *type = static_cast<int>(kGpaSessionSampleTypeStreamingCounter); return true;
    case SampleType::kSqtt: *type = static_cast<int>(kGpaSessionSampleTypeSqtt); return true;
    case SampleType::kStreamingAndSqtt:
      *type = static_cast<int>(kGpaSessionSampleTypeStreamingCounterAndSqtt);
      return true;
  }
  return false;
}

SampleType V4SampleType(int type) {
  switch (type) {
    case static_cast<int>(kGpaSessionSampleTypeStreamingCounter): return SampleType::kStreaming;
    case static_cast<int>(kGpaSessionSampleTypeSqtt): return SampleType::kSqtt;
    case static_cast<int>(kGpaSessionSampleTypeStreamingCounterAndSqtt): return SampleType::kStreamingAndSqtt;
    default: return SampleType::kDiscrete;
  }
}

// Reset and Abort drop the session's command lists from the registry, so they take the library lock exclusively.
template <typename Body>
GpaStatus WithSessionExclusive(const char* function, GpaSessionId session_id, Body&& body) {
  return Guarded(function, [&] {
    if (session_id == nullptr) return NullArgument(function, "session_id");
    ExclusiveLock lock(Library().mutex);
    Session* session = nullptr;
    if (GpaStatus status = FindSession(function, session_id, &session); status != kGpaStatusOk) return status;
    return body(*session);
  });
}

}  // namespace

GpaStatus SessionContext(const char* function, GpaSessionId session_id, GpaContextId* context_id) {
  return Guarded(function, [&] {
    if (session_id == nullptr) return NullArgument(function, "session_id");
    return WithSession(function, session_id, [&](Session& session) {
      for (HandleValue id : Library().contexts.Ids()) {
        if (Library().contexts.Find(id) == &session.context()) {
          *context_id = HandleFromValue<GpaContextId>(id);
          return kGpaStatusOk;
        }
      }
      return LogError(kGpaStatusErrorContextNotFound, "{}: the context of session_id {:#x} is closed", function,
                      HandleValueOf(session_id));
    });
  });
}

GpaStatus CreateSession(GpaContextId context_id, int v4_sample_type, GpaSessionId* session_id) {
  return Guarded("GpaCreateSession", [&] {
    int type = kGpaSessionSampleTypeDiscreteCounter;
    if (!CoreSampleType(v4_sample_type, &type)) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaCreateSession: sample_type {} is not a GPA 4 GpaSessionSampleType", v4_sample_type);
    }
    return entry::CreateSessionOfType(context_id, type, session_id);
  });
}

GpaStatus SessionSampleType(const char* function, GpaSessionId session_id, SampleType* type) {
  return Guarded(function, [&] {
    if (session_id == nullptr) return NullArgument(function, "session_id");
    return WithSession(function, session_id, [&](Session& session) {
      *type = V4SampleType(session.sample_type());
      return kGpaStatusOk;
    });
  });
}

GpaStatus CounterUuid(GpaSessionId session_id, GpaUInt32 index, Uuid16* uuid) {
  GpaContextId context_id = nullptr;
  if (GpaStatus status = SessionContext("GpaGetCounterUuid", session_id, &context_id); status != kGpaStatusOk) {
    return status;
  }
  GpaUuid v3{};
  if (GpaStatus status = GpaGetCounterUuid(context_id, index, &v3); status != kGpaStatusOk) return status;
  // OpenGPA fills only the low 32 bits of v3's 8-byte data_1: the same UUID in both layouts.
  uuid->data_1 = static_cast<std::uint32_t>(v3.data_1);
  uuid->data_2 = v3.data_2;
  uuid->data_3 = v3.data_3;
  std::memcpy(uuid->data_4, v3.data_4, sizeof uuid->data_4);
  return kGpaStatusOk;
}

GpaStatus ResetSession(GpaSessionId session_id) {
  return WithSessionExclusive("GpaResetSession", session_id, [](Session& session) {
    // A GpaGetSampleResult reads a pinned session without the library lock: resetting under it would free what
    // it reads, and waiting for it here would hold every other context's calls for as long as its device wait.
    if (session.Pinned()) {
      return LogError(kGpaStatusErrorFailed,
                      "GpaResetSession: a GpaGetSampleResult on another thread is still reading this session; "
                      "reset it after that call returns");
    }
    Library().ReleaseCommandListsLocked(session);
    session.Reset();
    return kGpaStatusOk;
  });
}

GpaStatus AbortSession(GpaSessionId session_id) {
  return WithSessionExclusive("GpaAbortSession", session_id, [](Session& session) {
    if (!session.started()) return session.Abort();  // logs why there is nothing to abort
    Library().ReleaseCommandListsLocked(session);
    return session.Abort();
  });
}

GpaStatus SpmSetOption(const char* function, GpaSessionId session_id, SpmOption option, std::uint64_t value) {
  return Guarded(function, [&] {
    if (session_id == nullptr) return NullArgument(function, "session_id");
    return WithSession(function, session_id, [&](Session& session) {
      return option == SpmOption::kIntervalNs ? session.SetStreamingInterval(value)
                                              : session.SetStreamingDuration(value);
    });
  });
}

GpaStatus SpmBegin(GpaSessionId session_id) {
  return Guarded("GpaSpmBegin", [&] {
    if (session_id == nullptr) return NullArgument("GpaSpmBegin", "session_id");
    return WithSession("GpaSpmBegin", session_id, [](Session& session) { return session.SpmBegin(); });
  });
}

GpaStatus SpmEnd(GpaSessionId session_id) {
  return Guarded("GpaSpmEnd", [&] {
    if (session_id == nullptr) return NullArgument("GpaSpmEnd", "session_id");
    return WithSession("GpaSpmEnd", session_id, [](Session& session) { return session.SpmEnd(); });
  });
}

GpaStatus SpmGetSeries(const char* function, GpaSessionId session_id, SpmSeries* series) {
  return Guarded(function, [&] {
    if (session_id == nullptr) return NullArgument(function, "session_id");
    return WithSession(function, session_id, [&](Session& session) {
      StreamingSeries raw;
      std::vector<HardwareCounterIndex> columns;
      if (GpaStatus status = session.GetStreamingSeries(&raw, &columns); status != kGpaStatusOk) return status;
      const std::size_t samples = raw.end_ns.size();
      series->timestamps = raw.end_ns;
      series->counters.assign(columns.begin(), columns.end());
      series->values.assign(samples * columns.size(), 0.0);
      for (std::size_t t = 0; t < samples; ++t) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
          series->values[c * samples + t] = raw.values[t * columns.size() + c];
        }
      }
      return kGpaStatusOk;
    });
  });
}

GpaStatus SpmEvaluate(GpaSessionId session_id, const std::vector<std::uint32_t>& columns, std::size_t rows,
                      const std::vector<double>& raw, std::vector<std::uint64_t>* out, GpaUInt32* enabled) {
  return Guarded("GpaSpmCalculateDerivedCounters", [&] {
    return WithSession("GpaSpmCalculateDerivedCounters", session_id, [&](Session& session) {
      *enabled = session.NumEnabledCounters();
      const std::vector<HardwareCounterIndex> hardware(columns.begin(), columns.end());
      return session.EvaluateStreaming(hardware, rows, raw, out);
    });
  });
}

GpaStatus GetDeviceLimit(const char* function, GpaContextId context_id, DeviceLimit limit, GpaUInt32* value) {
  return Guarded(function, [&] {
    if (context_id == nullptr) return NullArgument(function, "context_id");
    return WithContext(function, context_id, [&](Context& context) {
      if (value == nullptr) return NullArgument(function, "output");
      const DeviceShape& shape = context.shape();
      switch (limit) {
        case DeviceLimit::kWaveSlots: *value = shape.MaxWaveSlots(); break;
        case DeviceLimit::kVgprs: *value = shape.MaxVgprs(); break;
        case DeviceLimit::kLdsBytes: *value = shape.MaxLdsBytes(); break;
      }
      if (*value == 0) {
        return LogError(kGpaStatusErrorHardwareNotSupported,
                        "{}: {} does not report this resource (software drivers and offline chips do not)", function,
                        context.device().name);
      }
      return kGpaStatusOk;
    });
  });
}

GpaStatus UpdateDeviceInformation(GpaContextId context_id, GpaUInt32 shader_engines, GpaUInt32 compute_units,
                                  GpaUInt32 simds, GpaUInt32 waves_per_simd) {
  return Guarded("GpaUpdateDeviceInformation", [&] {
    if (shader_engines == 0 || compute_units == 0 || simds == 0 || waves_per_simd == 0) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaUpdateDeviceInformation: every count must be above 0 (shader engines {}, compute units {}, "
                      "SIMDs {}, waves per SIMD {})",
                      shader_engines, compute_units, simds, waves_per_simd);
    }
    if (context_id == nullptr) return NullArgument("GpaUpdateDeviceInformation", "context_id");
    ExclusiveLock lock(Library().mutex);
    Context* context = nullptr;
    if (GpaStatus status = FindContext("GpaUpdateDeviceInformation", context_id, &context); status != kGpaStatusOk) {
      return status;
    }
    DeviceShape shape = context->shape();
    shape.shader_engines = shader_engines;
    shape.compute_units = compute_units;
    shape.simds = simds;
    shape.waves_per_simd = waves_per_simd;
    context->OverrideShape(shape);
    return kGpaStatusOk;
  });
}

}  // namespace opengpa::gpa4
