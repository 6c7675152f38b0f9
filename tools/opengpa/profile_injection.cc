#include "profile_injection.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "api_name.h"
#include "library_path.h"
#include "name_matching.h"
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

// A sanitizer runtime (GCC's libasan.so, clang's libclang_rt.asan-x86_64.so, ...): it refuses to start unless it
// comes first in the program's initial library list ("ASan runtime does not come first").
bool IsSanitizerRuntime(const std::string& path) {
  const std::string name = path.substr(path.find_last_of('/') + 1);
  for (const char* prefix : {"libclang_rt.", "libasan.", "libhwasan.", "liblsan.", "libtsan.", "libubsan."}) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// LD_PRELOAD for the program: the interceptor first, so that its OpenCL functions are the ones the program
// calls, except behind the sanitizer runtimes the list already starts with (an ASan-built program, or an
// instrumented library in an ordinary one, run with its runtime preloaded), which must stay first. ld.so takes
// both colons and spaces between names.
std::string PreloadList(const std::string& interceptor, const char* existing) {
  std::string runtimes, others;
  bool leading = true;
  const std::string list = existing != nullptr ? existing : "";
  for (std::size_t start = 0; start < list.size();) {
    std::size_t end = list.find_first_of(": ", start);
    if (end == std::string::npos) end = list.size();
    const std::string entry = list.substr(start, end - start);
    start = end + 1;
    if (entry.empty()) continue;
    leading = leading && IsSanitizerRuntime(entry);
    std::string& part = leading ? runtimes : others;
    part += (part.empty() ? "" : ":") + entry;
  }
  return runtimes + (runtimes.empty() ? "" : ":") + interceptor + (others.empty() ? "" : ":" + others);
}

}  // namespace

std::vector<std::string> DefaultProfileCounters(client::ApiNumber api) {
  // One pass on GH100 (`opengpa passes --chip GH100 --hardware`): time, SM activity, instructions, L2 and DRAM
  // traffic. (sm__throughput.* alone would take 8 passes.)
  if (api == client::kApiCuda) {
    return {"gpu__time_duration.sum",     "sm__cycles_active.avg", "smsp__inst_executed.sum",
            "lts__t_sectors_op_read.sum", "dram__bytes_read.sum",  "dram__bytes_write.sum"};
  }
  return {"GPUTime"};
}

bool CheckApiRuntime(client::ApiNumber api, std::string* error) {
  if (api != client::kApiCuda) return true;
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
[[noreturn]] void CheckInChild(const std::string& library_path, const std::string& names, profiling::ReplayMode replay,
                               int fd) {
  // The library reads the replay as the profiled program will: from the environment (profile_environment.h).
  setenv(profiling::kReplayVariable, std::string(profiling::ReplayModeName(replay)).c_str(), 1);
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

// OpenCL's interposer measures one counter, GPUTime (each kernel's event): any case of it, once.
bool CheckOpenClCounterNames(std::vector<std::string>* counters, std::string* error) {
  static const std::string kGpuTime = "GPUTime";
  for (const std::string& counter : *counters) {
    if (!SameName(counter, kGpuTime)) {
      *error =
          "--api cl profiles GPUTime (from each kernel's event); '" + Quoted(counter) + "' is not measured this way";
      if (ClosestName(counter, {kGpuTime})) *error += "; did you mean 'GPUTime'?";
      return false;
    }
  }
  *counters = {kGpuTime};
  return true;
}

}  // namespace

bool CheckCounterNames(client::ApiNumber api, profiling::ReplayMode replay, std::vector<std::string>* counters_in_out,
                       std::string* error) {
  if (api == kGpaApiOpencl) return CheckOpenClCounterNames(counters_in_out, error);
  if (api != client::kApiCuda) return true;
  const std::vector<std::string>& counters = *counters_in_out;
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
    CheckInChild(*path, names, replay, pipe_fds[1]);
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

bool PrepareInjection(client::ApiNumber api, const std::vector<std::string>& counters, const std::string& stream_path,
                      std::map<std::string, std::string>* environment, std::string* error) {
  (*environment)[profiling::kStreamPathVariable] = stream_path;
  (*environment)[profiling::kCountersVariable] = Join(counters);
  switch (api) {
    case client::kApiCuda: {
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
      std::vector<std::string> names = counters;
      if (!CheckOpenClCounterNames(&names, error)) return false;
      (*environment)[profiling::kCountersVariable] = Join(names);
      auto library = FindOpenGpaLibrary("libopengpa_intercept_cl.so", error);
      if (!library) return false;
      (*environment)["LD_PRELOAD"] = PreloadList(*library, std::getenv("LD_PRELOAD"));
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
