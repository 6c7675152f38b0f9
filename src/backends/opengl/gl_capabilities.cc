#include "backends/opengl/gl_capabilities.h"

#include <cstdio>

namespace opengpa::gl {
namespace {

std::string GlString(const Api& gl, GLenum name) {
  const GLubyte* text = gl.GetString(name);
  return text != nullptr ? reinterpret_cast<const char*>(text) : "";
}

bool Contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

}  // namespace

Capabilities Capabilities::Query(const Api& gl) {
  Capabilities caps;
  std::string version = GlString(gl, GL_VERSION);
  constexpr std::string_view kEsPrefix = "OpenGL ES";
  caps.is_es = version.compare(0, kEsPrefix.size(), kEsPrefix) == 0;
  // "4.5 (Core Profile) Mesa 22.3.6", "4.6.0 NVIDIA 550.54", "OpenGL ES 3.2 Mesa ..."
  const char* digits = version.c_str();
  while (*digits != '\0' && (*digits < '0' || *digits > '9')) ++digits;
  if (std::sscanf(digits, "%d.%d", &caps.major, &caps.minor) != 2) caps.major = caps.minor = 0;

  if (caps.AtLeast(3, 0)) {
    GLint count = 0;
    gl.GetIntegerv(GL_NUM_EXTENSIONS, &count);
    for (GLint i = 0; i < count; ++i) {
      const GLubyte* name = gl.GetStringi(GL_EXTENSIONS, static_cast<GLuint>(i));
      if (name != nullptr) caps.extensions.emplace(reinterpret_cast<const char*>(name));
    }
  }
  if (!caps.is_es && caps.timer_query()) gl.GetQueryiv(GL_TIMESTAMP, GL_QUERY_COUNTER_BITS, &caps.timestamp_bits);
  return caps;
}

DeviceInfo DescribeDevice(const Api& gl) {
  DeviceInfo device;
  device.name = GlString(gl, GL_RENDERER);
  std::string vendor = GlString(gl, GL_VENDOR);
  const std::string& renderer = device.name;
  if (Contains(renderer, "llvmpipe") || Contains(renderer, "softpipe") || Contains(renderer, "SWR") ||
      Contains(renderer, "swrast")) {
    device.generation = kGpaHwGenerationSoftware;
    device.chip = renderer.substr(0, renderer.find(' '));
  } else if (Contains(vendor, "NVIDIA")) {
    device.vendor_id = 0x10DE;
    device.generation = kGpaHwGenerationNvidia;
  } else if (Contains(vendor, "Intel")) {
    device.vendor_id = 0x8086;
    device.generation = kGpaHwGenerationIntel;
  } else if (Contains(vendor, "AMD") || Contains(vendor, "ATI")) {
    device.vendor_id = 0x1002;  // the GFX generation is not derivable from GL strings
  }
  return device;
}

}  // namespace opengpa::gl
