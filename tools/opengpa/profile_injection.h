// How `opengpa profile` gets into an unmodified program, per API, and which counters each way measures:
//   cuda  CUDA_INJECTION64_PATH=libopengpa_inject_cuda.so: CUPTI range profiler, auto ranges, kernel
//         replay; any CUPTI metric of the device (e.g. dram__bytes_read.sum)
//   cl    LD_PRELOAD=libopengpa_intercept_cl.so: clEnqueueNDRangeKernel interception; GPUTime from each
//         kernel's own event (profiling forced on every queue)
#ifndef OPENGPA_TOOLS_OPENGPA_PROFILE_INJECTION_H_
#define OPENGPA_TOOLS_OPENGPA_PROFILE_INJECTION_H_

#include <map>
#include <string>
#include <vector>

#include "client/gpa_library_search.h"  // ApiNumber
#include "gpu_performance_api/gpu_perf_api_types.h"
#include "profiler/profile_environment.h"

namespace opengpa::cli {

// Counters used when the user names none.
std::vector<std::string> DefaultProfileCounters(client::ApiNumber api);

// False and *error naming what is missing when the API's runtime cannot run a program here (CUDA: the
// NVIDIA driver's libcuda.so.1).
bool CheckApiRuntime(client::ApiNumber api, std::string* error);

// Before the program runs: false and *error naming the first counter the injected library will not
// resolve (CUDA: asked of libOpenGPAProfile.so, on any chip CUPTI supports; OpenCL: GPUTime, in any case, with the
// closest name suggested, *counters then spelt as the library does). True when every name resolves, and when the
// library cannot be asked (PrepareInjection or the run then says why). CUDA with `replay` auto: also false when
// no chip collects the set with one-pass values (a metric that alone needs several passes; the reason in *error).
bool CheckCounterNames(client::ApiNumber api, profiling::ReplayMode replay, std::vector<std::string>* counters,
                       std::string* error);

// The environment that loads the profiling library into the program and tells it the counters and
// the stream path. False and *error when the API cannot be profiled this way, the library is missing or a
// counter is not one this way measures.
bool PrepareInjection(client::ApiNumber api, const std::vector<std::string>& counters, const std::string& stream_path,
                      std::map<std::string, std::string>* environment, std::string* error);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_PROFILE_INJECTION_H_
