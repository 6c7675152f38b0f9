#include "backends/opengl/gl_context.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>

#include "backends/common/context_checks.h"
#include "backends/common/sampled_stream_session.h"
#include "backends/common/timing_pass.h"
#include "backends/opengl/gl_session.h"
#include "platform/logging.h"

namespace opengpa {
namespace embedded {
extern const char kOpenGlCatalog[];
extern const char kNvidiaGraphicsCatalog[];
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

// NVIDIA's GPU periodic sampler for the current context's GPU, or nullptr with the reason logged once.
std::unique_ptr<nvidia::GraphicsCounterSource> OpenSamplerSource(const ContextState& device) {
  std::string why;
  const char* vendor = reinterpret_cast<const char*>(device.gl.GetString(GL_VENDOR));
  if (nvidia::GraphicsCountersSwitchedOff()) {
    why = "OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0";
  } else if (vendor == nullptr || std::string(vendor).find("NVIDIA") == std::string::npos) {
    why = fmt::format("hardware counters come from NVIDIA's GPU periodic sampler, and the GL vendor is {}",
                      vendor != nullptr ? vendor : "unknown");
  } else {
    const bool egl = device.context->window_system() == WindowSystem::kEgl;
    auto source = egl ? nvidia::GraphicsCounterSource::ForCurrentEglContext(&why)
                      : nvidia::GraphicsCounterSource::ForCurrentGlxContext(&why);
    if (source != nullptr) {
      Log(kGpaLoggingMessage,
          "OpenGL: hardware counters of PerfWorks' GPU periodic sampler on {} (PerfWorks device {}, {} context)",
          source->Chip(), source->DeviceIndex(), WindowSystemName(device.context->window_system()));
      return source;
    }
  }
  Log(kGpaLoggingMessage, "OpenGL: no hardware counters, only timestamps and pipeline statistics: {}", why);
  return nullptr;
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
    Log(kGpaLoggingMessage, "OpenGL: clock-mode flags 0x{:X} have no effect; GL offers no way to set GPU clocks",
        flags);
  }
  ReportVendorMonitors(caps);

  device->info = DescribeDevice(device->gl);
  device->counters = BuildHardwareCounters(caps);
  device->sampler = OpenSamplerSource(*device);
  if (device->sampler != nullptr) AddSampledMetrics(device->sampler->Metrics(), &device->counters);
  for (const GlHardwareCounter& counter : device->counters) device->counter_infos.push_back(counter.info);
  Log(kGpaLoggingMessage, "OpenGL: {} (GL {}.{}), {} hardware counters", device->info.name, caps.major, caps.minor,
      device->counters.size());
  *out = std::make_unique<GlContext>(std::move(device));
  return kGpaStatusOk;
}

// GL's catalog first: where both define a counter (VSVerticesIn, PSPixelsIn, CSThreads, ...) GL's pipeline
// statistic is the one exposed, because NVIDIA's GL driver can run a fragment shader that writes a constant without
// any pixel-shader thread (measured on the H100: 0 PS threads for a full-screen draw that the statistic counts),
// so PSPixelsIn from threads would read 0 there.
std::vector<std::string_view> GlContext::DerivedCatalogs() const {
  if (device_->sampler != nullptr) return {embedded::kOpenGlCatalog, embedded::kNvidiaGraphicsCatalog};
  return {embedded::kOpenGlCatalog};
}

GpaStatus GlContext::PlanSampledPasses(const std::vector<HardwareCounterIndex>& counters,
                                       std::vector<std::string>* names, std::vector<bool>* additive,
                                       std::vector<nvidia::perfworks::PassConfig>* passes) const {
  for (HardwareCounterIndex index : counters) {
    const GlHardwareCounter& counter = device_->counters[index];
    if (counter.source != CounterSource::kSampledMetric) continue;
    names->push_back(counter.info.name);
    additive->push_back(counter.additive);
  }
  if (names->empty()) return kGpaStatusOk;
  return device_->sampler->PlanPasses(*names, passes);
}

GpaStatus GlContext::CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) {
  if (GpaStatus status = CheckHardwareCounterIndices(counters, device_->counters.size(), "GpaGetPassCount");
      status != kGpaStatusOk) {
    return status;
  }
  // Each query counter has its own target, so all of them are collected together; the sampler's metrics take the
  // passes PerfWorks needs, and then the timing counters one more (backends/common/timing_pass.h).
  std::vector<std::string> names;
  std::vector<bool> additive;
  std::vector<nvidia::perfworks::PassConfig> plan;
  if (GpaStatus status = PlanSampledPasses(counters, &names, &additive, &plan); status != kGpaStatusOk) return status;
  *passes =
      PassesWithTimingPass(static_cast<GpaUInt32>(plan.size()), 1, HoldsTimingCounter(device_->counters, counters));
  return kGpaStatusOk;
}

