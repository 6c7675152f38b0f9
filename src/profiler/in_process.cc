// The per-kernel profiler driven from inside the program being profiled (include/opengpa/opengpa_profile.h:
// Plan, Start, Stop, PushRange, PopRange, GetLaunches, Join), for Python (python/opengpa/kernels.py). The same
// injection session (injection_control.h) runs between Start and Stop, so each kernel launch becomes one CUPTI
// auto range and one sample of the stream, with GPA counters evaluated by the library's engine: no second
// profiler. What the in-process side adds:
//   - a label per launch: the ranges open on the launching thread (PushRange/PopRange from Python's
//     opengpa.region, and NVTX push/pop ranges when NVTX reaches CUPTI) and the launch's CUDA context;
//   - application replay from inside: the caller runs its work once per pass, each pass a Start..Stop into
//     its own stream, and Join merges the passes with the CLI's rules (replay_merge.h: same launches in the
//     same order, names and shapes) and evaluates the outputs (counter_outputs.h).
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "generated_nvtx_meta.h"
#include "nvidia/cuda_driver.h"
#include "profiler/context_profiler.h"
#include "profiler/counter_outputs.h"
#include "profiler/in_process_state.h"
#include "profiler/injection_control.h"
#include "profiler/profile_api.h"
#include "profiler/profile_writers.h"
#include "profiler/replay_merge.h"
#include "profiler/sample_stream.h"

namespace opengpa::inject_cuda {
namespace {

thread_local std::vector<std::string> open_ranges;  // this thread's labels, outermost first

bool ParseSettings(const char* function, const char* replay, profiling::ProfileSettings* settings, std::string* error) {
  const std::optional<profiling::ReplayMode> mode = profiling::ParseReplayMode(replay != nullptr ? replay : "auto");
  if (!mode) {
    *error = std::string(function) + ": replay \"" + replay + "\" is none of none, kernel, application, auto";
    return false;
  }
  settings->replay = *mode;
  return true;
}

constexpr const char* kNoDriver = "no CUDA driver (libcuda.so.1) on this machine: per-kernel profiling needs a GPU";

// The NVTX push/pop ranges of the thread become labels, as Python's regions do. A message that is not
// ASCII text (wide, registered) is labelled "nvtx" so that pushes and pops stay balanced.
std::string NvtxMessage(const nvtxEventAttributes_t* attributes) {
  if (attributes && attributes->messageType == NVTX_MESSAGE_TYPE_ASCII && attributes->message.ascii) {
    return attributes->message.ascii;
  }
  return "nvtx";
}

void FollowNvtxLabels(CUpti_CallbackId cbid, const CUpti_NvtxData& data) {
  switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxRangePushA: {
      const auto* params = static_cast<const nvtxRangePushA_params*>(data.functionParams);
      open_ranges.emplace_back(params && params->message ? params->message : "nvtx");
      break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePushW: open_ranges.emplace_back("nvtx"); break;
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

std::string PointerText(const void* pointer) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", pointer);
  return text;
}

// Called on the launching thread at the launch's entry, before any profiling work of the injection.
void OnLaunch(std::uint64_t index, CUcontext context) {
  const std::int64_t host_ns = RealtimeNanoseconds();
  const long thread = syscall(SYS_gettid);
  InProcessState& state = InProcess();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.launches.push_back({index, PointerText(context), open_ranges, thread, host_ns});
}

}  // namespace

InProcessState& InProcess() {
  static InProcessState state;
  return state;
}

std::vector<std::string>& OpenRangesOfThisThread() { return open_ranges; }

void FollowNvtx(CUpti_CallbackId cbid, const CUpti_NvtxData& data) { FollowNvtxLabels(cbid, data); }

}  // namespace opengpa::inject_cuda

using namespace opengpa;
using namespace opengpa::inject_cuda;
using opengpa::profiler::Fail;
using opengpa::profiler::FillText;
using opengpa::profiler::GuardedProfile;

OpenGpaProfileStatus OpenGpaProfilePlan(void* cuda_context, const char* counters, const char* replay, char* buffer,
                                        size_t* size) {
  constexpr const char* kFunction = "OpenGpaProfilePlan";
  return GuardedProfile(kFunction, [&] {
    if (counters == nullptr) return Fail(kOpenGpaProfileStatusErrorNullPointer, "OpenGpaProfilePlan: counters is NULL");
    if (size == nullptr) return Fail(kOpenGpaProfileStatusErrorNullPointer, "OpenGpaProfilePlan: size is NULL");
    if (cuda_context == nullptr) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument,
                  "OpenGpaProfilePlan: no CUDA context: make one current (any CUDA call of PyTorch, CuPy or JAX does)");
    }
    profiling::ProfileSettings settings;
    std::string error;
    if (!ParseSettings(kFunction, replay, &settings, &error)) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument, error);
    }
    if (nvidia::LoadCudaDriver() == nullptr) return Fail(kOpenGpaProfileStatusErrorNoDriver, kNoDriver);
    settings.flush_caches = false;  // planning allocates nothing on the device
    auto profiler = ContextProfiler::Create(static_cast<CUcontext>(cuda_context), profiler::SplitCounterNames(counters),
                                            settings, 1, &error);
    if (!profiler) return Fail(kOpenGpaProfileStatusErrorFailed, error);
    const profiling::ProfileRun& description = profiler->Description();
    nlohmann::ordered_json json = {{"replay", description.replay},
                                   {"passes", description.passes},
                                   {"device", description.device},
                                   {"messages", description.messages}};
    return FillText(kFunction, json.dump(), buffer, size);
  });
}

