// NVTX_INJECTION64_PATH=libopengpa_inject_cuda.so (`opengpa profile` sets it when the program's environment
// does not): NVTX loads this library at the program's first NVTX call, which may come before its first CUDA
// call. The profiling session starts here then (CUPTI's callbacks can be subscribed before cuInit), so ranges
// pushed before CUDA starts are seen too, and NVTX is handed on to libcupti's own NVTX injection, which
// delivers the calls to the session's CUPTI_CB_DOMAIN_NVTX callbacks. CUDA's later call of InitializeInjection
// finds the session running.
#include <string>

#include "opengpa/opengpa_profile.h"
#include "platform/dynamic_library.h"

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(const void* get_export_table) {
  // Without a stream (not under `opengpa profile`) nothing starts; NVTX still reaches CUPTI.
  static_cast<void>(OpenGpaProfileStartFromEnvironment());
  std::string path(4096, '\0');
  std::size_t size = path.size();
  if (OpenGpaProfileGetCuptiPath(path.data(), &size) != kOpenGpaProfileStatusOk) return 0;
  path.resize(size - 1);
  // The profiler library loaded libcupti already: only a reference to it is taken, and it stays loaded.
  const auto cupti = opengpa::DynamicLibrary::OpenIfLoaded(path, opengpa::DynamicLibrary::Unload::kNever);
  using NvtxEntry = int (*)(const void*);
  const auto entry = cupti != nullptr ? cupti->Get<NvtxEntry>("InitializeInjectionNvtx2") : nullptr;
  return entry != nullptr ? entry(get_export_table) : 0;
}
