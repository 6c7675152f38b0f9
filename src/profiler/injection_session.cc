// The injection session: CUPTI's launch, graph, capture, context and NVTX callbacks, and what they do with the
// program's kernel launches. Each launch the filter chooses becomes one sample of the session's counters (GPA
// names or CUPTI metrics, counter_plan.h), collected with the replay and cache control of profile_environment.h
// into the session's sample stream. A session lasts the whole process when `opengpa profile` injects the library
// (StartWholeProcessInjection, from libopengpa_inject_cuda.so's InitializeInjection) or runs from Start to Stop
// inside a process (in_process.cc, for Python). A CUDA graph launch is replayed node by node, each kernel node a
// launch and a sample (graph_expansion.h), or with --graph-profiling graph one sample (graph_sampling.h) and one
// launch per kernel node; a launch into a capturing stream is none.
// NVTX push/pop ranges are followed (nvtx_ranges.h): each sample carries those open at its launch, and
// --nvtx-include chooses launches by them (nvtx_filter.h) before the kernel filter does. With --range-mode
// nvtx each chosen NVTX range is one sample instead (nvtx_sample_ranges.h), a CUPTI user range.
#include <cupti.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "nvidia/cuda_driver.h"
#include "platform/logging.h"
#include "profiler/collective_kernels.h"
#include "profiler/context_profiler.h"
#include "profiler/gpu_identity.h"
#include "profiler/gpu_turns.h"
#include "profiler/graph_expansion.h"
#include "profiler/graph_kernels.h"
#include "profiler/graph_sampling.h"
#include "profiler/injection_control.h"
#include "profiler/kernel_launch.h"
#include "profiler/kernel_timeline.h"
#include "profiler/l2_flush.h"
#include "profiler/launch_filter.h"
#include "profiler/nvtx_filter.h"
#include "profiler/nvtx_ranges.h"
#include "profiler/nvtx_sample_ranges.h"
#include "profiler/process_exit.h"
#include "profiler/profile_environment.h"
#include "profiler/sample_stream.h"
#include "profiler/sampled_gate.h"

