// libGPUPerfAPIGL.so's backend: GpaOpenContext takes the application's current EGLContext or GLXContext.
#include "backends/opengl/gl_context.h"
#include "core/backend.h"

namespace opengpa {
namespace {

class GlBackend final : public Backend {
 public:
  GpaApiType Api() const override { return kGpaApiOpengl; }
  GpaStatus OpenContext(void* api_context, GpaOpenContextFlags flags, std::unique_ptr<BackendContext>* out) override {
    return gl::GlContext::Open(api_context, flags, out);
  }
};

}  // namespace

Backend& ActiveBackend() {
  static GlBackend backend;
  return backend;
}

}  // namespace opengpa
