// CUPTI's profiler initialisation for the dlopen'ed CUPTI of PM sampling (cupti_pm_library.h), and the chip
// name of a device. Only compiled with OPENGPA_WITH_PM_SAMPLING.
#ifndef OPENGPA_NVIDIA_CUPTI_PROFILER_SESSION_H_
#define OPENGPA_NVIDIA_CUPTI_PROFILER_SESSION_H_

#include <memory>
#include <string>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "nvidia/cupti_pm_library.h"

namespace opengpa::nvidia::cupti {

// What PM sampling holds while it samples: CUPTI's profiler initialised, by the rule every OpenGPA user of
// CUPTI follows (cupti_profiler_initialization.h: once per process, never undone, so ending a session leaves the
// range profiler of a CUDA context in the same process working).
class ProfilerSession {
 public:
  [[nodiscard]] static GpaStatus Begin(const CuptiLibrary& cupti, std::unique_ptr<ProfilerSession>* session);
  ProfilerSession() = default;
  ProfilerSession(const ProfilerSession&) = delete;
  ProfilerSession& operator=(const ProfilerSession&) = delete;
};

// The chip name ("GH100") of CUDA device `ordinal`, as CUPTI's host API wants it.
[[nodiscard]] GpaStatus ChipName(const CuptiLibrary& cupti, int ordinal, std::string* chip);

}  // namespace opengpa::nvidia::cupti

#endif  // OPENGPA_NVIDIA_CUPTI_PROFILER_SESSION_H_