GpaContextSampleTypeFlags GlContext::SupportedSampleTypes() const {
  const bool streams = device_->sampler != nullptr && device_->sampler->SamplesByTime();
  return kGpaContextSampleTypeDiscreteCounter | (streams ? kGpaContextSampleTypeStreamingCounter : 0);
}

GpaStatus GlContext::PlanStream(const std::vector<HardwareCounterIndex>& counters, StreamPlan* plan) const {
  if (GpaStatus status = CheckHardwareCounterIndices(counters, device_->counters.size(), "GpaEnableCounter");
      status != kGpaStatusOk) {
    return status;
  }
  std::string not_sampled;
  for (HardwareCounterIndex index : counters) {
    if (device_->counters[index].source != CounterSource::kSampledMetric && not_sampled.empty()) {
      not_sampled = device_->counters[index].info.name;
    }
  }
  if (device_->sampler != nullptr && not_sampled.empty()) {
    if (GpaStatus status = PlanSampledPasses(counters, &plan->names, &plan->additive, &plan->passes);
        status != kGpaStatusOk) {
      return status;
    }
  }
  return CheckSampledStreamable(device_->sampler.get(), "OpenGL", not_sampled, plan->names.size(), plan->passes.size());
}

GpaStatus GlContext::CheckStreamable(const std::vector<HardwareCounterIndex>& counters) {
  StreamPlan plan;
  return PlanStream(counters, &plan);
}

GpaStatus GlContext::CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                                   std::unique_ptr<BackendSession>* out) {
  if (type == kGpaSessionSampleTypeStreamingCounter &&
      (SupportedSampleTypes() & kGpaContextSampleTypeStreamingCounter)) {
    StreamPlan plan;
    if (GpaStatus status = PlanStream(counters, &plan); status != kGpaStatusOk) return status;
    return CreateSampledStreamSession(*device_->sampler, "OpenGL", std::move(plan), out);
  }
  if (GpaStatus status = CheckDiscreteCountersOnly(type, "OpenGL"); status != kGpaStatusOk) return status;
  if (GpaStatus status = CheckHardwareCounterIndices(counters, device_->counters.size(), "GpaCreateSession");
      status != kGpaStatusOk) {
    return status;
  }
  std::shared_ptr<nvidia::SampledPasses> sampled;
  std::vector<std::string> names;
  std::vector<bool> additive;
  std::vector<nvidia::perfworks::PassConfig> plan;
  if (GpaStatus status = PlanSampledPasses(counters, &names, &additive, &plan); status != kGpaStatusOk) return status;
  if (!names.empty()) {
    sampled = std::make_shared<nvidia::SampledPasses>(*device_->sampler, nvidia::perfworks::kTriggerCpu,
                                                      std::move(names), std::move(additive), std::move(plan));
  }
  *out = std::make_unique<GlSession>(device_, counters, std::move(sampled));
  return kGpaStatusOk;
}

}  // namespace gl
}  // namespace opengpa
