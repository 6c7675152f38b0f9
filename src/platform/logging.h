// GPA's logging callback, and the one way internal code reports an error: log a message that
// names the argument and the bad value, and return the GPA status the caller will see.
#ifndef OPENGPA_PLATFORM_LOGGING_H_
#define OPENGPA_PLATFORM_LOGGING_H_

#include <fmt/format.h>

#include <string_view>
#include <utility>

#include "gpu_performance_api/gpu_perf_api_function_types.h"  // GpaLoggingCallbackPtrType

namespace opengpa {

// `types` is a GpaLoggingType bit mask as the caller passed it (undefined bits select nothing).
void SetLoggingCallback(unsigned types, GpaLoggingCallbackPtrType callback);
bool LoggingEnabled(GpaLoggingType type);
// Hands `message` to the callback when `type` is enabled, with a '.' appended unless it ends with one.
void LogMessage(GpaLoggingType type, std::string_view message);

template <typename... Args>
void Log(GpaLoggingType type, fmt::format_string<Args...> format, Args&&... args) {
  if (LoggingEnabled(type)) LogMessage(type, fmt::format(format, std::forward<Args>(args)...));
}

// Logs an error and returns `status`: `return LogError(kGpaStatusErrorIndexOutOfRange, "index {} >= {}", i, n);`
template <typename... Args>
GpaStatus LogError(GpaStatus status, fmt::format_string<Args...> format, Args&&... args) {
  Log(kGpaLoggingError, format, std::forward<Args>(args)...);
  return status;
}

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_LOGGING_H_
