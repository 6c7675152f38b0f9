// The v2 logging callback (GPA_RegisterLoggingCallback) and how the v2 face reports an error: a message
// naming the v2 function and the reason goes to the callback, and the v2 status is returned.
//
// The v2 callback also receives the core's own messages: registering it registers a forwarder with the v3
// GpaRegisterLoggingCallback, which maps the message type by name.
#ifndef OPENGPA_ENTRY_GPA2_GPA2_LOGGING_H_
#define OPENGPA_ENTRY_GPA2_GPA2_LOGGING_H_

#include <fmt/format.h>

#include <string_view>
#include <utility>

#include "gpu_performance_api/v2/GPUPerfAPITypes.h"

namespace opengpa::gpa2 {

// Replaces the callback; `types` (GPA_Logging_Type bits) NONE, or a null callback, turns v2 logging off.
void SetLoggingCallback(unsigned types, GPA_LoggingCallbackPtrType callback);
bool LoggingEnabled(GPA_Logging_Type type);
void LogMessage(GPA_Logging_Type type, std::string_view message);

template <typename... Args>
void Log(GPA_Logging_Type type, fmt::format_string<Args...> format, Args&&... args) {
  if (LoggingEnabled(type)) LogMessage(type, fmt::format(format, std::forward<Args>(args)...));
}

// `return Fail(GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetNumCounters: count is NULL");`
template <typename... Args>
GPA_Status Fail(GPA_Status status, fmt::format_string<Args...> format, Args&&... args) {
  Log(GPA_LOGGING_ERROR, format, std::forward<Args>(args)...);
  return status;
}

}  // namespace opengpa::gpa2

#endif  // OPENGPA_ENTRY_GPA2_GPA2_LOGGING_H_
