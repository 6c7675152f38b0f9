#include "entry/gpa2/gpa2_logging.h"

#include <atomic>
#include <string>

#include "gpu_performance_api/gpu_perf_api.h"

namespace opengpa::gpa2 {
namespace {

// Atomics, not the v2 state's mutex: the core logs from inside calls the v2 face makes under that mutex.
std::atomic<GPA_LoggingCallbackPtrType> g_callback{nullptr};
std::atomic<unsigned> g_types{GPA_LOGGING_NONE};

GpaLoggingType ToV3Types(unsigned v2_types) {
  unsigned v3 = 0;
  if (v2_types & GPA_LOGGING_ERROR) v3 |= kGpaLoggingError;
  if (v2_types & GPA_LOGGING_MESSAGE) v3 |= kGpaLoggingMessage;
  if (v2_types & GPA_LOGGING_TRACE) v3 |= kGpaLoggingTrace;
  return static_cast<GpaLoggingType>(v3);
}

GPA_Logging_Type FromV3Type(GpaLoggingType type) {
  if (type & kGpaLoggingError) return GPA_LOGGING_ERROR;
  if (type & kGpaLoggingTrace) return GPA_LOGGING_TRACE;
  return GPA_LOGGING_MESSAGE;
}

void ForwardCoreMessage(GpaLoggingType type, const char* message) {
  LogMessage(FromV3Type(type), message != nullptr ? message : "");
}

}  // namespace

void SetLoggingCallback(unsigned types, GPA_LoggingCallbackPtrType callback) {
  if (types == GPA_LOGGING_NONE || callback == nullptr) {
    g_types = GPA_LOGGING_NONE;
    g_callback = nullptr;
    GpaRegisterLoggingCallback(kGpaLoggingNone, nullptr);
    return;
  }
  g_callback = callback;
  g_types = types;
  GpaRegisterLoggingCallback(ToV3Types(types), &ForwardCoreMessage);
}

bool LoggingEnabled(GPA_Logging_Type type) {
  return (g_types.load() & static_cast<unsigned>(type)) != 0 && g_callback.load() != nullptr;
}

void LogMessage(GPA_Logging_Type type, std::string_view message) {
  GPA_LoggingCallbackPtrType callback = g_callback.load();
  if (callback == nullptr || (g_types.load() & static_cast<unsigned>(type)) == 0) return;
  const std::string text(message);
  callback(type, text.c_str());
}

}  // namespace opengpa::gpa2
