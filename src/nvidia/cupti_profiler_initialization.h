// CUPTI's profiler initialisation (cuptiProfilerInitialize), one rule for every user in a process: the range
// profiler (the CUDA backend, the per-launch profiler) and PM sampling (the monitor, CUDA streaming sessions).
// CUPTI's initialisation is process-wide and not reference-counted, so a cuptiProfilerDeInitialize by one user
// tears it down under all the others: the monitor used to, when its last sampler stopped, under any CUDA context
// of the GPA library in the same process (Python can load both). So OpenGPA initialises CUPTI's profiler once
// and never deinitialises it: it ends with the process. A failed initialisation is tried again at the next use
// (another CUPTI client may have gone). The users reach CUPTI two ways (linked, and dlopen'ed where a machine may
// lack it), so the initialising function is passed in.
#ifndef OPENGPA_NVIDIA_CUPTI_PROFILER_INITIALIZATION_H_
#define OPENGPA_NVIDIA_CUPTI_PROFILER_INITIALIZATION_H_

#include <cupti_profiler_target.h>

#include <mutex>

namespace opengpa::nvidia {

inline CUptiResult InitializeCuptiProfiler(CUptiResult (*initialize)(CUpti_Profiler_Initialize_Params*)) {
  static std::mutex mutex;
  static bool initialized = false;
  std::lock_guard<std::mutex> lock(mutex);
  if (initialized) return CUPTI_SUCCESS;
  CUpti_Profiler_Initialize_Params params{};
  params.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
  const CUptiResult result = initialize(&params);
  initialized = result == CUPTI_SUCCESS;
  return result;
}

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_CUPTI_PROFILER_INITIALIZATION_H_
