// Drives the v2 API the way the v2 guide's render loop does, for the tests of real backends: one session with
// the named counters, GPA_GetPassCount passes each running work[i] inside sample i, then every enabled counter
// of every sample read back by its v2 name (gpa_uint64 and gpa_float64 both as double).
#ifndef OPENGPA_TESTS_GPA2_GPA2_RECORDER_H_
#define OPENGPA_TESTS_GPA2_GPA2_RECORDER_H_

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "gpu_performance_api/v2/GPUPerfAPI.h"

namespace opengpa::gpa2test {

using V2Values = std::map<std::string, double>;

struct V2PassHooks {
  std::function<GPA_Status()> begin = [] { return GPA_BeginPass(); };
  std::function<void()> after_end = [] {};  // e.g. submit the pass's command buffer
};

// The sample values, or an empty vector and *error naming the failed call.
inline std::vector<V2Values> RecordV2(const std::vector<std::string>& counters,
                                      const std::vector<std::function<void()>>& work,
                                      const std::function<void()>& finish, std::string* error,
                                      const V2PassHooks& hooks = {}) {
  auto fail = [&](const std::string& call, GPA_Status status) {
    *error = call + ": " + GPA_GetStatusAsStr(status);
    return std::vector<V2Values>{};
  };
  GPA_Status status = GPA_DisableAllCounters();
  if (status != GPA_STATUS_OK) return fail("GPA_DisableAllCounters", status);
  for (const std::string& name : counters) {
    if ((status = GPA_EnableCounterStr(name.c_str())) != GPA_STATUS_OK)
      return fail("GPA_EnableCounterStr " + name, status);
  }
  gpa_uint32 session = 0, passes = 0;
  if ((status = GPA_BeginSession(&session)) != GPA_STATUS_OK) return fail("GPA_BeginSession", status);
  if ((status = GPA_GetPassCount(&passes)) != GPA_STATUS_OK) return fail("GPA_GetPassCount", status);
  for (gpa_uint32 pass = 0; pass < passes; ++pass) {
    if ((status = hooks.begin()) != GPA_STATUS_OK) return fail("begin pass", status);
    for (gpa_uint32 i = 0; i < work.size(); ++i) {
      if ((status = GPA_BeginSample(i)) != GPA_STATUS_OK) return fail("GPA_BeginSample", status);
      work[i]();
      if ((status = GPA_EndSample()) != GPA_STATUS_OK) return fail("GPA_EndSample", status);
    }
    if ((status = GPA_EndPass()) != GPA_STATUS_OK) return fail("GPA_EndPass", status);
    hooks.after_end();
  }
  if ((status = GPA_EndSession()) != GPA_STATUS_OK) return fail("GPA_EndSession", status);
  finish();
  bool ready = false;
  for (int attempt = 0; attempt < 6000 && !ready; ++attempt) {  // the guide's non-blocking poll, up to 60 s
    if ((status = GPA_IsSessionReady(&ready, session)) != GPA_STATUS_OK) return fail("GPA_IsSessionReady", status);
    if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!ready) return fail("GPA_IsSessionReady (never ready)", GPA_STATUS_ERROR_FAILED);
  gpa_uint32 enabled = 0, samples = 0;
  GPA_GetEnabledCount(&enabled);
  if ((status = GPA_GetSampleCount(session, &samples)) != GPA_STATUS_OK) return fail("GPA_GetSampleCount", status);
  std::vector<V2Values> values(samples);
  for (gpa_uint32 sample = 0; sample < samples; ++sample) {
    for (gpa_uint32 e = 0; e < enabled; ++e) {
      gpa_uint32 index = 0;
      const char* name = nullptr;
      GPA_Type type = GPA_TYPE__LAST;
      GPA_GetEnabledIndex(e, &index);
      GPA_GetCounterName(index, &name);
      GPA_GetCounterDataType(index, &type);
      if (type == GPA_TYPE_UINT64) {
        gpa_uint64 value = 0;
        if ((status = GPA_GetSampleUInt64(session, sample, index, &value)) != GPA_STATUS_OK) {
          return fail(std::string("GPA_GetSampleUInt64 ") + name, status);
        }
        values[sample][name] = static_cast<double>(value);
      } else {
        gpa_float64 value = 0;
        if ((status = GPA_GetSampleFloat64(session, sample, index, &value)) != GPA_STATUS_OK) {
          return fail(std::string("GPA_GetSampleFloat64 ") + name, status);
        }
        values[sample][name] = value;
      }
    }
  }
  return values;
}

}  // namespace opengpa::gpa2test

#endif  // OPENGPA_TESTS_GPA2_GPA2_RECORDER_H_
