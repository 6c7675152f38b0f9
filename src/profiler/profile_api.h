// What the exported functions of include/opengpa/opengpa_profile.h share: the calling thread's last message,
// text returned through `char* buffer, size_t* size`, and the exception guard of the C boundary.
#ifndef OPENGPA_PROFILER_PROFILE_API_H_
#define OPENGPA_PROFILER_PROFILE_API_H_

#include <string>
#include <vector>

#include "opengpa/opengpa_profile.h"
#include "platform/guarded.h"

namespace opengpa::profiler {

// Records `message` as the thread's last error (and logs it) and returns `status`.
OpenGpaProfileStatus Fail(OpenGpaProfileStatus status, const std::string& message);

// Clears the thread's last error: every exported function starts with it.
void ClearLastError();
const std::string& LastError();

// Copies `text` and its terminating zero into `buffer` when *size (its capacity) allows; *size becomes the
// size the text needs. Ok for a NULL buffer (a size query), BufferTooSmall when it does not fit.
OpenGpaProfileStatus FillText(const char* function, const std::string& text, char* buffer, std::size_t* size);

// The names of a comma-separated list, empty ones left out.
std::vector<std::string> SplitCounterNames(const char* text);

// An exported function's body: the last error cleared, an exception turned into ErrorException.
template <typename Body>
OpenGpaProfileStatus GuardedProfile(const char* function, Body&& body) noexcept {
  ClearLastError();
  return GuardedWith(
      function, kOpenGpaProfileStatusErrorException,
      [](const std::string& message) { Fail(kOpenGpaProfileStatusErrorException, message); }, std::forward<Body>(body));
}

}  // namespace opengpa::profiler

#endif  // OPENGPA_PROFILER_PROFILE_API_H_