namespace opengpa::inject_cuda {
namespace {

constexpr std::size_t kDefaultBatchSize = 256;  // kernel launches decoded together
// How long a process of the program waits at the sampled mode's gate: PM sampling's set-up took 0.5-0.6 s.
constexpr std::chrono::milliseconds kSampledGateLimit{60'000};
constexpr int kNotSampledExitCode = 70;  // EX_SOFTWARE: the tool, not the program, failed
constexpr std::size_t kNotRecorded = static_cast<std::size_t>(-1);

struct InjectionState {
  std::recursive_mutex mutex;
  std::unique_ptr<profiling::SampleStreamWriter> stream;
  std::vector<std::string> counters;
  profiling::ProfileSettings settings;
  profiling::LaunchFilter filter;
  profiling::NvtxFilter nvtx_filter;
  profiling::CollectiveKernels collectives;  // kernels that wait for peers (collective_kernels.h)
  bool collectives_off = false;              // OPENGPA_PROFILE_COLLECTIVES=off (IsCollective)
  NvtxRanges nvtx_ranges;
  profiling::NvtxSampleRanges nvtx_samples;  // --range-mode nvtx
  struct {
    CUcontext context = nullptr;
    std::size_t position = static_cast<std::size_t>(-1);
    std::size_t batch = 0;
    std::string path;
  } open_nvtx_sample;  // the CUPTI range of the NVTX range now sampled
  std::size_t batch_size = kDefaultBatchSize;
  std::map<CUcontext, std::unique_ptr<ContextProfiler>> profilers;
  std::map<CUcontext, std::string> failed_contexts;
  // L2 flushes in contexts of their own whose program context was destroyed: destroyed at the next launch
  // (outside the driver's teardown), left to the driver at exit (ContextProfiler::TakeFlushForLater).
  std::vector<std::unique_ptr<L2Flush>> retired_flushes;
  // Kept across in-process sessions (Python's passes replay graphs instantiated in an earlier one).
  std::map<CUgraphExec, GraphDescription> graphs;  // graph_kernels.h, graph_sampling.h
  std::uint64_t launches = 0;                      // every kernel launch of the process, in launch order
  InjectionHooks hooks;
  std::uint64_t graph_launches = 0;
  int active_captures = 0;  // streams capturing into graphs (cuStreamBeginCapture .. cuStreamEndCapture)
  bool header_written = false;
  bool nvtx_context_fallback_reported = false;  // --range-mode nvtx: said once (ContextOfNvtxRange)
  bool finished = false;
  bool serialize_launches = false;  // user ranges: OnSerializedLaunch
  bool expand_graphs = false;       // --graph-profiling node in a whole-process session (graph_expansion.h)
  CUpti_SubscriberHandle subscriber = nullptr;
  // The GPU turns of the program's processes (gpu_turns.h): whole-process sessions only.
  std::unique_ptr<profiling::GpuTurns> turns;
  // Program launches between their entry and exit callbacks: a batch must not end under one (its kernel would
  // reach the GPU after the pass stopped), so the turn watcher hands a GPU over only when none is in flight.
  std::size_t launches_in_flight = 0;
  std::set<std::string> unprofiled_reasons;  // said once each (WriteUnprofiled)
  std::size_t handovers = 0;                 // GPUs handed to a waiting process (HandOverWantedGpus)
};

// The thread that hands this process's GPUs to other processes of the program that wait for them (gpu_turns.h).
// A pointer never destroyed: a forked child has no such thread and must not join or destroy it.
std::thread* turn_watcher = nullptr;
std::atomic<bool> stop_turn_watcher{false};
constexpr std::chrono::milliseconds kTurnPollPeriod{10};

InjectionState& State() {
  static InjectionState state;
  return state;
}

// The launch being made on this thread: runtime launches nest a driver launch; both describe one kernel.
struct LaunchScope {
  int depth = 0;
  CUcontext context = nullptr;
  std::size_t position = kNotRecorded;
  std::size_t batch = 0;  // the batch `position` belongs to (ContextProfiler::batch_number)
  bool profiled = false;
  bool deferred = false;  // made during a capture, its stream not yet known: the nested callback decides
  // A runtime launch whose callback names no context (the first CUDA call of a thread, which makes the primary
  // context current only inside the call: seen on PyTorch's autograd thread of a DDP rank): the nested driver
  // callback, which names it, decides the launch instead.
  bool awaiting_context = false;
};
thread_local LaunchScope current_launch;
// Set while this library launches its own L2 flush kernel or replays a graph's nodes, whose callbacks are
// not the program's.
thread_local bool launching_own_kernel = false;
// Set while this library disables or enables a graph's nodes (graph_expansion.h): not the program's changes.
thread_local bool changing_own_graph = false;

// The last error the libraries logged (CUPTI's own, e.g. CUPTI_ERROR_HARDWARE_BUSY), for the reason a process
// gives when it could not profile: "see the messages above" alone would not say it.
thread_local std::string last_logged_error;

void ForwardLog(GpaLoggingType, const char* message) {
  InjectionState& state = State();
  last_logged_error = message;
  if (state.stream) state.stream->WriteMessage(std::string("CUPTI: ") + message);
}

// The program launched work this process cannot profile: the CLI names the process and fails (once per reason).
void ReportUnprofiled(const std::string& reason) {
  InjectionState& state = State();
  if (state.stream && state.unprofiled_reasons.insert(reason).second) state.stream->WriteUnprofiled(reason);
}

void StartTurnWatcher();

// Whether a launch of `name` waits for peers (collective_kernels.h). OPENGPA_PROFILE_COLLECTIVES=off treats every
// launch alike, as before the rule: only to see on a GPU machine what the rule prevents (tests/device/ddp).
bool IsCollective(const std::string& name) {
  InjectionState& state = State();
  return !state.collectives_off && state.collectives.Matches(name);
}

// The GPU of `context` and its key among the program's turns: the UUID (the same card in every process,
// whatever its CUDA_VISIBLE_DEVICES), else the PCI bus id; "" when neither is known (nothing coordinated).
std::string GpuKeyOf(CUcontext context, profiling::GpuIdentity* gpu) {
  const nvidia::CudaDriver* driver = nvidia::LoadCudaDriver();
  if (driver == nullptr || !IdentifyContextDevice(*driver, context, gpu)) return "";
  return !gpu->uuid.empty() ? gpu->uuid : gpu->pci_bus_id;
}

// `collective`: the launch that asks is a collective (collective_kernels.h): it never waits for the GPU's turn, and
// a turn it could not have leaves the context to be set up at a later launch.
ContextProfiler* ProfilerFor(CUcontext context, bool collective = false) {
  InjectionState& state = State();
  auto found = state.profilers.find(context);
  if (found != state.profilers.end()) return found->second.get();
  if (state.failed_contexts.count(context) != 0) return nullptr;
  std::string error;
  profiling::GpuIdentity gpu;
  const std::string key = GpuKeyOf(context, &gpu);
  // Set up only in this process's turn on the GPU: CUPTI refuses a second profiling process (gpu_turns.h).
  bool turn = false;
  if (state.turns && state.turns->Coordinated() && !key.empty()) {
    if (!state.turns->Acquire(key, &error, !collective)) {
      if (collective) {
        ReportUnprofiled("collective kernel launches on " + key + " ran unprofiled: " + error);
        return nullptr;
      }
      state.failed_contexts[context] = error;
      state.stream->WriteMessage("not profiling this CUDA context: " + error);
      ReportUnprofiled("its CUDA context on " + key + " was not profiled: " + error);
      return nullptr;
    }
    turn = true;
    StartTurnWatcher();
  }
  // A monitor sampling this GPU with CUPTI PM sampling lets go of it before CUPTI is asked for anything here
  // (nvidia/counter_handover.h); once per GPU and process (a second context of the GPU shares the claim), never
  // per launch.
  std::shared_ptr<nvidia::CounterClaim> claim;
  if (!gpu.uuid.empty()) {
    std::string note;
    claim = nvidia::ClaimGpuCounters(gpu.uuid, &note);
    if (!note.empty()) state.stream->WriteMessage(note);
  }
  last_logged_error.clear();
  auto profiler = ContextProfiler::Create(context, state.counters, state.settings, state.batch_size, &error);
  if (!profiler) {
    if (turn) state.turns->Release(key);
    state.failed_contexts[context] = error;
    state.stream->WriteMessage("not profiling this CUDA context: " + error);
    ReportUnprofiled("its CUDA context" + (key.empty() ? std::string() : " on " + key) + " was not profiled: " + error +
                     (last_logged_error.empty() ? std::string() : " (" + last_logged_error + ")"));
    return nullptr;
  }
  profiler->UseGpu(gpu, state.turns.get(), key, turn);
  profiler->HoldCounterClaim(std::move(claim));
  if (!state.header_written) {
    state.stream->WriteHeader(profiler->Description());
    for (const std::string& message : profiler->Description().messages) state.stream->WriteMessage(message);
    state.header_written = true;
  }
  return state.profilers.emplace(context, std::move(profiler)).first->second.get();
}

ContextProfiler* ExistingProfiler(CUcontext context) {
  InjectionState& state = State();
  auto found = state.profilers.find(context);
  return found == state.profilers.end() ? nullptr : found->second.get();
}

// CUPTI profiles one context at a time: before `context` profiles, every other context collects its open
// batch and gives its range profiler back (ContextProfiler::Release). Each switch costs a setup (0.2-0.4 s
// on the H100), so programs that alternate contexts launch by launch profile slowly, but correctly. False
// (nothing released) while another context measures a graph launch on another thread: this launch then runs
// unprofiled.
// A collective launch (`collective`) does not end another context's batch that holds a collective either: that
// collective may wait for this very launch (NCCL's group launch of one process over several GPUs), and ending the
// batch waits for it; the launch runs unprofiled instead, named.
bool ProfileOnly(CUcontext context, bool collective = false) {
  InjectionState& state = State();
  for (auto& [other, profiler] : state.profilers) {
    if (other != context && profiler->GraphRangeOpen()) return false;
    if (collective && other != context && profiler->HoldsCollective()) {
      ReportUnprofiled(
          "collective kernel launches ran unprofiled: another CUDA context of this process had a collective launch "
          "in its open batch, which may wait for them (docs/cli.md, Collectives)");
      return false;
    }
  }
  for (auto& [other, profiler] : state.profilers) {
    if (other != context) profiler->Release(*state.stream);
  }
  return true;
}

// A launch made while another thread's graph launch is measured in the same context would be counted in the
// graph's range: it runs unprofiled, and the graph's sample is left unavailable. Returns the profiler to use.
ContextProfiler* UnlessGraphRangeOpen(ContextProfiler* profiler) {
  if (profiler == nullptr || !profiler->GraphRangeOpen()) return profiler;
  profiler->ShareOpenGraphRange(*State().stream);
  return nullptr;
}

// Ends the open batch of `context` before a stream capture begins: stopping a pass during a capture failed
// and invalidated the capture on the H100, and a pass left open across one cannot end until it ends.
void EndBatchOf(CUcontext context) {
  if (ContextProfiler* profiler = ExistingProfiler(context)) profiler->Flush(*State().stream);
}

// --cache-control all: the flush goes on the launch's stream, from the first callback that names it.
void FlushBeforeLaunch(ContextProfiler& profiler, const LaunchScope& scope, const KernelLaunch& launch) {
  if (!scope.profiled || !launch.stream_known) return;
  launching_own_kernel = true;
  profiler.FlushCachesBefore(scope.position, launch.stream, *State().stream);
  launching_own_kernel = false;
}

// Readies a profiled launch for the GPU: its L2 flush, then (user ranges) its CUPTI range, pushed after the
// flush so that the flush stays outside it. Done at the first callback that knows the launch's stream, or
// at the nested (driver) callback at the latest (`last_chance`), which is right before the launch.
void ReadyLaunch(ContextProfiler& profiler, const LaunchScope& scope, const KernelLaunch& launch, bool last_chance) {
  if (!scope.profiled || (!launch.stream_known && !last_chance)) return;
  FlushBeforeLaunch(profiler, scope, launch);
  profiler.OpenRange(scope.position);
}

// Whether the launch of `name` now starting on this thread is profiled: inside a --nvtx-include range (if
// any was given), then chosen by the kernel filter, which counts only launches inside the ranges.
bool ChooseLaunch(const std::string& name) {
  InjectionState& state = State();
  if (state.nvtx_filter.Active() && !state.nvtx_filter.Matches(NvtxRanges::OpenOnThisThread())) return false;
  return state.filter.Profile(name);
}

std::vector<std::string> OpenRangeLabels() {
  std::vector<std::string> labels;
  for (const auto& range : NvtxRanges::OpenOnThisThread()) labels.push_back(profiling::NvtxRangeLabel(range));
  return labels;
}

// A launch made while a stream of the process captures: one into a capturing stream is recorded into a
// graph, not run (no launch, no range); one on another stream runs, counted but unprofiled.
void CountDuringCapture(const KernelLaunch& launch, LaunchScope* scope) {
  if (StreamIsCapturing(launch.stream)) return;
  InjectionState& state = State();
  ++state.launches;
  ChooseLaunch(launch.name);
  scope->profiled = false;
}

void OnLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData& data) {
  if (launching_own_kernel) return;
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.finished || !state.stream) return;
  LaunchScope& scope = current_launch;
  if (data.callbackSite == CUPTI_API_ENTER) {
    if (scope.depth == 0) {
      state.retired_flushes.clear();  // a program context went earlier: now it is safe
      ++state.launches_in_flight;
    }
    KernelLaunch launch = DescribeLaunch(domain, cbid, data);
    if (scope.depth == 0) scope.awaiting_context = false;
    if (scope.depth++ > 0 && scope.awaiting_context && data.context != nullptr) {
      scope.awaiting_context = false;  // decided here, as a launch of its own, with the context this callback names
    } else if (scope.depth > 1) {
      // The driver launch inside a runtime launch: the same kernel; it may know grid, block and stream.
      if (scope.deferred && launch.stream_known) {
        scope.deferred = false;
        CountDuringCapture(launch, &scope);
        return;
      }
      if (scope.position != kNotRecorded) {
        if (ContextProfiler* profiler = ExistingProfiler(scope.context)) {
          profiler->Update(scope.position, launch);
          ReadyLaunch(*profiler, scope, launch, true);
        }
      }
      return;
    }
    scope.context = data.context;
    scope.position = kNotRecorded;
    scope.profiled = false;
    scope.deferred = false;
    if (data.context == nullptr) {
      // A runtime launch names its context in the nested driver callback; a driver launch without one fails.
      scope.awaiting_context = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
      return;
    }
    if (state.active_captures > 0) {
      // No pass may start while a stream captures (the batch open before was ended when it began). A launch
      // whose stream the runtime's callback hides is decided at the nested driver callback.
      if (launch.stream_known) {
        CountDuringCapture(launch, &scope);
      } else {
        scope.deferred = true;
      }
      return;
    }
    const std::uint64_t index = state.launches++;
    if (state.hooks.on_launch) state.hooks.on_launch(index, data.context);
    if (state.settings.range_mode == profiling::RangeMode::kNvtx) return;  // its NVTX range is the sample
    scope.profiled = ChooseLaunch(launch.name);
    launch.nvtx = OpenRangeLabels();
    launch.context_id = data.contextUid;
    launch.collective = IsCollective(launch.name);
    if (scope.profiled && !ProfileOnly(data.context, launch.collective)) scope.profiled = false;
    // A context is set up at its first profiled launch; launches before it run unprofiled.
    ContextProfiler* profiler = UnlessGraphRangeOpen(scope.profiled ? ProfilerFor(data.context, launch.collective)
                                                                    : ExistingProfiler(data.context));
    if (profiler == nullptr) scope.profiled = false;
    if (profiler != nullptr) {
      const bool chosen = scope.profiled;
      scope.position = profiler->BeginLaunch(launch, index, scope.profiled, *state.stream);
      scope.batch = profiler->batch_number();
      if (scope.position != kNotRecorded) ReadyLaunch(*profiler, scope, launch, domain == CUPTI_CB_DOMAIN_DRIVER_API);
      if (chosen && scope.position == kNotRecorded) {  // the batch could not start: CUPTI or the GPU's turn
        ReportUnprofiled("kernel launches on " + profiler->DeviceName() +
                         " ran unprofiled: the profiler could not start: " + profiler->start_error());
      }
    }
    return;
  }
  // CUPTI_API_EXIT
  if (scope.depth > 0) {
    if (--scope.depth > 0) return;
    if (state.launches_in_flight > 0) --state.launches_in_flight;
  }
  ContextProfiler* profiler = ExistingProfiler(scope.context);
  // A position is valid in its own batch only (another thread may have ended it since: a graph launch).
  if (scope.position != kNotRecorded && profiler != nullptr && profiler->batch_number() == scope.batch) {
    profiler->CloseRange(scope.position);
    const bool failed = domain == CUPTI_CB_DOMAIN_DRIVER_API
                            ? *static_cast<const CUresult*>(data.functionReturnValue) != CUDA_SUCCESS
                            : *static_cast<const cudaError_t*>(data.functionReturnValue) != cudaSuccess;
    if (failed) profiler->CancelLaunch(scope.position);
  }
  // --launch-count reached: collect what is pending, and let the rest of the program run unprofiled.
  if (scope.profiled && state.filter.Exhausted()) {
    for (auto& [context, each] : state.profilers) each->Flush(*state.stream);
  }
  scope.position = kNotRecorded;
  scope.profiled = false;
}

// With user ranges a launch's range is open from its entry callback to its exit callback, and CUPTI keeps
// one range at a time per context: the injection's lock is held from the one to the other, so a launch on
// another thread (or a batch ended by a graph launch, a capture, a context's end) waits until the range is
// popped. Launches are serialized, as under any kernel profiler; launching costs microseconds.
thread_local bool holds_launch_lock = false;
void OnSerializedLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData& data) {
  InjectionState& state = State();
  if (!launching_own_kernel && !holds_launch_lock && data.callbackSite == CUPTI_API_ENTER &&
      current_launch.depth == 0 && state.serialize_launches) {
    state.mutex.lock();
    holds_launch_lock = true;
  }
  OnLaunch(domain, cbid, data);
  if (holds_launch_lock && data.callbackSite == CUPTI_API_EXIT && current_launch.depth == 0) {
    holds_launch_lock = false;
    state.mutex.unlock();
  }
}

