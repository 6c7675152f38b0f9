#include "backends/cuda/cuda_open_info.h"

#include <cstring>

#include "platform/logging.h"

namespace opengpa::cuda {

GpaStatus ReadOpenInfo(const void* api_context, OpenRequest* out) {
  // Read the header field by field: a CUcontext passed by mistake points at driver memory of unknown size.
  GpaUInt32 type = 0;
  std::memcpy(&type, api_context, sizeof(type));
  if (type != GPA_CUDA_CONTEXT_OPEN_INFO_TYPE) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "api_context {} is not a GpaCudaContextOpenInfo (type 0x{:08x}, expected "
                    "GPA_CUDA_CONTEXT_OPEN_INFO_TYPE 0x{:08x}); pass &open_info, not the CUcontext itself",
                    api_context, type, GPA_CUDA_CONTEXT_OPEN_INFO_TYPE);
  }
  GpaCudaContextOpenInfo info{};
  std::memcpy(&info, api_context, sizeof(info.type) + sizeof(info.struct_size));
  if (info.struct_size < sizeof(GpaCudaContextOpenInfo)) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "GpaCudaContextOpenInfo::struct_size {} is smaller than sizeof(GpaCudaContextOpenInfo) {}",
                    info.struct_size, sizeof(GpaCudaContextOpenInfo));
  }
  std::memcpy(&info, api_context, sizeof(info));
  if (info.context == nullptr && (info.chip_name == nullptr || info.chip_name[0] == '\0')) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "GpaCudaContextOpenInfo has neither a context nor a chip_name: set context to measure a "
                    "CUcontext, or chip_name (e.g. \"GH100\") for an offline context");
  }
  out->context = info.context;
  out->chip_name = info.chip_name != nullptr ? info.chip_name : "";
  out->max_samples_per_pass =
      info.max_samples_per_pass == 0 ? GPA_CUDA_DEFAULT_MAX_SAMPLES_PER_PASS : info.max_samples_per_pass;
  return kGpaStatusOk;
}

}  // namespace opengpa::cuda
