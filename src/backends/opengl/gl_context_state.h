// Everything the GL context and its sessions share about the application's GL context.
#ifndef OPENGPA_BACKENDS_OPENGL_GL_CONTEXT_STATE_H_
#define OPENGPA_BACKENDS_OPENGL_GL_CONTEXT_STATE_H_

#include <memory>
#include <vector>

#include "backends/opengl/gl_api.h"
#include "backends/opengl/gl_capabilities.h"
#include "backends/opengl/gl_current_context.h"
#include "backends/opengl/gl_hardware_counters.h"
#include "core/backend.h"

namespace opengpa::gl {

struct ContextState {
  std::unique_ptr<CurrentContext> context;
  Api gl;
  Capabilities caps;
  DeviceInfo info;
  std::vector<GlHardwareCounter> counters;
  std::vector<HardwareCounterInfo> counter_infos;          // counters[i].info, as BackendContext returns them
  std::unique_ptr<nvidia::GraphicsCounterSource> sampler;  // NVIDIA's GPU periodic sampler, where usable
};

}  // namespace opengpa::gl

#endif  // OPENGPA_BACKENDS_OPENGL_GL_CONTEXT_STATE_H_