// The graph launch being made on this thread (a graph launch nested in another entry point is the same one).
struct GraphLaunchScope {
  int depth = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  std::size_t position = kNotRecorded;
  std::size_t batch = 0;  // the batch `position` belongs to
};
thread_local GraphLaunchScope current_graph_launch;

// The stream a graph is launched on, with its CUPTI id, for the L2 flush and the sample's queue.
void SetGraphStream(const CUpti_CallbackData& data, CUstream stream, bool per_thread, KernelLaunch* launch) {
  std::uint32_t id = 0;
  if (cuptiGetStreamIdEx(data.context, stream, per_thread ? 1 : 0, &id) == CUPTI_SUCCESS) launch->stream_id = id;
  launch->stream = per_thread && stream == nullptr ? CU_STREAM_PER_THREAD : stream;
  launch->stream_known = true;
}

// After cuGraphLaunch: the graph's user range is popped once its work is done, as in the H100 probe whose
// ranges held each launch's work exactly (a pop that does not wait was not tried); a failed launch leaves an
// empty range, no sample.
void OnGraphLaunchExit(const CUpti_CallbackData& data) {
  GraphLaunchScope& scope = current_graph_launch;
  if (scope.depth == 0 || --scope.depth > 0) return;
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  ContextProfiler* profiler = ExistingProfiler(scope.context);
  if (scope.position != kNotRecorded && profiler != nullptr && profiler->batch_number() == scope.batch) {
    const bool launched = *static_cast<const CUresult*>(data.functionReturnValue) == CUDA_SUCCESS;
    if (launched && !SynchronizeStream(scope.stream)) {
      state.stream->WriteMessage("cannot wait for a CUDA graph launch: its sample may miss part of its work");
    }
    profiler->CloseRange(scope.position);
    if (!launched) profiler->CancelLaunch(scope.position);
    if (state.filter.Exhausted()) {
      for (auto& [context, each] : state.profilers) each->Flush(*state.stream);
    }
  }
  scope.position = kNotRecorded;
}

