// CUPTI's profiler initialisation for the dlopen'ed CUPTI of PM sampling (cupti_pm_library.h), and the chip
// name of a device. Only compiled with OPENGPA_WITH_PM_SAMPLING.
#ifndef OPENGPA_NVIDIA_CUPTI_PROFILER_SESSION_H_
#define OPENGPA_NVIDIA_CUPTI_PROFILER_SESSION_H_

#include <memory>
#include <mutex>
#include <string>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "nvidia/cupti_pm_library.h"

namespace opengpa::nvidia::cupti {

// cuptiProfilerInitialize / cuptiProfilerDeInitialize, counted across the process: CUPTI's own
// initialisation is process-wide and not reference-counted (a second DeInitialize while another
// monitor still samples would tear it down under that monitor). libcupti is never unloaded, so every
// CuptiLibrary holds the same functions.
class ProfilerSession {
 public:
  static GpaStatus Begin(const CuptiLibrary& cupti, std::unique_ptr<ProfilerSession>* session);
  explicit ProfilerSession(const CuptiLibrary& cupti) : cupti_(cupti) {}
  ~ProfilerSession();
  ProfilerSession(const ProfilerSession&) = delete;
  ProfilerSession& operator=(const ProfilerSession&) = delete;

 private:
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
  static int& Users() {
    static int users = 0;
    return users;
  }
  const CuptiLibrary& cupti_;
};

// The chip name ("GH100") of CUDA device `ordinal`, as CUPTI's host API wants it.
GpaStatus ChipName(const CuptiLibrary& cupti, int ordinal, std::string* chip);

}  // namespace opengpa::nvidia::cupti

#endif  // OPENGPA_NVIDIA_CUPTI_PROFILER_SESSION_H_
