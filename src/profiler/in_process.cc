#include "in_process.h"

#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "context_profiler.h"
#include "counter_outputs.h"
#include "generated_nvtx_meta.h"
#include "injection_control.h"
#include "nvidia/cuda_driver.h"
#include "profile_writers.h"
#include "replay_merge.h"
#include "sample_stream.h"

namespace opengpa::inject_cuda {
namespace {

struct LaunchLabel {
  std::uint64_t index = 0;
  CUcontext context = nullptr;
  std::vector<std::string> ranges;
  // Where and when on the host the launch was made, so that Python can place it inside torch.profiler's
  // CPU events (python/opengpa/op_attribution.py): the OS thread id and CLOCK_REALTIME, the clock
  // torch.profiler's events are given in on Linux.
  long thread = 0;
  std::int64_t host_ns = 0;
};

struct InProcessState {
  std::mutex mutex;  // guards launches (the injection calls on_launch under its own lock, from any thread)
  std::vector<LaunchLabel> launches;
  bool running = false;
};

InProcessState& State() {
  static InProcessState state;
  return state;
}

thread_local std::string last_error;
thread_local std::vector<std::string> open_ranges;  // this thread's labels, outermost first

int Fail(const std::string& error) {
  last_error = error;
  return 0;
}

std::size_t Fill(const std::string& text, char* buffer, std::size_t size) {
  if (buffer != nullptr && size > text.size()) std::memcpy(buffer, text.c_str(), text.size() + 1);
  return text.size() + 1;
}

std::vector<std::string> SplitNames(const char* text) {
  std::vector<std::string> names;
  const std::string all = text ? text : "";
  std::size_t start = 0;
  while (start <= all.size()) {
    const std::size_t comma = std::min(all.find(',', start), all.size());
    if (comma > start) names.push_back(all.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}

bool ParseSettings(const char* replay, profiling::ProfileSettings* settings, std::string* error) {
  const std::optional<profiling::ReplayMode> mode = profiling::ParseReplayMode(replay ? replay : "auto");
  if (!mode) {
    *error = std::string("replay \"") + (replay ? replay : "") + "\" is none of none, kernel, application, auto";
    return false;
  }
  settings->replay = *mode;
  return true;
}

// The NVTX push/pop ranges of the thread become labels, as Python's regions do. A message that is not
// ASCII text (wide, registered) is labelled "nvtx" so that pushes and pops stay balanced.
std::string NvtxMessage(const nvtxEventAttributes_t* attributes) {
  if (attributes && attributes->messageType == NVTX_MESSAGE_TYPE_ASCII && attributes->message.ascii) {
    return attributes->message.ascii;
  }
  return "nvtx";
}

void OnNvtx(CUpti_CallbackId cbid, const CUpti_NvtxData& data) {
  switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxRangePushA: {
      const auto* params = static_cast<const nvtxRangePushA_params*>(data.functionParams);
      open_ranges.push_back(params && params->message ? params->message : "nvtx");
      break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePushW: open_ranges.push_back("nvtx"); break;
    case CUPTI_CBID_NVTX_nvtxRangePushEx: {
      const auto* params = static_cast<const nvtxRangePushEx_params*>(data.functionParams);
      open_ranges.push_back(NvtxMessage(params ? params->eventAttrib : nullptr));
      break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
      const auto* params = static_cast<const nvtxDomainRangePushEx_params*>(data.functionParams);
      open_ranges.push_back(NvtxMessage(params ? params->core.eventAttrib : nullptr));
      break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePop:
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
      if (!open_ranges.empty()) open_ranges.pop_back();
      break;
    default: break;
  }
}

std::int64_t RealtimeNanoseconds() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// Called on the launching thread at the launch's entry, before any profiling work of the injection.
void OnLaunch(std::uint64_t index, CUcontext context) {
  const std::int64_t host_ns = RealtimeNanoseconds();
  const long thread = syscall(SYS_gettid);
  InProcessState& state = State();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.launches.push_back({index, context, open_ranges, thread, host_ns});
}

std::string PointerText(const void* pointer) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", pointer);
  return text;
}

}  // namespace
}  // namespace opengpa::inject_cuda

using namespace opengpa;
using namespace opengpa::inject_cuda;

size_t OpenGpaKernelProfilerPlan(void* context, const char* counters, const char* replay, char* buffer, size_t size) {
  if (nvidia::LoadCudaDriver() == nullptr) {
    Fail("no CUDA driver (libcuda.so.1) on this machine: per-kernel profiling needs a GPU");
    return 0;
  }
  if (context == nullptr) {
    Fail("no CUDA context: make one current (any CUDA call of PyTorch, CuPy or JAX does)");
    return 0;
  }
  profiling::ProfileSettings settings;
  std::string error;
  if (!ParseSettings(replay, &settings, &error)) {
    Fail(error);
    return 0;
  }
  settings.flush_caches = false;  // planning allocates nothing on the device
  auto profiler = ContextProfiler::Create(static_cast<CUcontext>(context), SplitNames(counters), settings, 1, &error);
  if (!profiler) {
    Fail(error);
    return 0;
  }
  const profiling::ProfileRun& description = profiler->Description();
  nlohmann::ordered_json json = {{"replay", description.replay},
                                 {"passes", description.passes},
                                 {"device", description.device},
                                 {"messages", description.messages}};
  return Fill(json.dump(), buffer, size);
}

int OpenGpaKernelProfilerStart(const char* counters, const char* replay, unsigned pass, int flush_caches,
                               const char* kernel_name, const char* stream_path, int with_nvtx) {
  if (nvidia::LoadCudaDriver() == nullptr) {
    return Fail("no CUDA driver (libcuda.so.1) on this machine: per-kernel profiling needs a GPU");
  }
  InjectionOptions options;
  options.counters = SplitNames(counters);
  if (options.counters.empty()) return Fail("no counters given: name at least one");
  std::string error;
  if (!ParseSettings(replay, &options.settings, &error)) return Fail(error);
  options.settings.pass = pass;
  options.settings.flush_caches = flush_caches != 0;
  options.settings.kernel_name = kernel_name ? kernel_name : "";
  std::FILE* file = stream_path ? std::fopen(stream_path, "w") : nullptr;
  if (file == nullptr) return Fail(std::string("cannot write the sample stream ") + (stream_path ? stream_path : ""));
  InjectionHooks hooks;
  hooks.on_launch = &OnLaunch;
  if (with_nvtx != 0) hooks.on_nvtx = &OnNvtx;
  InProcessState& state = State();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    state.launches.clear();
  }
  if (!StartInjection(std::make_unique<profiling::SampleStreamWriter>(file), std::move(options), std::move(hooks),
                      &error)) {
    return Fail(error);
  }
  state.running = true;
  return 1;
}

int OpenGpaKernelProfilerStop(void) {
  InProcessState& state = State();
  if (!state.running) return Fail("no profiling session is running");
  FinishInjection(false);
  state.running = false;
  return 1;
}

int OpenGpaKernelProfilerPushRange(const char* name) {
  open_ranges.push_back(name ? name : "");
  return 1;
}

int OpenGpaKernelProfilerPopRange(void) {
  if (open_ranges.empty()) return Fail("no range is open on this thread");
  open_ranges.pop_back();
  return 1;
}

size_t OpenGpaKernelProfilerLaunches(char* buffer, size_t size) {
  InProcessState& state = State();
  nlohmann::ordered_json json = nlohmann::ordered_json::array();
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    for (const LaunchLabel& launch : state.launches) {
      json.push_back({{"index", launch.index},
                      {"context", PointerText(launch.context)},
                      {"ranges", launch.ranges},
                      {"thread", launch.thread},
                      {"host_ns", launch.host_ns}});
    }
  }
  return Fill(json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace), buffer, size);
}

