#include "entry/nvpmapi/nvpm_log.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace opengpa::nvpm {
namespace {

struct LastError {
  std::mutex mutex;
  NVPMRESULT result = NVPM_OK;
  std::string message;
};

LastError& Last() {
  static LastError last;
  return last;
}

bool LogToStderr() {
  static const bool enabled = [] {
    const char* value = std::getenv("OPENGPA_NVPMAPI_LOG");
    return value != nullptr && value[0] == '1';
  }();
  return enabled;
}

}  // namespace

void RecordMessage(NVPMRESULT result, std::string_view message) {
  LastError& last = Last();
  {
    std::lock_guard<std::mutex> lock(last.mutex);
    last.result = result;
    last.message.assign(message);
  }
  if (LogToStderr()) std::fprintf(stderr, "NvPmApi: %.*s\n", static_cast<int>(message.size()), message.data());
}

NVPMRESULT LastResult() {
  std::lock_guard<std::mutex> lock(Last().mutex);
  return Last().result;
}

std::string LastMessage() {
  std::lock_guard<std::mutex> lock(Last().mutex);
  return Last().message;
}

}  // namespace opengpa::nvpm
