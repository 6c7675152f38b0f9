// Reading what the application passed to GpaOpenContext (a GpaCudaContextOpenInfo, see
// gpu_perf_api_cuda.h) into a request, refusing anything else with a log that says what was wrong.
#ifndef OPENGPA_BACKENDS_CUDA_CUDA_OPEN_INFO_H_
#define OPENGPA_BACKENDS_CUDA_CUDA_OPEN_INFO_H_

#include <cstdint>
#include <string>

#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa::cuda {

struct OpenRequest {
  CUcontext context = nullptr;  // null: offline
  std::string chip_name;        // required offline; when live, checked against the device's chip if set
  std::uint32_t max_samples_per_pass = GPA_CUDA_DEFAULT_MAX_SAMPLES_PER_PASS;
};

// `api_context` is non-null (the entry layer checks that).
[[nodiscard]] GpaStatus ReadOpenInfo(const void* api_context, OpenRequest* out);

}  // namespace opengpa::cuda

#endif  // OPENGPA_BACKENDS_CUDA_CUDA_OPEN_INFO_H_