OpenGpaProfileStatus OpenGpaProfileStart(const OpenGpaProfileOptions* options) {
  constexpr const char* kFunction = "OpenGpaProfileStart";
  return GuardedProfile(kFunction, [&] {
    if (options == nullptr) return Fail(kOpenGpaProfileStatusErrorNullPointer, "OpenGpaProfileStart: options is NULL");
    if (options->struct_size < sizeof(OpenGpaProfileOptions)) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument,
                  "OpenGpaProfileStart: options->struct_size " + std::to_string(options->struct_size) +
                      " is less than this version's sizeof(OpenGpaProfileOptions), " +
                      std::to_string(sizeof(OpenGpaProfileOptions)));
    }
    InjectionOptions session;
    session.counters = profiler::SplitCounterNames(options->counters);
    if (session.counters.empty()) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument, "OpenGpaProfileStart: options->counters names no counter");
    }
    if (options->stream_path == nullptr || *options->stream_path == '\0') {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument, "OpenGpaProfileStart: options->stream_path is empty");
    }
    std::string error;
    if (!ParseSettings(kFunction, options->replay, &session.settings, &error)) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument, error);
    }
    if (nvidia::LoadCudaDriver() == nullptr) return Fail(kOpenGpaProfileStatusErrorNoDriver, kNoDriver);
    session.settings.pass = options->pass;
    session.settings.flush_caches = options->flush_caches != 0;
    session.settings.kernel_name = options->kernel_name != nullptr ? options->kernel_name : "";
    InProcessState& state = InProcess();
    if (state.running) {
      return Fail(kOpenGpaProfileStatusErrorAlreadyRunning, "OpenGpaProfileStart: a session is already running");
    }
    std::FILE* file = std::fopen(options->stream_path, "w");
    if (file == nullptr) {
      return Fail(kOpenGpaProfileStatusErrorFailed,
                  std::string("OpenGpaProfileStart: cannot write the sample stream ") + options->stream_path);
    }
    InjectionHooks hooks;
    hooks.on_launch = &OnLaunch;
    if (options->with_nvtx != 0) hooks.on_nvtx = &FollowNvtxLabels;
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      state.launches.clear();
    }
    if (!StartInjection(std::make_unique<profiling::SampleStreamWriter>(file), std::move(session), std::move(hooks),
                        &error)) {
      return Fail(kOpenGpaProfileStatusErrorFailed, "OpenGpaProfileStart: " + error);
    }
    state.running = true;
    return kOpenGpaProfileStatusOk;
  });
}

OpenGpaProfileStatus OpenGpaProfileStop(void) {
  return GuardedProfile("OpenGpaProfileStop", [] {
    InProcessState& state = InProcess();
    if (!state.running) return Fail(kOpenGpaProfileStatusErrorNotRunning, "OpenGpaProfileStop: no session is running");
    state.running = false;
    if (state.sampled) {
      std::vector<InProcessLaunch> launches;
      std::string error;
      const bool made = StopSampledSession(std::move(state.sampled), &launches, &error);
      {
        std::lock_guard<std::mutex> lock(state.mutex);
        state.launches = std::move(launches);
      }
      return made ? kOpenGpaProfileStatusOk : Fail(kOpenGpaProfileStatusErrorFailed, "OpenGpaProfileStop: " + error);
    }
    FinishInjection(false);
    return kOpenGpaProfileStatusOk;
  });
}

