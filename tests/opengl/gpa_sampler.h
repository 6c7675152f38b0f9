// Drives libGPUPerfAPI{GL,CL}.so through the public GPA entry points the way an application does:
// open a context, enable counters by name, run each piece of work inside its own sample of a
// single-pass session, and read every sample's values back by counter name.
#ifndef OPENGPA_TESTS_OPENGL_GPA_SAMPLER_H_
#define OPENGPA_TESTS_OPENGL_GPA_SAMPLER_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/opengpa_ext.h"

namespace opengpa::testing {

// Everything GPA logged since the last Clear(), errors and messages.
class GpaLog {
 public:
  static void Install() { GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, &GpaLog::Callback); }
  static std::string Text() {
    std::lock_guard<std::mutex> lock(mutex());
    return text();
  }
  static void Clear() {
    std::lock_guard<std::mutex> lock(mutex());
    text().clear();
  }

 private:
  static void Callback(GpaLoggingType type, const char* message) {
    std::lock_guard<std::mutex> lock(mutex());
    text() += (type == kGpaLoggingError ? "error: " : "message: ");
    text() += message;
    text() += '\n';
  }
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::string& text() {
    static std::string t;
    return t;
  }
};

using SampleValues = std::map<std::string, double>;

class GpaSampler {
 public:
  GpaSampler() {
    GpaLog::Install();
    initialize_status_ = GpaInitialize(kGpaInitializeDefaultBit);
  }
  ~GpaSampler() {
    if (context_ != nullptr) GpaCloseContext(context_);
    if (initialize_status_ == kGpaStatusOk) GpaDestroy();
  }
  GpaSampler(const GpaSampler&) = delete;
  GpaSampler& operator=(const GpaSampler&) = delete;

  GpaStatus initialize_status() const { return initialize_status_; }
  GpaStatus Open(void* api_context, GpaOpenContextFlags flags = kGpaOpenContextDefaultBit) {
    return GpaOpenContext(api_context, flags, &context_);
  }
  GpaContextId context() const { return context_; }

  std::vector<std::string> CounterNames() const {
    std::vector<std::string> names;
    GpaUInt32 count = 0;
    if (GpaGetNumCounters(context_, &count) != kGpaStatusOk) return names;
    for (GpaUInt32 i = 0; i < count; ++i) {
      const char* name = nullptr;
      if (GpaGetCounterName(context_, i, &name) == kGpaStatusOk) names.emplace_back(name);
    }
    return names;
  }

  // Runs work[i] inside sample i (ids 0..n-1) of one session collecting `counters`; `finish` runs after
  // GpaEndSession and before results are read (e.g. glFinish / clFinish). The first failing GPA call's
  // status is returned and named in *failed_call.
  GpaStatus Run(const std::vector<std::string>& counters, const std::vector<std::function<void()>>& work,
                const std::function<void()>& finish, std::vector<SampleValues>* out, std::string* failed_call) {
    GpaSessionId session = nullptr;
    GpaStatus status = BeginSession(counters, &session, failed_call);
    if (status == kGpaStatusOk) status = RecordAndRead(session, work, finish, out, failed_call);
    if (session != nullptr) GpaDeleteSession(session);
    return status;
  }

  // Creates a discrete-counter session, enables `counters` by name and begins it. *session is set as soon
  // as it exists (the caller deletes it, also after a later failure); the first failing call is returned
  // and named in *failed_call.
  GpaStatus BeginSession(const std::vector<std::string>& counters, GpaSessionId* session, std::string* failed_call) {
    GpaStatus status = Check(GpaCreateSession(context_, kGpaSessionSampleTypeDiscreteCounter, session),
                             "GpaCreateSession", failed_call);
    if (status != kGpaStatusOk) return status;
    for (const std::string& name : counters) {
      status =
          Check(GpaEnableCounterByName(*session, name.c_str()), "GpaEnableCounterByName(" + name + ")", failed_call);
      if (status != kGpaStatusOk) return status;
    }
    return Check(GpaBeginSession(*session), "GpaBeginSession", failed_call);
  }

