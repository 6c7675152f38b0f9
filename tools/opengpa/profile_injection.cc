#include "profile_injection.h"

#include <cstdlib>

#include "api_name.h"
#include "library_path.h"
#include "platform/dynamic_library.h"
#include "sample_stream.h"

namespace opengpa::cli {
namespace {

std::string Join(const std::vector<std::string>& names) {
  std::string joined;
  for (const auto& name : names) joined += (joined.empty() ? "" : ",") + name;
  return joined;
}

}  // namespace

std::vector<std::string> DefaultProfileCounters(GpaApiType api) {
  // One pass on GH100 (`opengpa passes --chip GH100 --hardware`): time, SM activity, instructions, L2 and DRAM
  // traffic. (sm__throughput.* alone would take 8 passes.)
  if (api == kGpaApiCuda) {
    return {"gpu__time_duration.sum", "sm__cycles_active.avg",      "smsp__inst_executed.sum",
            "lts__t_sectors_op_read.sum", "dram__bytes_read.sum", "dram__bytes_write.sum"};
  }
  return {"GPUTime"};
}

bool CheckApiRuntime(GpaApiType api, std::string* error) {
  if (api != kGpaApiCuda) return true;
  // Without the driver the program cannot run its kernels and CUPTI cannot inject: say so before running it.
  std::string driver_error;
  if (!DynamicLibrary::Open({"libcuda.so.1"}, &driver_error)) {
    *error = "--api cuda: the NVIDIA driver (libcuda.so.1) cannot be loaded, so no CUDA program can run here (" +
             driver_error + ")";
    return false;
  }
  return true;
}

bool PrepareInjection(GpaApiType api, const std::vector<std::string>& counters, const std::string& stream_path,
                      std::map<std::string, std::string>* environment, std::string* error) {
  (*environment)[profiling::kStreamPathVariable] = stream_path;
  (*environment)[profiling::kCountersVariable] = Join(counters);
  switch (static_cast<int>(api)) {  // int: kGpaApiCuda is outside GpaApiType's enumerators
    case static_cast<int>(kGpaApiCuda): {
      auto library = FindOpenGpaLibrary("libopengpa_inject_cuda.so", error);
      if (!library) return false;
      (*environment)["CUDA_INJECTION64_PATH"] = *library;
      return true;
    }
    case kGpaApiOpencl: {
      for (const auto& counter : counters) {
        if (counter != "GPUTime") {
          *error = "--api cl profiles GPUTime (from each kernel's event); \"" + counter + "\" is not measured this way";
          return false;
        }
      }
      auto library = FindOpenGpaLibrary("libopengpa_intercept_cl.so", error);
      if (!library) return false;
      const char* existing = std::getenv("LD_PRELOAD");
      (*environment)["LD_PRELOAD"] = *library + (existing && *existing ? ":" + std::string(existing) : "");
      return true;
    }
    default:
      *error = "profile supports --api cuda (CUPTI injection) and --api cl (LD_PRELOAD interception); --api " +
               std::string(ApiShortName(api)) +
               " programs are profiled by linking GPA (see samples/) since there is no way to inject into them";
      return false;
  }
}

}  // namespace opengpa::cli
