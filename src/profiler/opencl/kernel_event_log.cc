#include "profiler/opencl/kernel_event_log.h"

#include <string>

namespace opengpa::intercept_cl {
namespace {

// Harvest without waiting once this many kernels are pending, so a long program holds few events.
constexpr std::size_t kHarvestThreshold = 256;

}  // namespace

KernelEventLog::KernelEventLog(const OpenClFunctions& cl, std::unique_ptr<profiling::SampleStreamWriter> stream)
    : cl_(cl), stream_(std::move(stream)) {
  stream_->WriteHeader("cl", {{"GPUTime", "nanoseconds", "float64"}});  // GPA's data type for GPUTime
}

std::uint32_t KernelEventLog::QueueId(cl_command_queue queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = queues_.find(queue);
  if (found != queues_.end()) return found->second;
  const std::uint32_t id = next_queue_++;
  queues_[queue] = id;
  std::string device_name;
  cl_device_id device = nullptr;
  if (cl_.get_command_queue_info(queue, CL_QUEUE_DEVICE, sizeof(cl_device_id), &device, nullptr) == CL_SUCCESS) {
    size_t size = 0;
    if (cl_.get_device_info(device, CL_DEVICE_NAME, 0, nullptr, &size) == CL_SUCCESS && size > 0) {
      device_name.resize(size);
      cl_.get_device_info(device, CL_DEVICE_NAME, size, device_name.data(), nullptr);
      while (!device_name.empty() && device_name.back() == '\0') device_name.pop_back();
    }
  }
  stream_->WriteQueue({id, "queue " + std::to_string(id), device_name, {}});
  return id;
}

void KernelEventLog::Add(PendingKernel kernel) {
  bool harvest = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.push_back(std::move(kernel));
    harvest = pending_.size() >= kHarvestThreshold;
  }
  if (harvest) Harvest(false, nullptr);
}

void KernelEventLog::ForgetQueue(cl_command_queue queue) {
  Harvest(true, queue);
  std::lock_guard<std::mutex> lock(mutex_);
  queues_.erase(queue);
}

bool KernelEventLog::Harvestable(const PendingKernel& kernel, bool wait, cl_command_queue queue) {
  if (wait && (queue == nullptr || kernel.queue_handle == queue)) {
    cl_.wait_for_events(1, &kernel.event);
    return true;
  }
  cl_int status = CL_QUEUED;
  if (cl_.get_event_info(kernel.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) !=
      CL_SUCCESS) {
    return true;  // the event is broken; WriteSample reports it
  }
  return status == CL_COMPLETE || status < 0;
}

void KernelEventLog::Harvest(bool wait, cl_command_queue queue) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::deque<PendingKernel> still_pending;
  for (PendingKernel& kernel : pending_) {
    if (Harvestable(kernel, wait, queue)) {
      WriteSample(kernel);
      cl_.release_event(kernel.event);
    } else {
      still_pending.push_back(std::move(kernel));
    }
  }
  pending_ = std::move(still_pending);
}

void KernelEventLog::WriteSample(const PendingKernel& kernel) {
  cl_ulong start = 0, end = 0;
  const cl_int start_status =
      cl_.get_event_profiling_info(kernel.event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
  const cl_int end_status =
      cl_.get_event_profiling_info(kernel.event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
  if (start_status != CL_SUCCESS || end_status != CL_SUCCESS || end < start) {
    stream_->WriteMessage("kernel " + kernel.name + " (enqueue " + std::to_string(kernel.index) +
                          ") has no profiling times: clGetEventProfilingInfo returned " + std::to_string(start_status) +
                          "/" + std::to_string(end_status));
    return;
  }
  profiling::Sample sample;
  sample.index = kernel.index;
  sample.name = kernel.name;
  sample.queue = kernel.queue;
  sample.grid = kernel.grid;
  sample.block = kernel.block;
  sample.start_ns = start;
  sample.end_ns = end;
  sample.values = {static_cast<double>(end - start)};
  stream_->WriteSample(sample);
  ++written_;
}

void KernelEventLog::Finish() {
  Harvest(true, nullptr);
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  stream_->WriteEnd(written_);
}

}  // namespace opengpa::intercept_cl
