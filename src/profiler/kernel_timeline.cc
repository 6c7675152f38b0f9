#include "profiler/kernel_timeline.h"

#include <cupti.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>
#include <tuple>

#include "nvidia/cuda_driver.h"
#include "nvidia/cupti_status.h"
#include "profiler/gpu_identity.h"
#include "profiler/kernel_launch.h"

namespace opengpa::inject_cuda {
namespace {

// CUPTI asks for buffers of this size. CUPTI returns a buffer (and its records are written to the stream) only once
// it is full, or when flushed at the end: with 8 MiB buffers (38,000 kernel records of 216 bytes) a GPT-2 generation
// of 17,883 launches filled none, so every record was written during the program's exit, which took 0.2-1.1 s longer
// than unprofiled (docs/validation.md row 77). A buffer of 1,200 records is written while the program runs, on CUPTI's
// worker thread, and the exit writes the last one only.
constexpr std::size_t kActivityBufferBytes = std::size_t{256} << 10;
// CUPTI's records are 8-byte aligned in the buffers it is given.
constexpr std::size_t kActivityBufferAlignment = 8;

struct TimelineState {
  std::mutex mutex;
  std::unique_ptr<profiling::SampleStreamWriter> stream;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> queues;  // device, context, stream
  std::uint64_t kernels = 0;
  std::size_t dropped = 0;
  bool finished = false;
  bool activity_callbacks_registered = false;  // once per process: CUPTI keeps them across enables
  std::atomic<bool> forked_child{false};
  // Labels (launch_labels.h). label_mutex guards the book and is taken inside `mutex`, never around it.
  TimelineLabels labels;
  std::mutex label_mutex;
  profiling::LaunchLabelBook book;
  std::vector<WrittenLabel> written;
  CUpti_SubscriberHandle subscriber = nullptr;
  std::atomic<bool> labelling{false};     // launch calls are labelled (from the start, or since the first NVTX push)
  std::atomic<std::uint64_t> session{0};  // counts starts: a thread's launch depth from an earlier one is stale
};

TimelineState& Timeline() {
  static auto* state = new TimelineState;  // never destroyed: CUPTI's thread may complete a buffer at exit
  return *state;
}

// The stream's queue for a CUDA stream of a context on a device, named the first time it is seen.
std::uint32_t QueueOf(TimelineState& state, std::uint32_t device, std::uint32_t context, std::uint32_t stream) {
  const auto key = std::make_tuple(device, context, stream);
  auto found = state.queues.find(key);
  if (found != state.queues.end()) return found->second;
  const auto id = static_cast<std::uint32_t>(state.queues.size());
  state.queues.emplace(key, id);
  profiling::Queue queue;
  queue.id = id;
  queue.name = "stream " + std::to_string(stream);
  queue.gpu.index = static_cast<int>(device);
  const nvidia::CudaDriver* driver = nvidia::LoadCudaDriver();
  CUdevice handle = 0;
  if (driver != nullptr && driver->cuDeviceGet != nullptr &&
      driver->cuDeviceGet(&handle, static_cast<int>(device)) == CUDA_SUCCESS) {
    IdentifyDevice(*driver, handle, &queue.gpu, &queue.device);
  }
  state.stream->WriteQueue(queue);
  return id;
}

void WriteKernel(TimelineState& state, const CUpti_ActivityKernel10& kernel) {
  profiling::Sample sample;
  sample.index = kernel.correlationId;
  sample.name = Demangle(kernel.name);
  sample.queue = QueueOf(state, kernel.deviceId, kernel.contextId, kernel.streamId);
  sample.grid = {static_cast<std::uint64_t>(kernel.gridX), static_cast<std::uint64_t>(kernel.gridY),
                 static_cast<std::uint64_t>(kernel.gridZ)};
  sample.block = {static_cast<std::uint64_t>(kernel.blockX), static_cast<std::uint64_t>(kernel.blockY),
                  static_cast<std::uint64_t>(kernel.blockZ)};
  sample.start_ns = kernel.start;
  sample.end_ns = kernel.end;
  sample.context = kernel.contextId;
  if (kernel.graphId != 0) sample.graph = kernel.graphId;
  {
    std::lock_guard<std::mutex> lock(state.label_mutex);
    // The nodes of a graph launch share its correlation id: its label stays for the next node.
    std::optional<profiling::LaunchLabel> label = state.book.Take(kernel.correlationId, kernel.graphId != 0);
    if (label) {
      sample.nvtx = label->ranges;
      if (state.labels.keep) state.written.emplace_back(kernel.correlationId, std::move(*label));
    }
  }
  state.stream->WriteSample(sample);
  ++state.kernels;
}

void WriteWork(TimelineState& state, const char* kind, std::uint32_t device, std::uint32_t context,
               std::uint32_t stream, std::uint64_t start, std::uint64_t end) {
  profiling::OtherWork work;
  work.queue = QueueOf(state, device, context, stream);
  work.kind = kind;
  work.start_ns = start;
  work.end_ns = end;
  state.stream->WriteWork(work);
}

void CUPTIAPI OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kActivityBufferAlignment, kActivityBufferBytes));
  *size = *buffer != nullptr ? kActivityBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI OnBufferCompleted(CUcontext context, uint32_t stream_id, uint8_t* buffer, size_t, size_t valid) {
  TimelineState& state = Timeline();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.stream && !state.finished && !state.forked_child.load()) {
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
      switch (record->kind) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
          WriteKernel(state, *reinterpret_cast<const CUpti_ActivityKernel10*>(record));
          break;
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
          const auto& copy = *reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
          WriteWork(state, "memcpy", copy.deviceId, copy.contextId, copy.streamId, copy.start, copy.end);
          break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
          const auto& set = *reinterpret_cast<const CUpti_ActivityMemset4*>(record);
          WriteWork(state, "memset", set.deviceId, set.contextId, set.streamId, set.start, set.end);
          break;
        }
        default: break;
      }
    }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped) == CUPTI_SUCCESS) state.dropped += dropped;
  }
  std::free(buffer);
}

