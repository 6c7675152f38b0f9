// libopengpa_inject_cuda.so: what CUDA loads into a program when CUDA_INJECTION64_PATH names it (`opengpa profile
// --api cuda` sets it). The whole session is the profiler library's (libOpenGPAProfile.so, a dependency of this
// one): the entry only starts it, from the variables `opengpa profile` set (include/opengpa/opengpa_profile.h).
#include "opengpa/opengpa_profile.h"

// CUDA calls this once, from cuInit, in the profiled process. Returning 0 means failure: CUDA then continues
// without the injection, and the stream's message (when a stream was named) says why.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  return OpenGpaProfileStartFromEnvironment() == kOpenGpaProfileStatusOk ? 1 : 0;
}