int OpenGpaKernelProfilerJoin(const char* const* stream_paths, unsigned count, const char* output_path) {
  if (stream_paths == nullptr || count == 0 || output_path == nullptr) return Fail("no pass to join");
  std::vector<profiling::ProfileRun> passes(count);
  std::string error;
  for (unsigned pass = 0; pass < count; ++pass) {
    bool ended = false;
    if (!profiling::ReadSampleStream(stream_paths[pass], &passes[pass], &ended, &error)) return Fail(error);
    if (!ended) return Fail("pass " + std::to_string(pass + 1) + "'s sample stream has no end record");
  }
  profiling::ProfileRun joined;
  if (!profiling::MergeReplayPasses(passes, &joined, &error)) return Fail(error);
  if (!profiling::EvaluateOutputs(&joined, &error)) return Fail(error);
  std::ofstream out(output_path);
  out << profiling::ProfileJson(joined).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  if (!out.good()) return Fail(std::string("cannot write ") + output_path);
  return 1;
}

size_t OpenGpaKernelProfilerCuptiPath(char* buffer, size_t size) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&cuptiSubscribe), &info) == 0 || info.dli_fname == nullptr) {
    Fail("cannot tell where libcupti was loaded from");
    return 0;
  }
  return Fill(info.dli_fname, buffer, size);
}

const char* OpenGpaKernelProfilerLastError(void) { return last_error.c_str(); }
