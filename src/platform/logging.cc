#include "platform/logging.h"

#include <atomic>
#include <mutex>
#include <string>

namespace opengpa {
namespace {

// The mask is read on every log call, so it is atomic; the callback swap takes the lock.
std::atomic<unsigned> g_types{kGpaLoggingNone};
std::mutex g_mutex;
GpaLoggingCallbackPtrType g_callback = nullptr;

}  // namespace

void SetLoggingCallback(unsigned types, GpaLoggingCallbackPtrType callback) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_callback = callback;
  g_types.store(callback ? types : 0u, std::memory_order_release);
}

bool LoggingEnabled(GpaLoggingType type) {
  return (g_types.load(std::memory_order_acquire) & static_cast<unsigned>(type)) != 0;
}

void LogMessage(GpaLoggingType type, std::string_view message) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_callback == nullptr || (g_types.load() & static_cast<unsigned>(type)) == 0) return;
  // GPA's messages are sentences: each ends with '.' (GPA's own tests check it).
  std::string text(message);
  if (text.empty() || text.back() != '.') text += '.';
  g_callback(type, text.c_str());
}

}  // namespace opengpa
