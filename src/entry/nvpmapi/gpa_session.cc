#include "entry/nvpmapi/gpa_session.h"

#include <chrono>
#include <cstring>
#include <set>
#include <thread>

namespace opengpa::nvpm {

GpaSessionId CreateSession(const GpaBackend& backend, GpaContextId context, const std::vector<GpaUInt32>& counters,
                           GpaUInt32* passes, std::string* why) {
  const GpaFunctionTable& gpa = backend.gpa;
  GpaSessionId session = nullptr;
  GpaStatus status = gpa.GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session);
  if (status != kGpaStatusOk) {
    *why = "GpaCreateSession: " + GpaStatusText(backend, status);
    return nullptr;
  }
  std::set<GpaUInt32> enabled;
  for (GpaUInt32 index : counters) {
    if (!enabled.insert(index).second) continue;
    status = gpa.GpaEnableCounter(session, index);
    if (status != kGpaStatusOk) {
      *why = "GpaEnableCounter(" + std::to_string(index) + "): " + GpaStatusText(backend, status);
      gpa.GpaDeleteSession(session);
      return nullptr;
    }
  }
  status = gpa.GpaGetPassCount(session, passes);
  if (status != kGpaStatusOk) {
    *why = "GpaGetPassCount: " + GpaStatusText(backend, status);
    gpa.GpaDeleteSession(session);
    return nullptr;
  }
  return session;
}

bool WaitForResults(const GpaBackend& backend, GpaContextId, GpaSessionId session, int timeout_ms, std::string* why) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    GpaStatus status = backend.gpa.GpaIsSessionComplete(session);
    if (status == kGpaStatusOk) return true;
    if (status != kGpaStatusResultNotReady) {
      *why = "GpaIsSessionComplete: " + GpaStatusText(backend, status);
      return false;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      *why = "results not ready after " + std::to_string(timeout_ms) + " ms";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

bool ReadSample(const GpaBackend& backend, GpaContextId context, GpaSessionId session, GpaUInt32 sample_id,
                std::map<GpaUInt32, double>* values, std::string* why) {
  const GpaFunctionTable& gpa = backend.gpa;
  GpaUInt32 enabled = 0;
  GpaStatus status = gpa.GpaGetNumEnabledCounters(session, &enabled);
  size_t size = 0;
  if (status == kGpaStatusOk) status = gpa.GpaGetSampleResultSize(session, sample_id, &size);
  if (status != kGpaStatusOk || size != enabled * sizeof(GpaUInt64)) {
    *why = "GpaGetSampleResultSize(" + std::to_string(sample_id) + "): " + GpaStatusText(backend, status);
    return false;
  }
  std::vector<GpaUInt64> words(enabled);
  status = gpa.GpaGetSampleResult(session, sample_id, size, words.data());
  if (status != kGpaStatusOk) {
    *why = "GpaGetSampleResult(" + std::to_string(sample_id) + "): " + GpaStatusText(backend, status);
    return false;
  }
  for (GpaUInt32 i = 0; i < enabled; ++i) {
    GpaUInt32 index = 0;
    GpaDataType type = kGpaDataTypeUint64;
    if (gpa.GpaGetEnabledIndex(session, i, &index) != kGpaStatusOk ||
        gpa.GpaGetCounterDataType(context, index, &type) != kGpaStatusOk) {
      *why = "GPA refused to name enabled counter " + std::to_string(i);
      return false;
    }
    if (type == kGpaDataTypeFloat64) {
      double value = 0.0;
      std::memcpy(&value, &words[i], sizeof value);
      (*values)[index] = value;
    } else {
      (*values)[index] = static_cast<double>(words[i]);
    }
  }
  return true;
}

}  // namespace opengpa::nvpm
