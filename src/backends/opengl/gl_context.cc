#include "backends/opengl/gl_context.h"

#include <utility>

#include "backends/common/context_checks.h"
#include "backends/opengl/gl_session.h"
#include "platform/logging.h"

namespace opengpa {
namespace embedded {
extern const char kOpenGlCatalog[];
}  // namespace embedded

namespace gl {
namespace {

// Vendor performance-monitor extensions are detected and reported, not yet used: neither llvmpipe nor the
// NVIDIA driver (the two drivers OpenGPA is tested on) offers them, and untested counters would be guesses.
void ReportVendorMonitors(const Capabilities& caps) {
  for (const char* extension : {"GL_AMD_performance_monitor", "GL_INTEL_performance_query"}) {
    if (caps.Has(extension)) {
      Log(kGpaLoggingMessage, "OpenGL: the driver offers {}; OpenGPA does not expose its counters yet", extension);
    }
  }
}

}  // namespace

GpaStatus GlContext::Open(void* handle, GpaOpenContextFlags flags, std::unique_ptr<BackendContext>* out) {
  auto device = std::make_shared<ContextState>();
  if (GpaStatus status = CurrentContext::Find(handle, &device->context); status != kGpaStatusOk) return status;
  if (GpaStatus status = Api::Load(*device->context, &device->gl); status != kGpaStatusOk) return status;
  device->caps = Capabilities::Query(device->gl);
  const Capabilities& caps = device->caps;
  if (caps.is_es) {
    return LogError(kGpaStatusErrorDriverNotSupported,
                    "GpaOpenContext: context {} is an OpenGL ES {}.{} context; libGPUPerfAPIGL.so supports desktop "
                    "OpenGL",
                    handle, caps.major, caps.minor);
  }
  if (!caps.timer_query() && !caps.pipeline_statistics()) {
    return LogError(kGpaStatusErrorDriverNotSupported,
                    "GpaOpenContext: OpenGL {}.{} offers neither timer queries (GL 3.3 / GL_ARB_timer_query) nor "
                    "GL_ARB_pipeline_statistics_query",
                    caps.major, caps.minor);
  }
  if (caps.timer_query() && caps.timestamp_bits == 0) {
    Log(kGpaLoggingMessage, "OpenGL: GL_TIMESTAMP has 0 counter bits on this driver; GPUTime is not offered");
  }
  if (flags & (kGpaOpenContextClockModeNoneBit | kGpaOpenContextClockModePeakBit |
               kGpaOpenContextClockModeMinMemoryBit | kGpaOpenContextClockModeMinEngineBit)) {
    Log(kGpaLoggingMessage, "OpenGL: clock-mode flags 0x{:X} have no effect; GL offers no way to set GPU clocks", flags);
  }
  ReportVendorMonitors(caps);

  device->info = DescribeDevice(device->gl);
  device->counters = BuildHardwareCounters(caps);
  for (const GlHardwareCounter& counter : device->counters) device->counter_infos.push_back(counter.info);
  Log(kGpaLoggingMessage, "OpenGL: {} (GL {}.{}), {} hardware counters", device->info.name, caps.major, caps.minor,
      device->counters.size());
  *out = std::make_unique<GlContext>(std::move(device));
  return kGpaStatusOk;
}

std::vector<std::string_view> GlContext::DerivedCatalogs() const { return {embedded::kOpenGlCatalog}; }

GpaStatus GlContext::CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) {
  if (GpaStatus status = CheckHardwareCounterIndices(counters, device_->counters.size(), "GpaGetPassCount");
      status != kGpaStatusOk) {
    return status;
  }
  *passes = 1;  // each counter has its own query target, so all of them are collected together
  return kGpaStatusOk;
}

GpaStatus GlContext::CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                                   std::unique_ptr<BackendSession>* out) {
  if (GpaStatus status = CheckDiscreteCountersOnly(type, "OpenGL"); status != kGpaStatusOk) return status;
  if (GpaStatus status = CheckHardwareCounterIndices(counters, device_->counters.size(), "GpaCreateSession");
      status != kGpaStatusOk) {
    return status;
  }
  *out = std::make_unique<GlSession>(device_, counters);
  return kGpaStatusOk;
}

}  // namespace gl
}  // namespace opengpa
