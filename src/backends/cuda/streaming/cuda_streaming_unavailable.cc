// Streaming on CUDA when the toolkit lacks CUPTI's PM sampling headers: no context offers it.
#include "backends/cuda/cuda_streaming.h"

#include "platform/logging.h"

namespace opengpa::cuda {

bool ChipStreams(const std::string&) { return false; }

GpaStatus CheckStreamableMetrics(const std::string&, const std::vector<std::string>&) {
  return LogError(kGpaStatusErrorIncompatibleSampleTypes,
                  "this build has no CUPTI PM sampling (OPENGPA_WITH_PM_SAMPLING is OFF): nothing can be streamed");
}

GpaStatus CreateStreamingSession(const nvidia::CudaDriver&, CUcontext, CUdevice, std::vector<std::string>,
                                 std::unique_ptr<BackendSession>*) {
  return LogError(kGpaStatusErrorIncompatibleSampleTypes,
                  "this build has no CUPTI PM sampling (OPENGPA_WITH_PM_SAMPLING is OFF)");
}

}  // namespace opengpa::cuda