// One kernel node of an expanded graph launch (graph_expansion.h), run as a launch of its own and chosen,
// counted and profiled as OnLaunch does a program's launch. False when the node did not launch.
bool LaunchKernelNode(const CUpti_CallbackData& data, const GraphExpansion::Node& node, std::uint32_t graph_id,
                      const KernelLaunch& where, bool sample) {
  InjectionState& state = State();
  KernelLaunch launch = node.launch;
  launch.graph = graph_id;
  launch.graph_node = static_cast<std::uint32_t>(node.kernel_ordinal);
  launch.graph_node_launched = true;
  launch.stream = where.stream;
  launch.stream_id = where.stream_id;
  launch.stream_known = true;
  launch.context_id = data.contextUid;
  launch.nvtx = OpenRangeLabels();
  LaunchScope scope;
  scope.context = data.context;
  ContextProfiler* profiler = nullptr;
  if (sample) {
    const std::uint64_t index = state.launches++;
    if (state.hooks.on_launch) state.hooks.on_launch(index, data.context);
    scope.profiled = state.settings.range_mode == profiling::RangeMode::kKernel && ChooseLaunch(launch.name);
    launch.collective = IsCollective(launch.name);
    if (scope.profiled && !ProfileOnly(data.context, launch.collective)) scope.profiled = false;
    profiler = UnlessGraphRangeOpen(scope.profiled ? ProfilerFor(data.context, launch.collective)
                                                   : ExistingProfiler(data.context));
    if (profiler == nullptr) scope.profiled = false;
    if (profiler != nullptr && state.settings.range_mode == profiling::RangeMode::kKernel) {
      scope.position = profiler->BeginLaunch(launch, index, scope.profiled, *state.stream);
      scope.batch = profiler->batch_number();
      if (scope.position != kNotRecorded) ReadyLaunch(*profiler, scope, launch, true);
    }
  }
  std::string error;
  launching_own_kernel = true;
  const bool launched = GraphExpansion::Enqueue(node, where.stream, &error);
  launching_own_kernel = false;
  if (!launched) state.stream->WriteMessage("CUDA graph " + std::to_string(graph_id) + ": " + error);
  if (scope.position != kNotRecorded && profiler != nullptr && profiler->batch_number() == scope.batch) {
    profiler->CloseRange(scope.position);
    if (!launched) profiler->CancelLaunch(scope.position);
  }
  if (scope.profiled && state.filter.Exhausted()) {
    for (auto& [context, each] : state.profilers) each->Flush(*state.stream);
  }
  return launched;
}

// --graph-profiling node: the launch's nodes, replayed on its stream in the order read (kernel nodes one
// launch and one sample each), before cuGraphLaunch runs the graph's shell of disabled nodes. Into a
// capturing stream the replay is captured as any work would be, and nothing is counted or profiled.
void ExpandGraphLaunch(const CUpti_CallbackData& data, const GraphDescription& graph, const KernelLaunch& where) {
  InjectionState& state = State();
  const bool sample = !StreamIsCapturing(where.stream);
  bool failed = false;
  for (const GraphExpansion::Node& node : graph.expansion->nodes()) {
    if (node.type == CU_GRAPH_NODE_TYPE_KERNEL && node.enabled) {
      failed = !LaunchKernelNode(data, node, graph.id, where, sample) || failed;
      continue;
    }
    std::string error;
    launching_own_kernel = true;
    const bool enqueued = GraphExpansion::Enqueue(node, where.stream, &error);
    launching_own_kernel = false;
    if (!enqueued) {
      state.stream->WriteMessage("CUDA graph " + std::to_string(graph.id) + ": " + error);
      failed = true;
    }
  }
  if (failed) {
    state.stream->WriteMessage("CUDA graph " + std::to_string(graph.id) +
                               ": a node of this launch did not run; the program's results may differ from an "
                               "unprofiled run (--graph-profiling graph launches graphs as they are)");
  }
  // The shell launch that follows is a graph launch all the same: a pass of auto ranges holding one fails
  // to stop, so the open batch ends first.
  // (Tried on the H100 with the open batch kept: the pass failed to stop, and the batch's samples were lost.)
  if (sample) {
    if (ContextProfiler* profiler = ExistingProfiler(data.context)) profiler->BeforeUnsampledGraphLaunch(*state.stream);
  }
}

// A graph launch: one sample (graph_sampling.h), a user range around cuGraphLaunch; its kernel nodes count
// as launches. One into a capturing stream is recorded into that capture, not run: no launch.
void OnGraphLaunch(CUpti_CallbackId cbid, const CUpti_CallbackData& data) {
  if (data.callbackSite == CUPTI_API_EXIT) {
    OnGraphLaunchExit(data);
    return;
  }
  GraphLaunchScope& scope = current_graph_launch;
  if (scope.depth++ > 0) return;
  scope.context = data.context;
  scope.position = kNotRecorded;
  if (launching_own_kernel || data.functionParams == nullptr) return;
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.finished || !state.stream) return;
  static_assert(sizeof(cuGraphLaunch_params) == sizeof(cuGraphLaunch_ptsz_params), "same layout");
  const auto* params = static_cast<const cuGraphLaunch_params*>(data.functionParams);
  const bool per_thread = cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
  const CUstream stream = per_thread && params->hStream == nullptr ? CU_STREAM_PER_THREAD : params->hStream;
  scope.stream = stream;
  auto found = state.graphs.find(params->hGraph);
  if (found == state.graphs.end()) {  // instantiated before this session subscribed: its nodes were never read
    GraphDescription unknown;
    unknown.nodes_known = false;
    cuptiGetGraphExecId(params->hGraph, &unknown.id);
    found = state.graphs.emplace(params->hGraph, std::move(unknown)).first;
  }
  const GraphDescription& graph = found->second;
  if (graph.expansion) {
    KernelLaunch where;
    SetGraphStream(data, params->hStream, per_thread, &where);
    ExpandGraphLaunch(data, graph, where);
    return;
  }
  if (StreamIsCapturing(stream)) return;
  const std::uint64_t index = state.launches;
  state.launches += GraphLaunchCount(graph);
  if (state.settings.range_mode == profiling::RangeMode::kNvtx) {
    // The NVTX range open around it (a user range, which holds graph launches whole) is the sample.
    auto& open = state.open_nvtx_sample;
    ContextProfiler* nvtx_profiler = ExistingProfiler(open.context);
    if (open.context == data.context && nvtx_profiler != nullptr && nvtx_profiler->batch_number() == open.batch) {
      nvtx_profiler->HoldsGraphLaunch(open.position);
    }
    return;
  }
  ContextProfiler* existing = UnlessGraphRangeOpen(ExistingProfiler(data.context));
  if (existing == nullptr && ExistingProfiler(data.context) != nullptr) return;  // another thread's graph is measured
  // No pass starts while a stream captures.
  bool sampled = state.active_captures == 0 && GraphLaunchCount(graph) > 0;
  if (sampled) {
    if (state.hooks.on_launch) state.hooks.on_launch(index, data.context);
    const bool in_ranges = !state.nvtx_filter.Active() || state.nvtx_filter.Matches(NvtxRanges::OpenOnThisThread());
    sampled =
        in_ranges && ChooseGraphLaunch(graph, [&state](const std::string& name) { return state.filter.Profile(name); });
  }
  ContextProfiler* profiler = nullptr;
  if (sampled && ProfileOnly(data.context)) profiler = ProfilerFor(data.context);
  if (profiler == nullptr || !profiler->SamplesGraphs()) {
    if (profiler != nullptr && state.graph_launches++ == 0) {
      state.stream->WriteMessage(
          "CUDA graph launches are counted but not sampled under kernel replay: CUPTI's kernel replay makes no "
          "range of them (docs/cli.md); application replay samples them");
    }
    // A pass of auto ranges that holds a graph launch fails to stop: the open batch ends first.
    if (ContextProfiler* open = profiler != nullptr ? profiler : existing) {
      open->BeforeUnsampledGraphLaunch(*state.stream);
    }
    return;
  }
  KernelLaunch launch = GraphLaunchSample(graph);
  SetGraphStream(data, params->hStream, per_thread, &launch);
  launch.nvtx = OpenRangeLabels();
  launch.context_id = data.contextUid;
  scope.position = profiler->BeginGraphLaunch(std::move(launch), index, *state.stream);
  scope.batch = profiler->batch_number();
  if (scope.position == kNotRecorded) return;
  launching_own_kernel = true;
  profiler->FlushCachesBefore(scope.position, stream, *state.stream);
  launching_own_kernel = false;
  if (!profiler->OpenRange(scope.position)) {
    profiler->CancelLaunch(scope.position);
    scope.position = kNotRecorded;
  }
}