// The launch calls whose labels are recorded: kernel launches and CUDA graph launches, runtime and driver.
bool IsLabelledLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (IsKernelLaunch(domain, cbid)) return true;
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
  }
  return domain == CUPTI_CB_DOMAIN_RUNTIME_API && (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000 ||
                                                   cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000);
}

bool IsNvtxPush(CUpti_CallbackId cbid) {
  return cbid == CUPTI_CBID_NVTX_nvtxRangePushA || cbid == CUPTI_CBID_NVTX_nvtxRangePushW ||
         cbid == CUPTI_CBID_NVTX_nvtxRangePushEx || cbid == CUPTI_CBID_NVTX_nvtxDomainRangePushEx;
}

// The launch call open on this thread: a runtime launch's nested driver launch is the same launch.
thread_local int launch_depth = 0;
thread_local std::uint64_t outer_launch = 0;
thread_local std::uint64_t launch_session = 0;  // the session launch_depth counts in
thread_local std::int64_t thread_id = 0;

std::int64_t RealtimeNanoseconds() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

void OnLaunchCall(TimelineState& state, const CUpti_CallbackData& data) {
  const std::uint64_t session = state.session.load(std::memory_order_relaxed);
  if (launch_session != session) {  // a launch in flight when the last session stopped left its depth behind
    launch_session = session;
    launch_depth = 0;
  }
  if (data.callbackSite == CUPTI_API_EXIT) {
    if (launch_depth > 0) --launch_depth;  // an exit whose entry came before the labelling began is ignored
    return;
  }
  if (launch_depth++ > 0) {
    std::lock_guard<std::mutex> lock(state.label_mutex);
    state.book.Alias(data.correlationId, outer_launch);
    return;
  }
  outer_launch = data.correlationId;
  profiling::LaunchLabel label;
  label.host_ns = RealtimeNanoseconds();
  if (thread_id == 0) thread_id = static_cast<std::int64_t>(syscall(SYS_gettid));
  label.thread = thread_id;
  if (state.labels.open_ranges) label.ranges = state.labels.open_ranges();
  char context[32];
  std::snprintf(context, sizeof context, "%p", static_cast<void*>(data.context));
  label.context = context;
  std::lock_guard<std::mutex> lock(state.label_mutex);
  state.book.Record(data.correlationId, std::move(label));
}

void CUPTIAPI OnCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  TimelineState& state = Timeline();
  if (state.forked_child.load(std::memory_order_relaxed)) return;
  if (domain == CUPTI_CB_DOMAIN_NVTX) {
    if (state.labels.on_nvtx) state.labels.on_nvtx(cbid, *static_cast<const CUpti_NvtxData*>(data));
    if (IsNvtxPush(cbid)) state.labelling.store(true, std::memory_order_relaxed);
    return;
  }
  // Until the first NVTX push (where the caller has no ranges of its own) the launch path returns here.
  if (!state.labelling.load(std::memory_order_relaxed)) return;
  OnLaunchCall(state, *static_cast<const CUpti_CallbackData*>(data));
}

