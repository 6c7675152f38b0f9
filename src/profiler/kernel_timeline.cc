#include "profiler/kernel_timeline.h"

#include <cupti.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <tuple>

#include "nvidia/cuda_driver.h"
#include "nvidia/cupti_status.h"
#include "profiler/gpu_identity.h"
#include "profiler/kernel_launch.h"

namespace opengpa::inject_cuda {
namespace {

// CUPTI asks for buffers of this size; fewer, larger buffers mean fewer completions to write.
constexpr std::size_t kActivityBufferBytes = std::size_t{8} << 20;
// CUPTI's records are 8-byte aligned in the buffers it is given.
constexpr std::size_t kActivityBufferAlignment = 8;

struct TimelineState {
  std::mutex mutex;
  std::unique_ptr<profiling::SampleStreamWriter> stream;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> queues;  // device, context, stream
  std::uint64_t kernels = 0;
  std::size_t dropped = 0;
  bool finished = false;
  std::atomic<bool> forked_child{false};
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

const CUpti_ActivityKind kRecordedKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                             CUPTI_ACTIVITY_KIND_MEMSET};

}  // namespace

bool StartKernelTimeline(std::unique_ptr<profiling::SampleStreamWriter> stream, std::string* error) {
  TimelineState& state = Timeline();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.stream) return true;  // NVTX's injection started it before CUDA's
  profiling::ProfileRun header;
  header.api = "cuda";
  header.replay = "none";
  stream->WriteHeader(header);
  CUptiResult result = cuptiActivityRegisterCallbacks(&OnBufferRequested, &OnBufferCompleted);
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
  return true;
}

void FinishKernelTimeline() {
  TimelineState& state = Timeline();
  if (state.forked_child.load()) return;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (!state.stream || state.finished) return;
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
}

}  // namespace opengpa::inject_cuda

namespace opengpa::inject_cuda {

void ForgetKernelTimelineInChild() { Timeline().forked_child = true; }

}  // namespace opengpa::inject_cuda