// A stream is about to capture: the open batch ends now, while stopping the pass (which synchronizes) is
// still allowed; on the H100 a pass stopped during a capture failed and invalidated the capture. No pass
// starts until every capture has ended.
void OnCapture(const CUpti_CallbackData& data, bool begin) {
  if (launching_own_kernel) return;
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.finished) return;
  if (begin && data.callbackSite == CUPTI_API_ENTER) {
    EndBatchOf(data.context);
  } else if (begin && data.callbackSite == CUPTI_API_EXIT) {
    if (*static_cast<const CUresult*>(data.functionReturnValue) == CUDA_SUCCESS) ++state.active_captures;
  } else if (!begin && data.callbackSite == CUPTI_API_EXIT && state.active_captures > 0) {
    --state.active_captures;  // the capture has ended, into a graph or not
  }
}

bool IsEndCapture(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture || cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz;
}

bool IsBeginCapture(CUpti_CallbackId cbid) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph:
    case CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz: return true;
    default: return false;
  }
}

void OnGraphExecCreated(const CUpti_GraphData& graph) {
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.finished || !state.stream || graph.graph == nullptr) return;
  GraphDescription description;
  std::string error;
  if (!GraphKernelLaunches(graph.graph, &description.kernels, &description.other_work_nodes, &error)) {
    state.stream->WriteMessage("cannot read the kernel nodes of a CUDA graph (" + error +
                               "); its launches are neither sampled nor counted as launches");
    return;
  }
  cuptiGetGraphExecId(graph.graphExec, &description.id);
  if (state.expand_graphs) {
    std::string why_not;
    changing_own_graph = true;
    description.expansion = GraphExpansion::Create(graph.graph, graph.graphExec, &why_not);
    changing_own_graph = false;
    if (description.expansion) description.expansion->set_id(description.id);
    if (!description.expansion) {
      state.stream->WriteMessage("CUDA graph " + std::to_string(description.id) +
                                 " is sampled whole, one sample per launch: " + why_not);
    }
  }
  state.graphs[graph.graphExec] = std::move(description);
}

GraphExpansion* ExpansionOf(CUgraphExec exec) {
  auto found = State().graphs.find(exec);
  return found == State().graphs.end() ? nullptr : found->second.expansion.get();
}

// The program's own changes to an executable graph whose nodes are replayed (graph_expansion.h), at their exit.
// One that cannot be followed ends the replay of that graph: its nodes are enabled again (their graph still
// exists, since the program just named one of them) and its launches are sampled whole from then on.
void StopExpanding(CUgraphExec exec, const std::string& why) {
  InjectionState& state = State();
  auto found = state.graphs.find(exec);
  if (found == state.graphs.end() || !found->second.expansion) return;
  changing_own_graph = true;
  const bool restored = found->second.expansion->Restore();
  changing_own_graph = false;
  const std::string id = std::to_string(found->second.id);
  found->second.expansion.reset();
  state.stream->WriteMessage(
      restored ? "CUDA graph " + id + " is sampled whole from now on: " + why
               : "CUDA graph " + id + ": " + why +
                     "; its kernel, memcpy and memset nodes could not be enabled again, so its launches may not "
                     "run them (profile it with --graph-profiling graph)");
}

