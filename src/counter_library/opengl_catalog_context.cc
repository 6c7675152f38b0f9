// The OpenGL catalog without a context: the counters of a GL 4.6 core context with GL_TIMESTAMP queries,
// the version that has every query target the backend reads.
#include "backends/opengl/gl_capabilities.h"
#include "backends/opengl/gl_hardware_counters.h"
#include "counter_library/catalog_only_context.h"

namespace opengpa {
namespace embedded {
extern const char kOpenGlCatalog[];  // catalogs/opengl.json, embedded by the OpenGL backend
}

namespace counter_library {

GpaStatus OpenOpenGlCatalogContext(DeviceInfo device, std::unique_ptr<CatalogOnlyContext>* out) {
  gl::Capabilities capabilities;
  capabilities.major = 4;
  capabilities.minor = 6;
  capabilities.timestamp_bits = 64;
  std::vector<HardwareCounterInfo> hardware;
  for (gl::GlHardwareCounter& counter : gl::BuildHardwareCounters(capabilities)) {
    hardware.push_back(std::move(counter.info));
  }
  auto context = std::make_unique<CatalogOnlyContext>(std::move(device), std::move(hardware), embedded::kOpenGlCatalog);
  context->AddNvidiaSampledCounters(/*sampler_catalog_first=*/false);  // as the live backend orders them
  *out = std::move(context);
  return kGpaStatusOk;
}

}  // namespace counter_library
}  // namespace opengpa
