// Results: GPA_IsSessionReady, GPA_IsSampleReady, GPA_GetSampleCount, GPA_GetSample{UInt32,UInt64,Float32,Float64}.
// Values are the v3 GpaGetSampleResult words of the same session, converted as gpa2_counters.h says.
#include <cstring>
#include <type_traits>

#include "entry/gpa2/gpa2_state.h"
#include "entry/gpa2/gpa2_status.h"

using namespace opengpa::gpa2;

namespace {

template <typename Body>
GPA_Status WithSession(const char* function, gpa_uint32 session_id, Body&& body) {
  return WithCurrentContext(function, [&](V2Context& context) {
    V2Session* session = context.FindSession(session_id);
    if (session == nullptr) {
      return Fail(GPA_STATUS_ERROR_SESSION_NOT_FOUND,
                  "{}: sessionID {} is not one of the {} session(s) this context keeps (the last {})", function,
                  session_id, context.sessions.size(), kBufferedSessions);
    }
    return body(context, *session);
  });
}

bool SessionComplete(const V2Context& context, const V2Session& session) {
  return !context.IsRecording(session) && GpaIsSessionComplete(session.v3) == kGpaStatusOk;
}

template <typename T>
constexpr GPA_Type kTypeOf = std::is_same_v<T, gpa_uint32>    ? GPA_TYPE_UINT32
                             : std::is_same_v<T, gpa_uint64>  ? GPA_TYPE_UINT64
                             : std::is_same_v<T, gpa_float32> ? GPA_TYPE_FLOAT32
                                                              : GPA_TYPE_FLOAT64;

// Checks in the order the v2 guide lists them: session, index, enabled, result, type.
template <typename T>
GPA_Status GetSample(const char* function, gpa_uint32 session_id, gpa_uint32 sample_id, gpa_uint32 counter_index,
                     T* result) {
  return WithSession(function, session_id, [&](V2Context& context, V2Session& session) {
    if (counter_index >= context.counters.size()) {
      return Fail(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, "{}: counterIndex {} is not below the counter count {}",
                  function, counter_index, context.counters.size());
    }
    const CounterView& counter = context.counters[counter_index];
    std::size_t position = 0;
    while (position < session.enabled.size() && session.enabled[position] != counter_index) ++position;
    if (position == session.enabled.size()) {
      return Fail(GPA_STATUS_ERROR_NOT_ENABLED, "{}: counter {} ('{}') was not enabled in session {}", function,
                  counter_index, counter.name, session_id);
    }
    if (result == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "{}: result is NULL", function);
    if (counter.type != kTypeOf<T>) {
      // No catalog has 32-bit counters: GPA_GetSampleUInt32 and GPA_GetSampleFloat32 always end here.
      return Fail(GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE,
                  "{}: counter {} ('{}') is of type {}: read it with {}", function, counter_index, counter.name,
                  counter.type == GPA_TYPE_UINT64 ? "gpa_uint64" : "gpa_float64",
                  counter.type == GPA_TYPE_UINT64 ? "GPA_GetSampleUInt64" : "GPA_GetSampleFloat64");
    }
    if (context.IsRecording(session)) {
      return Fail(GPA_STATUS_ERROR_SAMPLING_NOT_ENDED, "{}: session {} is still being recorded: call GPA_EndSession",
                  function, session_id);
    }
    if (!session.HasSampleInAllPasses(sample_id)) {
      return Fail(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND, "{}: sampleID {} is not a sample of every pass of session {}",
                  function, sample_id, session_id);
    }
    std::size_t size = 0;
    GpaStatus status = GpaGetSampleResultSize(session.v3, sample_id, &size);
    std::vector<GpaUInt64> words(size / sizeof(GpaUInt64));
    if (status == kGpaStatusOk) status = GpaGetSampleResult(session.v3, sample_id, size, words.data());
    if (status == kGpaStatusOk && words.size() != session.enabled.size()) status = kGpaStatusErrorFailed;
    if (status != kGpaStatusOk) {
      const GPA_Status mapped = FromV3Status(status);
      return Fail(mapped == GPA_STATUS_ERROR_FAILED ? GPA_STATUS_ERROR_READING_COUNTER_RESULT : mapped,
                  "{}: the results of sample {} of session {} could not be read ({})", function, sample_id, session_id,
                  GpaGetStatusAsStr(status));
    }
    const GpaUInt64 word = words[position];
    if constexpr (std::is_same_v<T, gpa_uint64>) {
      *result = word;  // exact: uint64 counters are never scaled
    } else {
      double value = 0;
      if (counter.v3_is_float) {
        std::memcpy(&value, &word, sizeof value);
      } else {
        value = static_cast<double>(word);
      }
      *result = static_cast<T>(value * counter.scale);
    }
    return GPA_STATUS_OK;
  });
}

}  // namespace

GPA_Status GPA_IsSessionReady(bool* readyResult, gpa_uint32 sessionID) {
  return WithCurrentContext("GPA_IsSessionReady", [&](V2Context&) {
    if (readyResult == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_IsSessionReady: readyResult is NULL");
    *readyResult = false;
    return WithSession("GPA_IsSessionReady", sessionID, [&](V2Context& context, V2Session& session) {
      *readyResult = SessionComplete(context, session);
      return GPA_STATUS_OK;
    });
  });
}

GPA_Status GPA_IsSampleReady(bool* readyResult, gpa_uint32 sessionID, gpa_uint32 sampleID) {
  return WithCurrentContext("GPA_IsSampleReady", [&](V2Context&) {
    if (readyResult == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_IsSampleReady: readyResult is NULL");
    *readyResult = false;
    return WithSession("GPA_IsSampleReady", sessionID, [&](V2Context& context, V2Session& session) {
      if (!session.HasSampleInAllPasses(sampleID)) {
        return Fail(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES,
                    "GPA_IsSampleReady: sampleID {} is not in all {} pass(es) of session {}", sampleID,
                    session.pass_count, sessionID);
      }
      *readyResult = SessionComplete(context, session);
      return GPA_STATUS_OK;
    });
  });
}

GPA_Status GPA_GetSampleCount(gpa_uint32 sessionID, gpa_uint32* samples) {
  return WithCurrentContext("GPA_GetSampleCount", [&](V2Context&) {
    if (samples == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetSampleCount: samples is NULL");
    return WithSession("GPA_GetSampleCount", sessionID, [&](V2Context&, V2Session& session) {
      *samples = session.pass_samples.empty() ? 0 : static_cast<gpa_uint32>(session.pass_samples[0].size());
      return GPA_STATUS_OK;
    });
  });
}

GPA_Status GPA_GetSampleUInt64(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterID, gpa_uint64* result) {
  return GetSample("GPA_GetSampleUInt64", sessionID, sampleID, counterID, result);
}

GPA_Status GPA_GetSampleUInt32(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex, gpa_uint32* result) {
  return GetSample("GPA_GetSampleUInt32", sessionID, sampleID, counterIndex, result);
}

GPA_Status GPA_GetSampleFloat64(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex,
                                gpa_float64* result) {
  return GetSample("GPA_GetSampleFloat64", sessionID, sampleID, counterIndex, result);
}

GPA_Status GPA_GetSampleFloat32(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex,
                                gpa_float32* result) {
  return GetSample("GPA_GetSampleFloat32", sessionID, sampleID, counterIndex, result);
}
