// OpenGpaProfileCheckCounters: `opengpa profile --api cuda` checks the counter names before it starts the program,
// so that a misspelt name costs no run. The CLI links no CUDA; it loads this library (in a child process) and asks
// here. Names resolve as in the profiled program (counter_plan.h), on any chip the installed CUPTI supports:
// CUPTI's host API needs no GPU, no driver and no context. The device's own chip is not asked for (that would
// take cuInit and CUPTI's target side; a first version that did crashed on the H100 before the program started):
// a name some other chip knows and this device lacks is still refused by the profiled program, as before. With
// OPENGPA_PROFILE_REPLAY auto (or unset), a set auto refuses on every chip (replay_choice.h) is refused here too.
#include <string>
#include <vector>

#include "profiler/counter_plan.h"
#include "profiler/profile_api.h"
#include "profiler/profile_environment.h"

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
    // The replay the run will ask for (OPENGPA_PROFILE_REPLAY, as the profiled program reads it): a set auto
    // refuses on every chip is refused now, before a run that would profile nothing.
    opengpa::profiling::ProfileSettings settings;
    std::string ignored;
    if (opengpa::profiling::SettingsFromEnvironment(&settings, &ignored) &&
        settings.replay == opengpa::profiling::ReplayMode::kAuto &&
        !opengpa::inject_cuda::CheckAutoReplay(names, &error)) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument, error);
    }
    return kOpenGpaProfileStatusOk;
  });
}