void OnGraphExecChange(CUpti_CallbackId cbid, const CUpti_CallbackData& data) {
  if (changing_own_graph || data.functionParams == nullptr) return;
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (!state.stream || !state.expand_graphs) return;
  const bool update =
      cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2;
  if (data.callbackSite != CUPTI_API_EXIT || *static_cast<const CUresult*>(data.functionReturnValue) != CUDA_SUCCESS) {
    return;
  }
  if (update) {
    static_assert(sizeof(cuGraphExecUpdate_params) >= 2 * sizeof(void*), "executable graph, then graph");
    const auto* params = static_cast<const cuGraphExecUpdate_params*>(data.functionParams);
    auto found = state.graphs.find(params->hGraphExec);
    if (found == state.graphs.end()) return;
    std::string error;
    GraphDescription& graph = found->second;
    GraphKernelLaunches(params->hGraph, &graph.kernels, &graph.other_work_nodes, &error);
    if (graph.expansion && !graph.expansion->OnUpdate(params->hGraph, &error)) {
      StopExpanding(params->hGraphExec, "cuGraphExecUpdate: " + error);
    }
    return;
  }
  // Every other change: (executable graph, node, new parameters).
  const auto* common = static_cast<const cuGraphNodeSetEnabled_params*>(data.functionParams);
  GraphExpansion* expansion = ExpansionOf(common->hGraphExec);
  if (expansion == nullptr) return;
  std::string error;
  bool followed = true;
  changing_own_graph = true;
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled:
      followed = expansion->OnSetEnabled(common->hNode, common->isEnabled != 0, &error);
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams: {
      const auto* p = static_cast<const cuGraphExecKernelNodeSetParams_params*>(data.functionParams);
      CUDA_KERNEL_NODE_PARAMS params{};
      params.func = p->nodeParams->func;
      params.gridDimX = p->nodeParams->gridDimX;
      params.gridDimY = p->nodeParams->gridDimY;
      params.gridDimZ = p->nodeParams->gridDimZ;
      params.blockDimX = p->nodeParams->blockDimX;
      params.blockDimY = p->nodeParams->blockDimY;
      params.blockDimZ = p->nodeParams->blockDimZ;
      params.sharedMemBytes = p->nodeParams->sharedMemBytes;
      params.kernelParams = p->nodeParams->kernelParams;
      params.extra = p->nodeParams->extra;
      followed = expansion->OnKernelParams(p->hNode, params, &error);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2: {
      const auto* p = static_cast<const cuGraphExecKernelNodeSetParams_v2_params*>(data.functionParams);
      followed = expansion->OnKernelParams(p->hNode, *p->nodeParams, &error);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams: {
      const auto* p = static_cast<const cuGraphExecMemcpyNodeSetParams_params*>(data.functionParams);
      followed = expansion->OnMemcpyParams(p->hNode, *p->copyParams, &error);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams: {
      const auto* p = static_cast<const cuGraphExecMemsetNodeSetParams_params*>(data.functionParams);
      followed = expansion->OnMemsetParams(p->hNode, *p->memsetParams, &error);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams: {
      const auto* p = static_cast<const cuGraphExecNodeSetParams_params*>(data.functionParams);
      followed = expansion->OnNodeParams(p->hNode, *p->nodeParams, &error);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams: {
      const auto* p = static_cast<const cuGraphExecChildGraphNodeSetParams_params*>(data.functionParams);
      followed = expansion->OnChildGraph(p->hNode, p->childGraph, &error);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventRecordNodeSetEvent: {
      const auto* p = static_cast<const cuGraphExecEventRecordNodeSetEvent_params*>(data.functionParams);
      followed = expansion->OnEvent(p->hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, p->event, &error);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecEventWaitNodeSetEvent: {
      const auto* p = static_cast<const cuGraphExecEventWaitNodeSetEvent_params*>(data.functionParams);
      followed = expansion->OnEvent(p->hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, p->event, &error);
      break;
    }
    default: break;
  }
  changing_own_graph = false;
  if (!followed) StopExpanding(common->hGraphExec, error);
}

void OnGraphDestroy(const CUpti_CallbackData& data) {
  if (data.callbackSite != CUPTI_API_ENTER || data.functionParams == nullptr) return;
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  const CUgraph graph = static_cast<const cuGraphDestroy_params*>(data.functionParams)->hGraph;
  for (auto& [exec, description] : state.graphs) {
    if (description.expansion) description.expansion->OnGraphDestroyed(graph);
  }
}

void OnContextDestroy(CUcontext context) {
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.finished) return;
  auto found = state.profilers.find(context);
  if (found == state.profilers.end()) return;
  found->second->Flush(*state.stream);
  if (auto flush = found->second->TakeFlushForLater()) state.retired_flushes.push_back(std::move(flush));
  state.profilers.erase(found);
}

bool IsNvtxPush(CUpti_CallbackId cbid) {
  return cbid == CUPTI_CBID_NVTX_nvtxRangePushA || cbid == CUPTI_CBID_NVTX_nvtxRangePushW ||
         cbid == CUPTI_CBID_NVTX_nvtxRangePushEx || cbid == CUPTI_CBID_NVTX_nvtxDomainRangePushEx;
}

bool IsNvtxPop(CUpti_CallbackId cbid) {
  return cbid == CUPTI_CBID_NVTX_nvtxRangePop || cbid == CUPTI_CBID_NVTX_nvtxDomainRangePop;
}

std::uint64_t ThisThread() {
  thread_local const char marker = 0;
  return reinterpret_cast<std::uintptr_t>(&marker);
}

// The context an NVTX range pushed on this thread samples: the thread's current one; on a thread with none
// (a Python thread that only marks ranges, a push before this thread touched CUDA), the process's only
// profiled context, or else its only active primary context. *fallback names the one chosen instead.
CUcontext ContextOfNvtxRange(const nvidia::CudaDriver& driver, std::string* fallback) {
  CUcontext context = nullptr;
  if (driver.cuCtxGetCurrent != nullptr && driver.cuCtxGetCurrent(&context) == CUDA_SUCCESS && context != nullptr) {
    return context;
  }
  InjectionState& state = State();
  if (state.profilers.size() == 1) {
    *fallback = "the only profiled CUDA context";
    return state.profilers.begin()->first;
  }
  if (!state.profilers.empty()) return nullptr;  // several: which one is not for the profiler to guess
  int devices = 0;
  if (driver.cuDeviceGetCount == nullptr || driver.cuDeviceGetCount(&devices) != CUDA_SUCCESS) return nullptr;
  CUcontext primary = nullptr;
  CUdevice primary_device = 0;
  for (int ordinal = 0; ordinal < devices; ++ordinal) {
    CUdevice device = 0;
    unsigned int flags = 0;
    int active = 0;
    if (driver.cuDeviceGet(&device, ordinal) != CUDA_SUCCESS ||
        driver.cuDevicePrimaryCtxGetState(device, &flags, &active) != CUDA_SUCCESS || active == 0) {
      continue;
    }
    if (primary != nullptr) return nullptr;  // primary contexts on two devices
    // Active already, so retaining it creates nothing; the program's own reference keeps it after the release.
    if (driver.cuDevicePrimaryCtxRetain(&primary, device) != CUDA_SUCCESS) return nullptr;
    primary_device = device;
  }
  if (primary == nullptr) return nullptr;
  driver.cuDevicePrimaryCtxRelease(primary_device);
  *fallback = "the primary CUDA context of device " + std::to_string(primary_device);
  return primary;
}

// --range-mode nvtx, after the thread's range stack took the push or pop: a chosen range opens a CUPTI user
// range in the context current on the pushing thread, after the L2 flush (on the legacy default stream,
// which waits for the work of the context's blocking streams), and its pop closes it.
void SampleNvtxRange(CUpti_CallbackId cbid) {
  InjectionState& state = State();
  auto& open = state.open_nvtx_sample;
  if (IsNvtxPop(cbid)) {
    if (!state.nvtx_samples.OnPop(ThisThread(), NvtxRanges::OpenOnThisThread())) return;
    ContextProfiler* profiler = ExistingProfiler(open.context);
    if (profiler != nullptr && profiler->batch_number() == open.batch) {
      // The pop may come on a thread where the range's context is not current (as its push may).
      std::optional<nvidia::ScopedCurrentContext> current;
      if (const nvidia::CudaDriver* driver = nvidia::LoadCudaDriver()) current.emplace(*driver, open.context);
      profiler->CloseRange(open.position);
    } else {
      state.stream->WriteMessage("NVTX range \"" + open.path +
                                 "\" was cut short: its batch ended before its pop (a stream capture, a launch in "
                                 "another context or the context's end inside it)");
    }
    open = {};
    if (state.nvtx_samples.Exhausted()) {
      for (auto& [context, each] : state.profilers) each->Flush(*state.stream);
    }
    return;
  }
  if (!IsNvtxPush(cbid)) return;
  auto started = state.nvtx_samples.OnPush(ThisThread(), NvtxRanges::OpenOnThisThread());
  if (!started) return;
  const nvidia::CudaDriver* driver = nvidia::LoadCudaDriver();
  std::string fallback;
  const CUcontext context = driver != nullptr ? ContextOfNvtxRange(*driver, &fallback) : nullptr;
  if (context == nullptr) {
    state.stream->WriteMessage("NVTX range \"" + started->path +
                               "\" is not sampled: no CUDA context is current on its thread at its push, and the "
                               "process has no single profiled context or active primary context to sample instead");
    state.nvtx_samples.Forget();
    return;
  }
  if (!fallback.empty() && !state.nvtx_context_fallback_reported) {
    state.nvtx_context_fallback_reported = true;
    state.stream->WriteMessage("NVTX range \"" + started->path +
                               "\" was pushed on a thread with no current CUDA context: it samples " + fallback +
                               ", every kernel of that context between its push and pop (so do later such ranges)");
  }
  // The flush and the push are the context's: made current on this thread for them.
  nvidia::ScopedCurrentContext current(*driver, context);
  ContextProfiler* profiler = ProfileOnly(context) ? ProfilerFor(context) : nullptr;
  KernelLaunch range;
  range.name = started->path;
  range.nvtx = started->labels;
  const std::size_t position =
      profiler != nullptr ? profiler->BeginLaunch(range, started->index, true, *state.stream) : kNotRecorded;
  if (position == kNotRecorded) {
    state.nvtx_samples.Forget();
    return;
  }
  launching_own_kernel = true;
  profiler->FlushCachesBefore(position, nullptr, *state.stream);
  launching_own_kernel = false;
  if (!profiler->OpenRange(position)) {
    profiler->CancelLaunch(position);
    state.nvtx_samples.Forget();
    return;
  }
  open.context = context;
  open.position = position;
  open.batch = profiler->batch_number();
  open.path = started->path;
}

void OnNvtx(CUpti_CallbackId cbid, const CUpti_NvtxData& data) {
  InjectionState& state = State();
  // The thread's own range stack needs no lock; the domain and string names have their own.
  state.nvtx_ranges.OnCallback(cbid, data);
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.stream && state.hooks.on_nvtx) state.hooks.on_nvtx(cbid, data);
  if (state.stream && !state.finished && state.settings.range_mode == profiling::RangeMode::kNvtx) {
    SampleNvtxRange(cbid);
  }
}

void CUPTIAPI OnCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain == CUPTI_CB_DOMAIN_NVTX) {
    OnNvtx(cbid, *static_cast<const CUpti_NvtxData*>(data));
    return;
  }
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    const auto* resource = static_cast<const CUpti_ResourceData*>(data);
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
      OnContextDestroy(resource->context);
    } else if (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED && resource->resourceDescriptor != nullptr) {
      OnGraphExecCreated(*static_cast<const CUpti_GraphData*>(resource->resourceDescriptor));
    } else if (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING && resource->resourceDescriptor != nullptr) {
      InjectionState& state = State();
      std::lock_guard<std::recursive_mutex> lock(state.mutex);
      state.graphs.erase(static_cast<const CUpti_GraphData*>(resource->resourceDescriptor)->graphExec);
    }
    return;
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API &&
      (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz)) {
    OnGraphLaunch(cbid, *static_cast<const CUpti_CallbackData*>(data));
    return;
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API && IsGraphExecChange(cbid)) {
    OnGraphExecChange(cbid, *static_cast<const CUpti_CallbackData*>(data));
    return;
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphDestroy) {
    OnGraphDestroy(*static_cast<const CUpti_CallbackData*>(data));
    return;
  }
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API && (IsBeginCapture(cbid) || IsEndCapture(cbid))) {
    OnCapture(*static_cast<const CUpti_CallbackData*>(data), IsBeginCapture(cbid));
    return;
  }
  if (IsKernelLaunch(domain, cbid)) OnSerializedLaunch(domain, cbid, *static_cast<const CUpti_CallbackData*>(data));
}