  // How many passes a session with every counter enabled takes; the session is deleted again.
  GpaStatus CountPassesOfAllCounters(GpaUInt32* passes, std::string* failed_call) {
    GpaSessionId session = nullptr;
    GpaStatus status = Check(GpaCreateSession(context_, kGpaSessionSampleTypeDiscreteCounter, &session),
                             "GpaCreateSession", failed_call);
    if (status != kGpaStatusOk) return status;
    status = Check(GpaEnableAllCounters(session), "GpaEnableAllCounters", failed_call);
    if (status == kGpaStatusOk) status = Check(GpaGetPassCount(session, passes), "GpaGetPassCount", failed_call);
    GpaDeleteSession(session);
    return status;
  }

 private:
  static GpaStatus Check(GpaStatus status, const std::string& call, std::string* failed_call) {
    if (status != kGpaStatusOk) *failed_call = call;
    return status;
  }

  // Records work[i] in sample i of every pass of a begun session, ends it and reads every sample back.
  GpaStatus RecordAndRead(GpaSessionId session, const std::vector<std::function<void()>>& work,
                          const std::function<void()>& finish, std::vector<SampleValues>* out,
                          std::string* failed_call) {
    GpaStatus status = kGpaStatusOk;
    GpaUInt32 passes = 0;
    if ((status = Check(GpaGetPassCount(session, &passes), "GpaGetPassCount", failed_call)) != kGpaStatusOk) {
      return status;
    }
    for (GpaUInt32 pass = 0; pass < passes; ++pass) {
      GpaCommandListId list = nullptr;
      status = Check(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list),
                     "GpaBeginCommandList", failed_call);
      if (status != kGpaStatusOk) return status;
      for (GpaUInt32 i = 0; i < work.size(); ++i) {
        if ((status = Check(GpaBeginSample(i, list), "GpaBeginSample", failed_call)) != kGpaStatusOk) return status;
        work[i]();
        if ((status = Check(GpaEndSample(list), "GpaEndSample", failed_call)) != kGpaStatusOk) return status;
      }
      if ((status = Check(GpaEndCommandList(list), "GpaEndCommandList", failed_call)) != kGpaStatusOk) return status;
    }
    if ((status = Check(GpaEndSession(session), "GpaEndSession", failed_call)) != kGpaStatusOk) return status;
    if (finish) finish();

    GpaUInt32 enabled = 0;
    GpaGetNumEnabledCounters(session, &enabled);
    out->assign(work.size(), SampleValues{});
    for (GpaUInt32 i = 0; i < work.size(); ++i) {
      std::vector<GpaUInt64> raw(enabled);
      status = Check(GpaGetSampleResult(session, i, raw.size() * sizeof(GpaUInt64), raw.data()), "GpaGetSampleResult",
                     failed_call);
      if (status != kGpaStatusOk) return status;
      for (GpaUInt32 e = 0; e < enabled; ++e) {
        GpaUInt32 index = 0;
        const char* name = nullptr;
        GpaDataType type = kGpaDataTypeUint64;
        GpaGetEnabledIndex(session, e, &index);
        GpaGetCounterName(context_, index, &name);
        GpaGetCounterDataType(context_, index, &type);
        double value = 0.0;
        if (type == kGpaDataTypeFloat64) {
          std::memcpy(&value, &raw[e], sizeof value);
        } else {
          value = static_cast<double>(raw[e]);
        }
        (*out)[i][name] = value;
      }
    }
    return kGpaStatusOk;
  }

  GpaStatus initialize_status_ = kGpaStatusErrorFailed;
  GpaContextId context_ = nullptr;
};

// The smallest value of `counter` among samples first, first + stride, ... (the fastest of repeated work,
// so one sample the shared CPU was taken away from cannot decide a comparison).
inline double FastestOf(const std::vector<SampleValues>& values, const std::string& counter, std::size_t first,
                        std::size_t stride) {
  double fastest = values.at(first).at(counter);
  for (std::size_t i = first + stride; i < values.size(); i += stride)
    fastest = std::min(fastest, values[i].at(counter));
  return fastest;
}

}  // namespace opengpa::testing

#endif  // OPENGPA_TESTS_OPENGL_GPA_SAMPLER_H_
