// libGPUPerfAPICUDA.so's backend: opens live (CUcontext) and offline (chip name) contexts.
#include <memory>
#include <string>

#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_open_info.h"
#include "core/backend.h"
#include "nvidia/cuda_driver.h"
#include "platform/logging.h"

namespace opengpa {
namespace cuda {
namespace {

using nvidia::CudaDriver;
using nvidia::LoadCudaDriver;

class CudaBackend : public Backend {
 public:
  GpaApiType Api() const override { return kGpaApiCuda; }

  GpaStatus OpenContext(void* api_context, GpaOpenContextFlags /*flags*/,
                        std::unique_ptr<BackendContext>* out) override {
    // Clock-mode flags are accepted and have no effect: the Range Profiler measures at the clocks the
    // driver runs (documented in docs/cuda.md).
    OpenRequest request;
    if (GpaStatus status = ReadOpenInfo(api_context, &request); status != kGpaStatusOk) return status;
    if (request.context == nullptr) {
      return CudaContext::Open(request.chip_name, nullptr, request.max_samples_per_pass, out);
    }

    const CudaDriver* driver = LoadCudaDriver();
    if (driver == nullptr) {
      return LogError(kGpaStatusErrorDriverNotSupported,
                      "GpaCudaContextOpenInfo::context is set but the CUDA driver cannot be used");
    }
    auto live = std::make_unique<CudaContext::Live>();
    live->context = request.context;
    live->driver = driver;
    if (GpaStatus status = DescribeContextDevice(*driver, request.context, &live->device); status != kGpaStatusOk) {
      return status;
    }
    if (!request.chip_name.empty() && request.chip_name != live->device.chip) {
      return LogError(kGpaStatusErrorInvalidParameter,
                      "GpaCudaContextOpenInfo::chip_name \"{}\" does not match the context's chip {}",
                      request.chip_name, live->device.chip);
    }
    const std::string chip = live->device.chip;  // read before `live` is moved into the call
    return CudaContext::Open(chip, std::move(live), request.max_samples_per_pass, out);
  }
};

}  // namespace
}  // namespace cuda

Backend& ActiveBackend() {
  static cuda::CudaBackend backend;
  return backend;
}

}  // namespace opengpa
