// The kernels an OpenCL program enqueued, each with the event that times it, until the event completes
// and its timestamps become one sample in the stream. Completed events are harvested opportunistically
// (on every intercepted call, without blocking) and, at clFinish, queue release and exit, by waiting.
#ifndef OPENGPA_PROFILER_OPENCL_KERNEL_EVENT_LOG_H_
#define OPENGPA_PROFILER_OPENCL_KERNEL_EVENT_LOG_H_

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "profiler/sample_stream.h"

namespace opengpa::intercept_cl {

// The real OpenCL entry points (the next definition after this library: the ICD loader's).
struct OpenClFunctions {
  decltype(&clGetEventInfo) get_event_info = nullptr;
  decltype(&clGetEventProfilingInfo) get_event_profiling_info = nullptr;
  decltype(&clReleaseEvent) release_event = nullptr;
  decltype(&clWaitForEvents) wait_for_events = nullptr;
  decltype(&clGetCommandQueueInfo) get_command_queue_info = nullptr;
  decltype(&clGetDeviceInfo) get_device_info = nullptr;
  decltype(&clGetKernelInfo) get_kernel_info = nullptr;
  decltype(&clRetainEvent) retain_event = nullptr;
};

struct PendingKernel {
  std::uint64_t index = 0;
  std::string name;
  std::uint32_t queue = 0;
  cl_command_queue queue_handle = nullptr;
  std::array<std::uint64_t, 3> grid{1, 1, 1};
  std::array<std::uint64_t, 3> block{1, 1, 1};
  cl_event event = nullptr;  // retained by the log (or created by it) and released once harvested
};

class KernelEventLog {
 public:
  KernelEventLog(const OpenClFunctions& cl, std::unique_ptr<profiling::SampleStreamWriter> stream);

  // Numbers `queue` on first sight ("queue 0", "queue 1", ... with its device name).
  std::uint32_t QueueId(cl_command_queue queue);
  std::uint64_t NextIndex() {
    std::lock_guard<std::mutex> lock(mutex_);
    return next_index_++;
  }
  void Add(PendingKernel kernel);
  // The queue is going away: wait for its kernels, and let its address name a new queue later.
  void ForgetQueue(cl_command_queue queue);

  // Writes the samples of every completed event; with `wait`, waits for all events of `queue`
  // (nullptr: of every queue) first.
  void Harvest(bool wait, cl_command_queue queue);
  // Waits for everything and writes the end record.
  void Finish();

 private:
  bool Harvestable(const PendingKernel& kernel, bool wait, cl_command_queue queue);
  void WriteSample(const PendingKernel& kernel);

  OpenClFunctions cl_;
  std::unique_ptr<profiling::SampleStreamWriter> stream_;
  std::mutex mutex_;
  std::deque<PendingKernel> pending_;
  std::map<cl_command_queue, std::uint32_t> queues_;
  std::uint32_t next_queue_ = 0;
  std::uint64_t next_index_ = 0;
  std::uint64_t written_ = 0;
  bool finished_ = false;
};

}  // namespace opengpa::intercept_cl

#endif  // OPENGPA_PROFILER_OPENCL_KERNEL_EVENT_LOG_H_
