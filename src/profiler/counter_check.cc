// OpenGpaProfileCheckCounters: `opengpa profile --api cuda` checks the counter names before it starts the program,
// so that a misspelt name costs no run. The CLI links no CUDA; it loads this library (in a child process) and asks
// here. Names resolve as in the profiled program (counter_plan.h), on any chip the installed CUPTI supports:
// CUPTI's host API needs no GPU, no driver and no context. The device's own chip is not asked for (that would
// take cuInit and CUPTI's target side; a first version that did crashed on the H100 before the program started):
// a name some other chip knows and this device lacks is still refused by the profiled program, as before.
#include <string>
#include <vector>

#include "profiler/counter_plan.h"
#include "profiler/profile_api.h"

using opengpa::profiler::Fail;

OpenGpaProfileStatus OpenGpaProfileCheckCounters(const char* counters) {
  return opengpa::profiler::GuardedProfile("OpenGpaProfileCheckCounters", [&] {
    if (counters == nullptr) {
      return Fail(kOpenGpaProfileStatusErrorNullPointer, "OpenGpaProfileCheckCounters: counters is NULL");
    }
    const std::vector<std::string> names = opengpa::profiler::SplitCounterNames(counters);
    if (names.empty()) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument,
                  "OpenGpaProfileCheckCounters: counters \"" + std::string(counters) + "\" names no counter");
    }
    std::string error;
    if (!opengpa::inject_cuda::CheckCounterNames("", names, &error)) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument, error);
    }
    return kOpenGpaProfileStatusOk;
  });
}
