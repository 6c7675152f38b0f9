// What the current GL context offers the backend: version, extensions, timer resolution, and the device
// as far as GL describes it.
#ifndef OPENGPA_BACKENDS_OPENGL_GL_CAPABILITIES_H_
#define OPENGPA_BACKENDS_OPENGL_GL_CAPABILITIES_H_

#include <set>
#include <string>
#include <string_view>

#include "backends/opengl/gl_api.h"
#include "core/backend.h"

namespace opengpa::gl {

struct Capabilities {
  int major = 0;
  int minor = 0;
  bool is_es = false;
  std::set<std::string, std::less<>> extensions;
  GLint timestamp_bits = 0;  // 0: GL_TIMESTAMP queries are not supported by this implementation

  bool AtLeast(int want_major, int want_minor) const {
    return major > want_major || (major == want_major && minor >= want_minor);
  }
  bool Has(std::string_view extension) const { return extensions.count(extension) != 0; }

  bool timer_query() const { return AtLeast(3, 3) || Has("GL_ARB_timer_query"); }
  bool pipeline_statistics() const { return AtLeast(4, 6) || Has("GL_ARB_pipeline_statistics_query"); }
  bool geometry_shaders() const { return AtLeast(3, 2); }
  bool tessellation() const { return AtLeast(4, 0) || Has("GL_ARB_tessellation_shader"); }
  bool compute_shaders() const { return AtLeast(4, 3) || Has("GL_ARB_compute_shader"); }
  bool any_samples_passed() const { return AtLeast(3, 3) || Has("GL_ARB_occlusion_query2"); }
  bool any_samples_passed_conservative() const { return AtLeast(4, 3) || Has("GL_ARB_ES3_compatibility"); }

  // Reads the capabilities of the current context (no GL error is generated).
  static Capabilities Query(const Api& gl);
};

// Device name (GL_RENDERER), vendor id from GL_VENDOR, generation from the renderer. GL exposes no PCI
// device or revision id, so those stay 0.
DeviceInfo DescribeDevice(const Api& gl);

}  // namespace opengpa::gl

#endif  // OPENGPA_BACKENDS_OPENGL_GL_CAPABILITIES_H_
