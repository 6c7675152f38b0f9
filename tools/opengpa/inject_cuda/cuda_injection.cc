// libopengpa_inject_cuda.so: what CUDA loads into a program when CUDA_INJECTION64_PATH names it
// (`opengpa profile --api cuda` sets it). InitializeInjection subscribes to CUPTI's launch and context
// callbacks; each kernel launch becomes one sample of the metrics in $OPENGPA_PROFILE_COUNTERS
// (gpu__time_duration.sum is always added, for the timeline), written to $OPENGPA_PROFILE_OUTPUT.
#include <cupti.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "context_profiler.h"
#include "kernel_launch.h"
#include "platform/logging.h"
#include "sample_stream.h"

namespace opengpa::inject_cuda {
namespace {

constexpr const char* kTimelineMetric = "gpu__time_duration.sum";
constexpr std::size_t kDefaultBatchSize = 256;  // kernel launches decoded together

struct InjectionState {
  std::recursive_mutex mutex;
  std::unique_ptr<profiling::SampleStreamWriter> stream;
  std::vector<std::string> metrics;
  std::size_t batch_size = kDefaultBatchSize;
  std::map<CUcontext, std::unique_ptr<ContextProfiler>> profilers;
  std::map<CUcontext, std::string> failed_contexts;
  LaunchCounter launches;
  bool header_written = false;
  bool finished = false;
  CUpti_SubscriberHandle subscriber = nullptr;
};

InjectionState& State() {
  static InjectionState state;
  return state;
}

// The launch being made on this thread: runtime launches nest a driver launch; both describe one kernel.
struct LaunchScope {
  int depth = 0;
  CUcontext context = nullptr;
  std::size_t position = 0;
  bool recorded = false;
};
thread_local LaunchScope current_launch;

void ForwardLog(GpaLoggingType, const char* message) {
  InjectionState& state = State();
  if (state.stream) state.stream->WriteMessage(std::string("CUPTI: ") + message);
}

ContextProfiler* ProfilerFor(CUcontext context) {
  InjectionState& state = State();
  auto found = state.profilers.find(context);
  if (found != state.profilers.end()) return found->second.get();
  if (state.failed_contexts.count(context) != 0) return nullptr;
  std::string error;
  auto profiler = ContextProfiler::Create(context, state.metrics, state.batch_size, &error);
  if (!profiler) {
    state.failed_contexts[context] = error;
    state.stream->WriteMessage("not profiling this CUDA context: " + error);
    return nullptr;
  }
  if (!state.header_written) {
    state.stream->WriteHeader("cuda", profiler->Counters());
    state.header_written = true;
  }
  return state.profilers.emplace(context, std::move(profiler)).first->second.get();
}

void OnLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData& data) {
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.finished) return;
  LaunchScope& scope = current_launch;
  if (data.callbackSite == CUPTI_API_ENTER) {
    const KernelLaunch launch = DescribeLaunch(domain, cbid, data);
    if (scope.depth++ > 0) {
      // The driver launch inside a runtime launch: the same kernel; it may know grid and block.
      if (scope.recorded) {
        if (auto found = state.profilers.find(scope.context); found != state.profilers.end()) {
          found->second->Update(scope.position, launch);
        }
      }
      return;
    }
    scope.context = data.context;
    scope.recorded = false;
    if (ContextProfiler* profiler = ProfilerFor(data.context)) {
      scope.position = profiler->BeginLaunch(launch, state.launches, *state.stream);
      scope.recorded = true;
    }
    return;
  }
  // CUPTI_API_EXIT
  if (scope.depth > 0 && --scope.depth > 0) return;
  if (!scope.recorded) return;
  const bool failed = domain == CUPTI_CB_DOMAIN_DRIVER_API
                          ? *static_cast<const CUresult*>(data.functionReturnValue) != CUDA_SUCCESS
                          : *static_cast<const cudaError_t*>(data.functionReturnValue) != cudaSuccess;
  if (failed) {
    if (auto found = state.profilers.find(scope.context); found != state.profilers.end()) {
      found->second->CancelLaunch(scope.position);
    }
  }
  scope.recorded = false;
}

void OnContextDestroy(CUcontext context) {
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  auto found = state.profilers.find(context);
  if (found == state.profilers.end()) return;
  found->second->Flush(*state.stream, false);
  state.profilers.erase(found);
}

void CUPTIAPI OnCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
      OnContextDestroy(static_cast<const CUpti_ResourceData*>(data)->context);
    }
    return;
  }
  if (IsKernelLaunch(domain, cbid)) OnLaunch(domain, cbid, *static_cast<const CUpti_CallbackData*>(data));
}

// At exit (before the CUDA runtime tears its context down): the last batches and the end record.
void FinishAtExit() {
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.finished) return;
  for (auto& [context, profiler] : state.profilers) profiler->Flush(*state.stream, false);
  state.profilers.clear();
  state.finished = true;
  if (!state.header_written) {
    std::vector<profiling::ProfiledCounter> counters;
    for (const auto& metric : state.metrics) counters.push_back({metric, "", "float64"});
    state.stream->WriteHeader("cuda", counters);
  }
  if (state.subscriber) cuptiUnsubscribe(state.subscriber);
  state.stream->WriteEnd(state.launches.next);
}

}  // namespace
}  // namespace opengpa::inject_cuda

// CUDA calls this once, from cuInit, in the profiled process. Returning 0 means failure: CUDA then
// continues without the injection, and the stream's message says why.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  using namespace opengpa::inject_cuda;
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.stream) return 1;
  state.stream = opengpa::profiling::SampleStreamWriter::FromEnvironment();
  if (!state.stream) return 0;
  state.metrics = opengpa::profiling::CountersFromEnvironment();
  bool has_timeline = false;
  for (const auto& metric : state.metrics) has_timeline = has_timeline || metric == kTimelineMetric;
  if (!has_timeline) state.metrics.push_back(kTimelineMetric);
  if (const char* batch = std::getenv("OPENGPA_PROFILE_BATCH")) {
    const long value = std::strtol(batch, nullptr, 10);
    if (value > 0) state.batch_size = static_cast<std::size_t>(value);
  }
  opengpa::SetLoggingCallback(kGpaLoggingError, &ForwardLog);

  if (cuptiSubscribe(&state.subscriber, &OnCallback, nullptr) != CUPTI_SUCCESS) {
    state.stream->WriteMessage("cuptiSubscribe failed: is another CUPTI tool (ncu, nsys) attached?");
    return 0;
  }
  cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  for (CUpti_CallbackId cbid = 0; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; ++cbid) {
    if (IsKernelLaunch(CUPTI_CB_DOMAIN_DRIVER_API, cbid)) {
      cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid);
    }
  }
  for (CUpti_CallbackId cbid = 0; cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++cbid) {
    if (IsKernelLaunch(CUPTI_CB_DOMAIN_RUNTIME_API, cbid)) {
      cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, cbid);
    }
  }
  std::atexit(&FinishAtExit);
  return 1;
}