OpenGpaProfileStatus OpenGpaProfilePushRange(const char* name) {
  return GuardedProfile("OpenGpaProfilePushRange", [&] {
    if (name == nullptr) return Fail(kOpenGpaProfileStatusErrorNullPointer, "OpenGpaProfilePushRange: name is NULL");
    open_ranges.emplace_back(name);
    return kOpenGpaProfileStatusOk;
  });
}

OpenGpaProfileStatus OpenGpaProfilePopRange(void) {
  return GuardedProfile("OpenGpaProfilePopRange", [] {
    if (open_ranges.empty()) {
      return Fail(kOpenGpaProfileStatusErrorNotRunning, "OpenGpaProfilePopRange: no range is open on this thread");
    }
    open_ranges.pop_back();
    return kOpenGpaProfileStatusOk;
  });
}

OpenGpaProfileStatus OpenGpaProfileGetLaunches(char* buffer, size_t* size) {
  return GuardedProfile("OpenGpaProfileGetLaunches", [&] {
    InProcessState& state = InProcess();
    nlohmann::ordered_json json = nlohmann::ordered_json::array();
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      for (const InProcessLaunch& launch : state.launches) {
        json.push_back({{"index", launch.index},
                        {"context", launch.context},
                        {"ranges", launch.ranges},
                        // null where not known (a sampled row whose launch call CUPTI's callbacks missed)
                        {"thread", launch.host_ns != 0 ? nlohmann::ordered_json(launch.thread) : nullptr},
                        {"host_ns", launch.host_ns != 0 ? nlohmann::ordered_json(launch.host_ns) : nullptr}});
      }
    }
    return FillText("OpenGpaProfileGetLaunches",
                    json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace), buffer, size);
  });
}

OpenGpaProfileStatus OpenGpaProfileJoin(const char* const* stream_paths, uint32_t count, const char* output_path) {
  return GuardedProfile("OpenGpaProfileJoin", [&] {
    if (stream_paths == nullptr) {
      return Fail(kOpenGpaProfileStatusErrorNullPointer, "OpenGpaProfileJoin: stream_paths is NULL");
    }
    if (output_path == nullptr) {
      return Fail(kOpenGpaProfileStatusErrorNullPointer, "OpenGpaProfileJoin: output_path is NULL");
    }
    if (count == 0) {
      return Fail(kOpenGpaProfileStatusErrorInvalidArgument, "OpenGpaProfileJoin: count is 0, no pass to join");
    }
    std::vector<profiling::ProfileRun> passes(count);
    std::string error;
    for (std::uint32_t pass = 0; pass < count; ++pass) {
      if (stream_paths[pass] == nullptr) {
        return Fail(kOpenGpaProfileStatusErrorNullPointer,
                    "OpenGpaProfileJoin: stream_paths[" + std::to_string(pass) + "] is NULL");
      }
      bool ended = false;
      if (!profiling::ReadSampleStream(stream_paths[pass], &passes[pass], &ended, &error)) {
        return Fail(kOpenGpaProfileStatusErrorFailed, "OpenGpaProfileJoin: " + error);
      }
      if (!ended) {
        return Fail(kOpenGpaProfileStatusErrorFailed, "OpenGpaProfileJoin: pass " + std::to_string(pass + 1) +
                                                          "'s sample stream " + stream_paths[pass] +
                                                          " has no end record");
      }
    }
    profiling::ProfileRun joined;
    if (!profiling::MergeReplayPasses(passes, &joined, &error) || !profiling::EvaluateOutputs(&joined, &error)) {
      return Fail(kOpenGpaProfileStatusErrorFailed, "OpenGpaProfileJoin: " + error);
    }
    std::ofstream out(output_path);
    profiling::WriteProfileJson(joined, out);
    if (!out.good()) {
      return Fail(kOpenGpaProfileStatusErrorFailed, std::string("OpenGpaProfileJoin: cannot write ") + output_path);
    }
    return kOpenGpaProfileStatusOk;
  });
}
