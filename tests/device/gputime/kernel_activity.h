// The kernels' own durations as CUPTI's activity API records them (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: the
// device's start and end timestamps of each launch, what Nsight Systems shows): the unprofiled truth of the
// GPUTime checks. Activity tracing does not serialize or replay anything; it only timestamps launches.
//   KernelActivity::Start({"FfmaLoop"});  launches...;  synchronize;  std::vector<double> ns = KernelActivity::Take();
// Take returns the durations of the program's kernels (names containing one of Start's parts; a profiler
// may launch kernels of its own) launched since the last Take, in launch order (the calling program launches
// from one thread). libcupti is opened only by Start, so a run that never calls it (the
// workload run under ncu or `opengpa profile`) has no CUPTI of its own loaded.
#ifndef OPENGPA_TESTS_DEVICE_GPUTIME_KERNEL_ACTIVITY_H_
#define OPENGPA_TESTS_DEVICE_GPUTIME_KERNEL_ACTIVITY_H_

#include <cupti.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

class KernelActivity {
 public:
  // Starts recording every kernel launch of the process; false (and a message) when CUPTI is missing or refuses.
  static bool Start(std::vector<std::string> name_parts) {
    Parts() = std::move(name_parts);
    Api& api = Functions();
    void* library = dlopen("libcupti.so.13", RTLD_NOW | RTLD_GLOBAL);
    if (library == nullptr) library = dlopen("libcupti.so", RTLD_NOW | RTLD_GLOBAL);
    if (library == nullptr) return Refused("dlopen libcupti");
    api.register_callbacks =
        reinterpret_cast<decltype(api.register_callbacks)>(dlsym(library, "cuptiActivityRegisterCallbacks"));
    api.enable = reinterpret_cast<decltype(api.enable)>(dlsym(library, "cuptiActivityEnable"));
    api.flush_all = reinterpret_cast<decltype(api.flush_all)>(dlsym(library, "cuptiActivityFlushAll"));
    api.next_record = reinterpret_cast<decltype(api.next_record)>(dlsym(library, "cuptiActivityGetNextRecord"));
    if (!api.register_callbacks || !api.enable || !api.flush_all || !api.next_record) return Refused("dlsym");
    if (api.register_callbacks(&BufferRequested, &BufferCompleted) != CUPTI_SUCCESS) return Refused("callbacks");
    if (api.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) return Refused("enable");
    return true;
  }
  // The durations (ns) of the kernels launched since the last call, in launch order; they must have completed.
  static std::vector<double> Take() {
    if (Functions().flush_all) Functions().flush_all(1);
    std::vector<std::pair<std::uint32_t, double>>& records = Records();
    std::sort(records.begin(), records.end());  // correlation ids grow with the launching calls
    std::vector<double> durations;
    for (const auto& record : records) durations.push_back(record.second);
    records.clear();
    return durations;
  }

 private:
  struct Api {
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc) = nullptr;
    CUptiResult (*enable)(CUpti_ActivityKind) = nullptr;
    CUptiResult (*flush_all)(std::uint32_t) = nullptr;
    CUptiResult (*next_record)(std::uint8_t*, std::size_t, CUpti_Activity**) = nullptr;
  };
  static Api& Functions() {
    static Api api;
    return api;
  }
  static std::vector<std::string>& Parts() {
    static std::vector<std::string> parts;
    return parts;
  }
  static bool Wanted(const char* name) {
    for (const std::string& part : Parts()) {
      if (name != nullptr && std::string(name).find(part) != std::string::npos) return true;
    }
    return false;
  }
  static std::vector<std::pair<std::uint32_t, double>>& Records() {  // (correlation id, duration ns)
    static std::vector<std::pair<std::uint32_t, double>> records;
    return records;
  }
  static bool Refused(const char* what) {
    std::fprintf(stderr, "CUPTI activity API unavailable (%s): no activity truth\n", what);
    return false;
  }
  static void CUPTIAPI BufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    constexpr std::size_t kSize = 1 << 20;
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kSize));
    *size = kSize;
    *max_records = 0;
  }
  static void CUPTIAPI BufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
    CUpti_Activity* record = nullptr;
    while (Functions().next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
      if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
      const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      if (!Wanted(kernel->name)) continue;
      Records().emplace_back(kernel->correlationId, static_cast<double>(kernel->end - kernel->start));
    }
    std::free(buffer);
  }
};

#endif  // OPENGPA_TESTS_DEVICE_GPUTIME_KERNEL_ACTIVITY_H_
