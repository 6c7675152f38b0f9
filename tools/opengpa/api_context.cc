#include "api_context.h"

#include "api_name.h"

namespace opengpa::cli {

std::unique_ptr<ApiContext> CreateApiContext(const ContextRequest& request, std::string* error) {
  if (!request.chip.empty() && request.api != client::kApiCuda) {
    *error = "--chip " + request.chip + " opens an offline CUDA context; it cannot be combined with --api " +
             std::string(ApiShortName(request.api));
    return nullptr;
  }
  switch (request.api) {
    case client::kApiCuda: return CreateCudaApiContext(request, error);
    case kGpaApiVulkan: return CreateVulkanApiContext(request, error);
    case kGpaApiOpengl: return CreateOpenGlApiContext(request, error);
    case kGpaApiOpencl: return CreateOpenClApiContext(request, error);
    default: *error = "api " + std::to_string(request.api) + " is not supported by opengpa"; return nullptr;
  }
}

}  // namespace opengpa::cli
