// What every exported entry point of every face shares (GPA v3, v4 and v2, NvPmApi, the counter library, the
// monitor's and the profiler's C APIs, the Vulkan layer's hooks): no exception crosses the C ABI, and a null
// argument is reported with its name. Needs no core type, so every room can use it.
#ifndef OPENGPA_PLATFORM_GUARDED_H_
#define OPENGPA_PLATFORM_GUARDED_H_

#include <exception>
#include <string>
#include <utility>

#include "platform/logging.h"

namespace opengpa {

// Runs `body` (which returns a Status). An exception escaping it is described ("<function>: exception: <what>")
// to `report`, and `failure` is returned: for faces whose status is not GpaStatus, or that report elsewhere.
template <typename Status, typename Report, typename Body>
Status GuardedWith(const char* function, Status failure, Report&& report, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::exception& e) {
    try {
      report(std::string(function) + ": exception: " + e.what());
    } catch (...) {
    }
  } catch (...) {
    try {
      report(std::string(function) + ": unknown exception");
    } catch (...) {
    }
  }
  return failure;
}

// A GPA face's entry point: an exception becomes kGpaStatusErrorException, logged through GPA's logging callback.
template <typename Body>
[[nodiscard]] GpaStatus Guarded(const char* function, Body&& body) noexcept {
  return GuardedWith(
      function, kGpaStatusErrorException,
      [](const std::string& message) { LogError(kGpaStatusErrorException, "{}", message); }, std::forward<Body>(body));
}

[[nodiscard]] inline GpaStatus NullArgument(const char* function, const char* argument) {
  return LogError(kGpaStatusErrorNullPointer, "{}: {} is NULL", function, argument);
}

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_GUARDED_H_
