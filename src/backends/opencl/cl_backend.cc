// libGPUPerfAPICL.so's backend: GpaOpenContext takes the application's cl_command_queue.
#include "backends/opencl/cl_context.h"
#include "core/backend.h"

namespace opengpa {
namespace {

class ClBackend final : public Backend {
 public:
  GpaApiType Api() const override { return kGpaApiOpencl; }
  GpaStatus OpenContext(void* api_context, GpaOpenContextFlags flags, std::unique_ptr<BackendContext>* out) override {
    return cl::ClContext::Open(api_context, flags, out);
  }
};

}  // namespace

Backend& ActiveBackend() {
  static ClBackend backend;
  return backend;
}

}  // namespace opengpa