// Hands a GPU to another process of the program that waits for it (gpu_turns.h), between this process's launches:
// its open batch is collected and its range profiler released; its next profiled launch waits for the GPU again.
// Not while a launch is in flight, a graph launch's range is open or an NVTX range is sampled (their ranges would be
// cut); then at a later poll.
void HandOverWantedGpus() {
  InjectionState& state = State();
  if (!state.turns) return;
  const std::vector<std::string> wanted = state.turns->Wanted();
  if (wanted.empty()) return;
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.finished || !state.stream || state.launches_in_flight > 0 || state.open_nvtx_sample.context != nullptr) {
    return;
  }
  std::vector<CUcontext> handed;
  for (auto& [context, profiler] : state.profilers) {
    if (!profiler->holds_turn() || profiler->GraphRangeOpen()) continue;
    for (const std::string& gpu : wanted) {
      if (gpu != profiler->gpu_key()) continue;
      profiler->Flush(*state.stream);
      handed.push_back(context);
    }
  }
  // The profiler gives back its range profiler, as between two contexts of one process: that let a child started
  // with posix_spawn set up on the H100 (tests/device/processes). OPENGPA_PROFILE_HANDOVER=destroy destroys the
  // whole profiler instead, as before a fork (its setup is then paid again too). Its next launch takes a turn.
  const char* handover = std::getenv("OPENGPA_PROFILE_HANDOVER");
  const bool release_only = handover == nullptr || std::string(handover) != "destroy";
  for (CUcontext context : handed) {
    const std::string gpu = state.profilers[context]->gpu_key();
    if (release_only) {
      state.profilers[context]->Release(*state.stream);
    } else {
      state.profilers.erase(context);
    }
    state.turns->Yield(gpu);  // the waiter goes first
    ++state.handovers;
  }
}

void WatchTurns() {
  while (!stop_turn_watcher.load()) {
    std::this_thread::sleep_for(kTurnPollPeriod);
    HandOverWantedGpus();
  }
}

void StartTurnWatcher() {
  if (turn_watcher == nullptr) turn_watcher = new std::thread(&WatchTurns);
}

void StopTurnWatcher() {
  if (turn_watcher == nullptr) return;
  stop_turn_watcher = true;
  turn_watcher->join();
  delete turn_watcher;
  turn_watcher = nullptr;
  stop_turn_watcher = false;
}

// At exit (process_exit.h): a fatal signal landing while the last batch is decoded waits until it is written. The turn
// watcher stops first: it must not hand over what FinishInjection collects.
void FinishAtExit() {
  FatalSignalHold hold;
  StopTurnWatcher();
  FinishInjection(true);
}

// Before a fork: a child that execs a CUDA program profiles it with its own CUPTI session, but CUPTI lets one
// process at a time profile a GPU (the child's setup failed with CUPTI_ERROR_HARDWARE_BUSY on the H100 while
// the parent's range profiler was set up). So the parent collects its open batches and releases its profilers
// here; it sets them up again at its next profiled launch (about 0.4 s on the H100). A context that could not
// be set up is tried again then: the GPU may be free by then.
void OnForkPrepare() {
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.finished || !state.stream) return;
  for (auto& [context, profiler] : state.profilers) profiler->Flush(*state.stream);
  state.profilers.clear();
  state.failed_contexts.clear();
}

// In the child of a fork: CUDA cannot be used there (CUDA's rule), and the parent's batches, contexts and
// stream are the parent's. The child profiles nothing and writes nothing, not even at exit; if it execs
// a CUDA program, that program loads the library afresh. The profilers are left undestroyed: destroying
// them would call CUPTI. No lock: another thread of the parent may have held it when it forked.
void OnForkChild() {
  InjectionState& state = State();
  turn_watcher = nullptr;  // the parent's thread: it does not exist here
  state.finished = true;
  for (auto& [context, profiler] : state.profilers) static_cast<void>(profiler.release());
  state.profilers.clear();
}

}  // namespace