// Subscribes to the launch calls (and NVTX). Another subscriber (a tool holding CUPTI's callbacks) leaves the
// samples unlabelled: said in the stream, not fatal.
void SubscribeLabels(TimelineState& state) {
  CUptiResult result = cuptiSubscribe(&state.subscriber, &OnCallback, nullptr);
  if (result != CUPTI_SUCCESS) {
    state.subscriber = nullptr;
    state.stream->WriteMessage("the sampled rows carry no NVTX ranges or regions: CUPTI's callbacks are taken (" +
                               nvidia::CuptiResultText(result) + ")");
    return;
  }
  for (CUpti_CallbackId cbid = 0; cbid < CUPTI_DRIVER_TRACE_CBID_SIZE; ++cbid) {
    if (IsLabelledLaunch(CUPTI_CB_DOMAIN_DRIVER_API, cbid)) {
      cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid);
    }
  }
  for (CUpti_CallbackId cbid = 0; cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++cbid) {
    if (IsLabelledLaunch(CUPTI_CB_DOMAIN_RUNTIME_API, cbid)) {
      cuptiEnableCallback(1, state.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, cbid);
    }
  }
  if (state.labels.on_nvtx) cuptiEnableDomain(1, state.subscriber, CUPTI_CB_DOMAIN_NVTX);
}

const CUpti_ActivityKind kRecordedKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                             CUPTI_ACTIVITY_KIND_MEMSET};

}  // namespace

bool StartKernelTimeline(std::unique_ptr<profiling::SampleStreamWriter> stream, TimelineLabels labels,
                         std::string* error) {
  TimelineState& state = Timeline();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.stream) return true;  // NVTX's injection started it before CUDA's
  profiling::ProfileRun header;
  header.api = "cuda";
  header.replay = "none";
  stream->WriteHeader(header);
  CUptiResult result = CUPTI_SUCCESS;
  if (!state.activity_callbacks_registered) {
    result = cuptiActivityRegisterCallbacks(&OnBufferRequested, &OnBufferCompleted);
    state.activity_callbacks_registered = result == CUPTI_SUCCESS;
  }
  for (CUpti_ActivityKind kind : kRecordedKinds) {
    if (result != CUPTI_SUCCESS) break;
    result = cuptiActivityEnable(kind);
  }
  if (result != CUPTI_SUCCESS) {
    *error = "CUPTI's activity API refused the sampled mode's kernel records (" + nvidia::CuptiResultText(result) +
             "): is another CUPTI tool (nsys, torch.profiler) attached?";
    stream->WriteMessage(*error);
    stream->WriteUnprofiled(*error);
    return false;
  }
  state.stream = std::move(stream);
  state.finished = false;
  state.labels = std::move(labels);
  state.labelling = state.labels.from_start;
  ++state.session;
  SubscribeLabels(state);
  return true;
}

namespace {

// Flushes and writes the end record; true when this call finished the stream (false: nothing to finish).
bool FlushAndEnd(TimelineState& state) {
  if (state.forked_child.load()) return false;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (!state.stream || state.finished) return false;
  }
  // Outside the lock: the flush completes buffers through OnBufferCompleted, which takes it.
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> lock(state.mutex);
  for (CUpti_ActivityKind kind : kRecordedKinds) cuptiActivityDisable(kind);
  if (state.dropped != 0) {
    state.stream->WriteMessage("CUPTI dropped " + std::to_string(state.dropped) +
                               " activity record(s): those kernels are missing from the profile");
  }
  state.stream->WriteEnd(state.kernels);
  state.finished = true;
  return true;
}

}  // namespace

void FinishKernelTimeline() { FlushAndEnd(Timeline()); }

void StopKernelTimeline(std::vector<WrittenLabel>* labels) {
  TimelineState& state = Timeline();
  FlushAndEnd(state);
  if (state.subscriber != nullptr) cuptiUnsubscribe(state.subscriber);
  std::lock_guard<std::mutex> lock(state.mutex);
  state.subscriber = nullptr;
  state.labelling = false;
  state.stream.reset();  // closes the file
  state.queues.clear();
  state.kernels = 0;
  state.dropped = 0;
  state.finished = false;
  state.labels = {};
  std::lock_guard<std::mutex> label_lock(state.label_mutex);
  state.book.Clear();
  labels->swap(state.written);
  state.written.clear();
}

}  // namespace opengpa::inject_cuda

namespace opengpa::inject_cuda {

void ForgetKernelTimelineInChild() { Timeline().forked_child = true; }

}  // namespace opengpa::inject_cuda
