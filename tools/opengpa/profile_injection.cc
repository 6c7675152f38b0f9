#include "profile_injection.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "api_name.h"
#include "library_path.h"
#include "opengpa/opengpa_profile.h"
#include "platform/dynamic_library.h"
#include "profiler/sample_stream.h"

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
    return {"gpu__time_duration.sum",     "sm__cycles_active.avg", "smsp__inst_executed.sum",
            "lts__t_sectors_op_read.sum", "dram__bytes_read.sum",  "dram__bytes_write.sum"};
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

namespace {

// The check itself, in a child process: the profiler library brings libcupti, which the CLI's own process never
// loads, and whatever goes wrong in it (a crash included) cannot take the CLI down. Writes "1" or "0" and the
// message to `fd`.
[[noreturn]] void CheckInChild(const std::string& library_path, const std::string& names, int fd) {
  std::string ignored;
  auto library = DynamicLibrary::Open({library_path}, &ignored);
  auto check = library ? library->Get<decltype(&OpenGpaProfileCheckCounters)>("OpenGpaProfileCheckCounters") : nullptr;
  auto last_error =
      library ? library->Get<decltype(&OpenGpaProfileGetLastError)>("OpenGpaProfileGetLastError") : nullptr;
  std::string answer = "1";
  if (check != nullptr && last_error != nullptr && check(names.c_str()) == kOpenGpaProfileStatusErrorInvalidArgument) {
    answer = std::string("0") + last_error();
  }
  std::size_t written = 0;
  while (written < answer.size()) {
    const ssize_t n = write(fd, answer.data() + written, answer.size() - written);
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  _exit(0);
}

}  // namespace

bool CheckCounterNames(GpaApiType api, const std::vector<std::string>& counters, std::string* error) {
  if (api != kGpaApiCuda) return true;
  std::string ignored;
  auto path = FindOpenGpaLibrary("libOpenGPAProfile.so", &ignored);
  if (!path) return true;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return true;
  const std::string names = Join(counters);
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    close(pipe_fds[0]);
    CheckInChild(*path, names, pipe_fds[1]);
  }
  close(pipe_fds[1]);
  std::string answer;
  char buffer[512];
  for (ssize_t n; child > 0 && (n = read(pipe_fds[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    answer.append(buffer, static_cast<std::size_t>(n));
  }
  close(pipe_fds[0]);
  int status = 0;
  while (child > 0 && waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  // Only a clear "unknown" refuses the run; a check that could not be made leaves it to the program's own.
  if (answer.empty() || answer[0] != '0') return true;
  *error = answer.substr(1);
  return false;
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
      // NVTX ranges reach the library through NVTX's own injection (inject_cuda/nvtx_injection.cc); a program
      // that names another NVTX tool keeps it, and its samples then carry no ranges.
      const char* nvtx = std::getenv("NVTX_INJECTION64_PATH");
      if (nvtx == nullptr || *nvtx == '\0') (*environment)["NVTX_INJECTION64_PATH"] = *library;
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
