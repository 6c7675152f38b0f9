// Collects what the library logs during a test, so a test can check the message names the argument and
// value at fault.
#ifndef OPENGPA_TESTS_MONITOR_LOG_CAPTURE_H_
#define OPENGPA_TESTS_MONITOR_LOG_CAPTURE_H_

#include <mutex>
#include <string>
#include <vector>

#include "platform/logging.h"

namespace opengpa::monitor::testing {

class LogCapture {
 public:
  LogCapture() {
    Messages().clear();
    SetLoggingCallback(kGpaLoggingErrorAndMessage, &Record);
  }
  ~LogCapture() { SetLoggingCallback(kGpaLoggingNone, nullptr); }

  // Everything logged since construction, one message per line.
  std::string Text() const {
    std::lock_guard<std::mutex> lock(Mutex());
    std::string text;
    for (const std::string& message : Messages()) text += message + "\n";
    return text;
  }

 private:
  static void Record(GpaLoggingType, const char* message) {
    std::lock_guard<std::mutex> lock(Mutex());
    Messages().emplace_back(message);
  }
  static std::vector<std::string>& Messages() {
    static std::vector<std::string> messages;
    return messages;
  }
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
};

}  // namespace opengpa::monitor::testing

#endif  // OPENGPA_TESTS_MONITOR_LOG_CAPTURE_H_
