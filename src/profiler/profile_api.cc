// The exported functions of include/opengpa/opengpa_profile.h that belong to no one part: the version, the last
// error, the session of a whole profiled process and where libcupti lives.
#include "profiler/profile_api.h"

#include <cupti.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstring>

#include "nvidia/cupti_loader.h"
#include "platform/dynamic_library.h"
#include "profiler/injection_control.h"

namespace opengpa::profiler {
namespace {

thread_local std::string last_error;

}  // namespace

OpenGpaProfileStatus Fail(OpenGpaProfileStatus status, const std::string& message) {
  // Not logged: during a session GPA's error log is written into the sample stream (injection_session.cc).
  last_error = message;
  return status;
}

void ClearLastError() { last_error.clear(); }

const std::string& LastError() { return last_error; }

std::vector<std::string> SplitCounterNames(const char* text) {
  std::vector<std::string> names;
  const std::string all = text != nullptr ? text : "";
  std::size_t start = 0;
  while (start <= all.size()) {
    const std::size_t comma = std::min(all.find(',', start), all.size());
    if (comma > start) names.push_back(all.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}

OpenGpaProfileStatus FillText(const char* function, const std::string& text, char* buffer, std::size_t* size) {
  if (size == nullptr) return Fail(kOpenGpaProfileStatusErrorNullPointer, std::string(function) + ": size is NULL");
  const std::size_t capacity = *size;
  *size = text.size() + 1;
  if (buffer == nullptr) return kOpenGpaProfileStatusOk;
  if (capacity < text.size() + 1) {
    return Fail(kOpenGpaProfileStatusErrorBufferTooSmall, std::string(function) + ": the buffer holds " +
                                                              std::to_string(capacity) + " bytes, the text needs " +
                                                              std::to_string(text.size() + 1));
  }
  std::memcpy(buffer, text.c_str(), text.size() + 1);
  return kOpenGpaProfileStatusOk;
}

}  // namespace opengpa::profiler

using opengpa::profiler::Fail;
using opengpa::profiler::GuardedProfile;

OpenGpaProfileStatus OpenGpaProfileGetVersion(uint32_t* major, uint32_t* minor) {
  return GuardedProfile("OpenGpaProfileGetVersion", [&] {
    if (major == nullptr || minor == nullptr) {
      return Fail(kOpenGpaProfileStatusErrorNullPointer,
                  std::string("OpenGpaProfileGetVersion: ") + (major == nullptr ? "major" : "minor") + " is NULL");
    }
    *major = OPENGPA_PROFILE_API_MAJOR_VERSION;
    *minor = OPENGPA_PROFILE_API_MINOR_VERSION;
    return kOpenGpaProfileStatusOk;
  });
}

const char* OpenGpaProfileGetLastError(void) { return opengpa::profiler::LastError().c_str(); }

OpenGpaProfileStatus OpenGpaProfileStartFromEnvironment(void) {
  return GuardedProfile("OpenGpaProfileStartFromEnvironment", [] {
    std::string error;
    switch (opengpa::inject_cuda::StartWholeProcessInjection(&error)) {
      case opengpa::inject_cuda::WholeProcessStart::kStarted: return kOpenGpaProfileStatusOk;
      case opengpa::inject_cuda::WholeProcessStart::kNotProfiled:
        return Fail(kOpenGpaProfileStatusErrorNotRunning, "OpenGpaProfileStartFromEnvironment: " + error);
      case opengpa::inject_cuda::WholeProcessStart::kFailed: break;
    }
    return Fail(kOpenGpaProfileStatusErrorFailed, "OpenGpaProfileStartFromEnvironment: " + error);
  });
}

OpenGpaProfileStatus OpenGpaProfileGetCuptiPath(char* buffer, size_t* size) {
  return GuardedProfile("OpenGpaProfileGetCuptiPath", [&] {
    // libcupti is loaded at the first CUPTI call (nvidia/cupti_loader.h): the file its functions come from.
    std::string why;
    const opengpa::DynamicLibrary* cupti = opengpa::nvidia::LoadedCupti(&why);
    if (cupti == nullptr) return Fail(kOpenGpaProfileStatusErrorFailed, "OpenGpaProfileGetCuptiPath: " + why);
    Dl_info info{};
    const void* function = cupti->Symbol("cuptiSubscribe");
    if (function == nullptr || dladdr(function, &info) == 0 || info.dli_fname == nullptr) {
      return Fail(kOpenGpaProfileStatusErrorFailed,
                  "OpenGpaProfileGetCuptiPath: cannot tell where libcupti was loaded from");
    }
    return opengpa::profiler::FillText("OpenGpaProfileGetCuptiPath", info.dli_fname, buffer, size);
  });
}