bool StartInjection(std::unique_ptr<profiling::SampleStreamWriter> stream, InjectionOptions options,
                    InjectionHooks hooks, std::string* error) {
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.stream || state.subscriber) {
    *error = "a profiling session is already running in this process";
    return false;
  }
  if (!profiling::LaunchFilter::Create(options.settings.kernel_name, options.settings.launch_skip,
                                       options.settings.launch_count, &state.filter, error)) {
    stream->WriteMessage("not profiling: " + *error);
    stream->WriteUnprofiled(*error);
    return false;
  }
  if (!profiling::NvtxFilter::Create(options.settings.nvtx_include, &state.nvtx_filter, error) ||
      !profiling::CollectiveKernels::Create(options.settings.collective_kernel, &state.collectives, error)) {
    stream->WriteMessage("not profiling: " + *error);
    stream->WriteUnprofiled(*error);
    return false;
  }
  if (cuptiSubscribe(&state.subscriber, &OnCallback, nullptr) != CUPTI_SUCCESS) {
    state.subscriber = nullptr;
    *error = "cuptiSubscribe failed: is another CUPTI tool (ncu, nsys, torch.profiler) attached?";
    stream->WriteMessage(*error);
    stream->WriteUnprofiled(*error);
    return false;
  }
  state.stream = std::move(stream);
  state.counters = std::move(options.counters);
  state.settings = options.settings;
  state.batch_size = options.batch_size;
  state.hooks = std::move(hooks);
  state.launches = 0;
  state.graph_launches = 0;  // each pass's stream says once that kernel replay samples no graph
  state.active_captures = 0;
  state.header_written = false;
  state.nvtx_context_fallback_reported = false;
  state.finished = false;
  state.launches_in_flight = 0;
  state.unprofiled_reasons.clear();
  const char* collectives = std::getenv("OPENGPA_PROFILE_COLLECTIVES");
  state.collectives_off = collectives != nullptr && std::string(collectives) == "off";
  // (A run whose replay auto turns into kernel replay serializes for nothing: it costs microseconds.)
  state.serialize_launches = LaunchesMayBeUserRanges(state.settings);
  state.expand_graphs = options.whole_process && state.settings.graph_profiling == profiling::GraphProfiling::kNode;
  state.nvtx_samples = profiling::NvtxSampleRanges(state.nvtx_filter, state.filter);
  state.open_nvtx_sample = {};
  opengpa::SetLoggingCallback(kGpaLoggingError, &ForwardLog);
  cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED);
  cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING);
  cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch);
  cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz);
  if (state.expand_graphs) {
    cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphDestroy);
    for (CUpti_CallbackId cbid = 0; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; ++cbid) {
      if (IsGraphExecChange(cbid)) cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid);
    }
  }
  for (CUpti_CallbackId cbid = 0; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; ++cbid) {
    if (IsBeginCapture(cbid) || IsEndCapture(cbid)) {
      cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid);
    }
  }
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
  // Always: samples carry their ranges (CUPTI delivers them only where NVTX_INJECTION64_PATH names it).
  cuptiEnableDomain(1, state.subscriber, CUPTI_CB_DOMAIN_NVTX);
  return true;
}

WholeProcessStart StartWholeProcessInjection(std::string* error) {
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.stream) return WholeProcessStart::kStarted;  // NVTX's injection started it before CUDA's
  auto stream = profiling::SampleStreamWriter::FromEnvironment();
  if (!stream) {
    *error = std::string(profiling::kStreamPathVariable) + " names no writable sample stream: not profiled";
    return WholeProcessStart::kNotProfiled;
  }
  InjectionOptions options;
  options.counters = profiling::CountersFromEnvironment();
  if (!profiling::SettingsFromEnvironment(&options.settings, error)) {
    stream->WriteMessage("not profiling: " + *error);
    stream->WriteUnprofiled(*error);
    return WholeProcessStart::kFailed;
  }
  if (const char* batch = std::getenv("OPENGPA_PROFILE_BATCH")) {
    const long value = std::strtol(batch, nullptr, 10);
    if (value > 0) options.batch_size = static_cast<std::size_t>(value);
  }
  options.whole_process = true;
  if (options.settings.sampled) {
    // opengpa sets PM sampling up while the program starts: no launch before it runs (sampled_gate.h).
    // Where PM sampling could not start, the process stops here, before any work of its own reached the GPU, as
    // opengpa used to refuse before starting the program; opengpa says why and exits non-zero.
    if (const char* gate = std::getenv(profiling::kSampledGateVariable); gate != nullptr && *gate != '\0') {
      std::string why;
      const auto waiting_since = std::chrono::steady_clock::now();
      const bool sampling = profiling::WaitAtSampledGate(gate, kSampledGateLimit, &why);
      const auto waited =
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - waiting_since);
      if (waited.count() >= 5) {
        stream->WriteMessage("waited " + std::to_string(waited.count()) + " ms at its CUDA start for PM sampling");
      }
      if (!sampling) {
        stream->WriteMessage(why);
        if (profiling::GateSaysNotSampling(why)) {
          std::fprintf(stderr, "opengpa: %s: the program stops at its CUDA start\n", why.c_str());
          std::fflush(stderr);
          _exit(kNotSampledExitCode);
        }
      }
    }
    // --mode sampled: the launches' own times (kernel_timeline.h), labelled by the NVTX ranges open at each launch
    // from the program's first NVTX push on.
    TimelineLabels labels;
    labels.on_nvtx = [](CUpti_CallbackId cbid, const CUpti_NvtxData& data) {
      State().nvtx_ranges.OnCallback(cbid, data);
    };
    labels.open_ranges = [] {
      std::vector<std::string> open;
      for (const auto& range : NvtxRanges::OpenOnThisThread()) open.push_back(profiling::NvtxRangeLabel(range));
      return open;
    };
    const auto timeline_begins = std::chrono::steady_clock::now();
    profiling::SampleStreamWriter* writer = stream.get();
    if (!StartKernelTimeline(std::move(stream), std::move(labels), error)) return WholeProcessStart::kFailed;
    // What the profiler's start cost this process at its CUDA start, where a program's start is measured against
    // its unprofiled one (docs/validation.md): CUPTI's activity records and callbacks, set up here.
    const auto timeline_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - timeline_begins).count();
    if (timeline_ms >= 5.0) {
      char took[128];
      std::snprintf(took, sizeof took, "CUPTI's kernel records took %.0f ms to start at its CUDA start", timeline_ms);
      writer->WriteMessage(took);
    }
    const std::string hook_problem = CallAtProcessExit(&FinishKernelTimeline);
    if (!hook_problem.empty()) *error = hook_problem;
    pthread_atfork(nullptr, nullptr, &ForgetKernelTimelineInChild);
    return WholeProcessStart::kStarted;
  }
  if (!StartInjection(std::move(stream), std::move(options), {}, error)) return WholeProcessStart::kFailed;
  state.turns = profiling::GpuTurns::FromEnvironment();
  const std::string exit_hook_problem = CallAtProcessExit(&FinishAtExit);
  if (!exit_hook_problem.empty()) state.stream->WriteMessage(exit_hook_problem);
  pthread_atfork(&OnForkPrepare, nullptr, &OnForkChild);
  return WholeProcessStart::kStarted;
}

void FinishInjection(bool at_exit) {
  InjectionState& state = State();
  std::lock_guard<std::recursive_mutex> lock(state.mutex);
  if (state.finished || !state.stream) return;
  for (auto& [context, profiler] : state.profilers) profiler->Flush(*state.stream);
  // At exit the runtime may already be tearing contexts down: leave their memory to the driver.
  if (at_exit) {
    for (auto& [context, profiler] : state.profilers) profiler->Abandon();
    for (auto& flush : state.retired_flushes) flush->Abandon();
  }
  state.retired_flushes.clear();
  if (state.turns && (state.turns->waits() != 0 || state.handovers != 0)) {
    char turns[200];
    std::snprintf(turns, sizeof turns,
                  "GPU turns: waited %zu time(s) for another process of the program, %.1f ms in all; handed a GPU "
                  "over %zu time(s)",
                  state.turns->waits(), state.turns->waited_ms(), state.handovers);
    state.stream->WriteMessage(turns);
  }
  if (state.subscriber) cuptiUnsubscribe(state.subscriber);
  state.subscriber = nullptr;
  state.profilers.clear();
  state.failed_contexts.clear();
  if (!state.header_written) {
    std::vector<profiling::ProfiledCounter> counters;
    for (const auto& counter : state.counters) counters.push_back({counter, "", "float64"});
    state.stream->WriteHeader("cuda", counters);
  }
  state.stream->WriteEnd(state.launches);
  state.hooks = {};
  if (at_exit) {
    state.finished = true;  // the process is ending: no later launch is profiled
  } else {
    state.stream.reset();  // closes the stream file; the next StartInjection begins afresh
  }
}

}  // namespace opengpa::inject_cuda
