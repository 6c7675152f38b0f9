// An NVIDIA chip through CUPTI's host API: the same offline context libGPUPerfAPICUDA.so opens for
// GpaCudaContextOpenInfo::chip_name (and `opengpa list --chip`), so counters and pass counts agree.
#include "backends/cuda/cuda_context.h"
#include "counter_library/device_selection.h"

namespace opengpa::counter_library {

GpaStatus OpenCudaChipContext(const std::string& chip, std::unique_ptr<BackendContext>* out) {
  return cuda::CudaContext::Open(chip, nullptr, 0, out);
}

}  // namespace opengpa::counter_library
