// What GpaOpenContext needs for each API, created by the CLI itself (the user has no program yet):
// a CUDA context (or an offline chip), a Vulkan device, an EGL context, an OpenCL queue. Each API's
// bootstrap lives in its own file (api_context_<api>.cc) and reaches the API through dlopen only.
#ifndef OPENGPA_TOOLS_OPENGPA_API_CONTEXT_H_
#define OPENGPA_TOOLS_OPENGPA_API_CONTEXT_H_

#include <memory>
#include <string>

#include "client/gpa_library_search.h"  // ApiNumber
#include "gpu_performance_api/gpu_perf_api_types.h"
#include "gpu_performance_api/opengpa_ext.h"

namespace opengpa::cli {

struct ContextRequest {
  client::ApiNumber api = client::kApiCuda;
  int device = -1;   // index among the API's devices; -1: the best one (a discrete GPU before a CPU driver)
  std::string chip;  // CUDA only: no device, an offline context for this chip ("GH100")
};

class ApiContext {
 public:
  virtual ~ApiContext() = default;
  // The pointer GpaOpenContext takes for this API; valid while this object lives.
  virtual void* OpenContextArgument() = 0;
  // One line for people, e.g. "Vulkan device 0 of 1: llvmpipe (LLVM 15.0.6, 256 bits) [cpu]".
  virtual std::string Description() const = 0;
};

std::unique_ptr<ApiContext> CreateApiContext(const ContextRequest& request, std::string* error);

std::unique_ptr<ApiContext> CreateCudaApiContext(const ContextRequest& request, std::string* error);
std::unique_ptr<ApiContext> CreateVulkanApiContext(const ContextRequest& request, std::string* error);
std::unique_ptr<ApiContext> CreateOpenGlApiContext(const ContextRequest& request, std::string* error);
std::unique_ptr<ApiContext> CreateOpenClApiContext(const ContextRequest& request, std::string* error);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_API_CONTEXT_H_
