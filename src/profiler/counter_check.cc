// OpenGpaProfileCheckCounters: `opengpa profile --api cuda` checks the counter names before it starts
// the program, so that a misspelt name costs no run. The CLI links no CUDA; it loads this library (the
// one it injects) and asks here. Names resolve as in the profiled program (counter_plan.h), on any chip
// the installed CUPTI supports: CUPTI's host API needs no GPU, no driver and no context. The device's own
// chip is not asked for (that would take cuInit and CUPTI's target side; a first version that did crashed
// on the H100 before the program started): a name some other chip knows and this device lacks is still
// refused by the profiled program, as before.
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "counter_plan.h"

namespace opengpa::inject_cuda {
namespace {

std::vector<std::string> SplitNames(const char* joined) {
  std::vector<std::string> names;
  std::string name;
  for (const char* c = joined;; ++c) {
    if (*c == ',' || *c == '\0') {
      if (!name.empty()) names.push_back(name);
      name.clear();
      if (*c == '\0') break;
    } else {
      name += *c;
    }
  }
  return names;
}

}  // namespace
}  // namespace opengpa::inject_cuda

// Returns 1 when every name of the comma-separated `names` resolves, 0 when one does not (`message`
// says which, NUL-terminated, cut to `message_size`).
extern "C" __attribute__((visibility("default"))) int OpenGpaProfileCheckCounters(const char* names, char* message,
                                                                                  std::size_t message_size) {
  using namespace opengpa::inject_cuda;
  std::string error;
  const bool known = names == nullptr || CheckCounterNames("", SplitNames(names), &error);
  if (message != nullptr && message_size > 0) {
    std::strncpy(message, error.c_str(), message_size - 1);
    message[message_size - 1] = '\0';
  }
  return known ? 1 : 0;
}
