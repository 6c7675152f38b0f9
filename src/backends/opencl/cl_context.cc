#include "backends/opencl/cl_context.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "backends/common/context_checks.h"
#include "backends/opencl/cl_hardware_counters.h"
#include "backends/opencl/cl_session.h"
#include "platform/logging.h"

namespace opengpa {
namespace embedded {
extern const char kOpenClCatalog[];
}  // namespace embedded

namespace cl {
namespace {

// "OpenCL 3.0 CUDA", "OpenCL 3.0 PoCL HSTR: ..."
bool AtLeastOpenCl12(cl_device_id device, std::string* version) {
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_VERSION, 0, nullptr, &size) != CL_SUCCESS || size == 0) return false;
  std::vector<char> text(size);
  if (clGetDeviceInfo(device, CL_DEVICE_VERSION, size, text.data(), nullptr) != CL_SUCCESS) return false;
  *version = text.data();
  int major = 0;
  int minor = 0;
  if (std::sscanf(text.data(), "OpenCL %d.%d", &major, &minor) != 2) return false;
  return major > 1 || (major == 1 && minor >= 2);
}

}  // namespace

GpaStatus ClContext::Open(void* api_context, GpaOpenContextFlags flags, std::unique_ptr<BackendContext>* out) {
  auto queue = static_cast<cl_command_queue>(api_context);
  cl_command_queue_properties properties = 0;
  cl_int status = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr);
  if (status != CL_SUCCESS) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "GpaOpenContext: context {} is not a cl_command_queue (clGetCommandQueueInfo returned {}); pass "
                    "the queue itself, not its address",
                    api_context, status);
  }
  if ((properties & CL_QUEUE_PROFILING_ENABLE) == 0) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "GpaOpenContext: command queue {} was created without CL_QUEUE_PROFILING_ENABLE (properties "
                    "0x{:X}); GPA's OpenCL counters come from event profiling",
                    api_context, properties);
  }
  auto state = std::make_shared<QueueState>();
  status = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof(cl_device_id), &state->device, nullptr);
  if (status != CL_SUCCESS) {
    return LogError(kGpaStatusErrorFailed, "GpaOpenContext: clGetCommandQueueInfo(CL_QUEUE_DEVICE) returned {}",
                    status);
  }
  std::string version;
  if (!AtLeastOpenCl12(state->device, &version)) {
    return LogError(kGpaStatusErrorDriverNotSupported,
                    "GpaOpenContext: the queue's device reports '{}'; GPA needs OpenCL 1.2 (markers and barriers "
                    "with wait lists)",
                    version);
  }
  if (flags & (kGpaOpenContextClockModeNoneBit | kGpaOpenContextClockModePeakBit |
               kGpaOpenContextClockModeMinMemoryBit | kGpaOpenContextClockModeMinEngineBit)) {
    Log(kGpaLoggingMessage, "OpenCL: clock-mode flags 0x{:X} have no effect; OpenCL offers no way to set clocks",
        flags);
  }
  state->queue = RetainQueue(queue);
  state->out_of_order = (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
  state->info = DescribeDevice(state->device);
  Log(kGpaLoggingMessage, "OpenCL: {} ({}), {}-order queue", state->info.name, version,
      (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) ? "out-of" : "in");
  *out = std::make_unique<ClContext>(std::move(state));
  return kGpaStatusOk;
}

ClContext::ClContext(std::shared_ptr<QueueState> queue) : queue_(std::move(queue)) {
  for (const ClHardwareCounter& counter : cl::BuildHardwareCounters()) counter_infos_.push_back(counter.info);
}

std::vector<std::string_view> ClContext::DerivedCatalogs() const { return {embedded::kOpenClCatalog}; }

GpaStatus ClContext::CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) {
  if (GpaStatus status = CheckHardwareCounterIndices(counters, counter_infos_.size(), "GpaGetPassCount");
      status != kGpaStatusOk) {
    return status;
  }
  *passes = 1;  // every counter is a timestamp of the same two events
  return kGpaStatusOk;
}

GpaStatus ClContext::CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                                   std::unique_ptr<BackendSession>* out) {
  if (GpaStatus status = CheckDiscreteCountersOnly(type, "OpenCL"); status != kGpaStatusOk) return status;
  if (GpaStatus status = CheckHardwareCounterIndices(counters, counter_infos_.size(), "GpaCreateSession");
      status != kGpaStatusOk) {
    return status;
  }
  *out = std::make_unique<ClSession>(queue_, counters);
  return kGpaStatusOk;
}

}  // namespace cl
}  // namespace opengpa
