// The injection's profiling session as other code of this library drives it. A profiled program starts it
// through libopengpa_inject_cuda.so's InitializeInjection (StartWholeProcessInjection, settings from the
// environment `opengpa profile` sets); the in-process entry (in_process.cc, which Python calls) starts and stops it
// around the user's code, once per pass. Either way the same callbacks, ContextProfiler and sample stream do the work.
#ifndef OPENGPA_PROFILER_INJECTION_CONTROL_H_
#define OPENGPA_PROFILER_INJECTION_CONTROL_H_

#include <cuda.h>
#include <cupti.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "profiler/profile_environment.h"
#include "profiler/sample_stream.h"

namespace opengpa::inject_cuda {

struct InjectionOptions {
  std::vector<std::string> counters;  // GPA names or CUPTI metrics (counter_plan.h)
  profiling::ProfileSettings settings;
  std::size_t batch_size = 256;  // kernel launches decoded together
  // Replay CUDA graphs node by node (graph_expansion.h) when settings.graph_profiling asks for it: only for a
  // session that lasts as long as the process (the executable graphs' nodes stay disabled).
  bool whole_process = false;
};

// Observers of the program's activity, called on the calling thread with the injection's lock held.
struct InjectionHooks {
  // Every kernel launch of the program (profiled or not), at its entry, with its launch index.
  std::function<void(std::uint64_t index, CUcontext context)> on_launch;
  // NVTX calls; when set, the NVTX domain is enabled (CUPTI sees NVTX only when NVTX_INJECTION64_PATH
  // names libcupti before the program's first NVTX call).
  std::function<void(CUpti_CallbackId cbid, const CUpti_NvtxData& data)> on_nvtx;
};

// Subscribes to CUPTI's launch and context callbacks and profiles from the next launch on, writing to
// `stream`. False and *error when a session is already running, the kernel filter does not compile or
// CUPTI refuses the subscription (the stream, when one was given, gets the same message).
bool StartInjection(std::unique_ptr<profiling::SampleStreamWriter> stream, InjectionOptions options,
                    InjectionHooks hooks, std::string* error);

enum class WholeProcessStart { kStarted, kNotProfiled, kFailed };

// The session of a whole profiled process (OpenGpaProfileStartFromEnvironment): the stream, counters and settings
// from `opengpa profile`'s variables (profile_environment.h, sample_stream.h), finished at exit, its profilers
// released around fork. kStarted when it runs (already, too); kNotProfiled when no stream is named; kFailed with
// *error (the stream, when one was opened, says why too).
WholeProcessStart StartWholeProcessInjection(std::string* error);

// Decodes every pending batch, writes the end record and unsubscribes. `at_exit`: the runtime may be
// tearing contexts down, so their memory is left to the driver; otherwise the profilers are destroyed and
// a later StartInjection begins afresh (launch indices from 0 again).
void FinishInjection(bool at_exit);

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_INJECTION_CONTROL_H_
