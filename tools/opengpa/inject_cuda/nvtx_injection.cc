// NVTX_INJECTION64_PATH=libopengpa_inject_cuda.so (`opengpa profile` sets it when the program's environment
// does not): NVTX loads this library at the program's first NVTX call, which may come before its first CUDA
// call. The profiling session starts here then (CUPTI's callbacks can be subscribed before cuInit), so ranges
// pushed before CUDA starts are seen too, and NVTX is handed on to libcupti's own NVTX injection, which
// delivers the calls to the session's CUPTI_CB_DOMAIN_NVTX callbacks (nvtx_ranges.h). CUDA's later call of
// InitializeInjection finds the session running.
#include <cupti.h>
#include <dlfcn.h>

extern "C" int InitializeInjection(void);

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(const void* get_export_table) {
  InitializeInjection();  // without a stream (not under `opengpa profile`) it does nothing
  // libcupti is this library's dependency: find it by one of its functions and ask it for its NVTX entry.
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&cuptiSubscribe), &info) == 0 || info.dli_fname == nullptr) return 0;
  void* cupti = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (cupti == nullptr) return 0;
  using NvtxEntry = int (*)(const void*);
  auto entry = reinterpret_cast<NvtxEntry>(dlsym(cupti, "InitializeInjectionNvtx2"));
  const int result = entry != nullptr ? entry(get_export_table) : 0;
  dlclose(cupti);  // RTLD_NOLOAD took a reference; the library stays loaded as this one's dependency
  return result;
}
