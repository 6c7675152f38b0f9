// What every exported entry point shares, v3 and v4 alike: no exception crosses the C ABI, and a null
// argument is reported with its name. Needs no core type, so the v4 face (src/entry/gpa4) uses it too.
#ifndef OPENGPA_ENTRY_GUARDED_H_
#define OPENGPA_ENTRY_GUARDED_H_

#include <exception>

#include "platform/logging.h"

namespace opengpa::entry {

template <typename Body>
GpaStatus Guarded(const char* function, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::exception& e) {
    try {
      return LogError(kGpaStatusErrorException, "{}: exception: {}", function, e.what());
    } catch (...) {
    }
  } catch (...) {
    try {
      return LogError(kGpaStatusErrorException, "{}: unknown exception", function);
    } catch (...) {
    }
  }
  return kGpaStatusErrorException;
}

inline GpaStatus NullArgument(const char* function, const char* argument) {
  return LogError(kGpaStatusErrorNullPointer, "{}: {} is NULL", function, argument);
}

}  // namespace opengpa::entry

#endif  // OPENGPA_ENTRY_GUARDED_H_
