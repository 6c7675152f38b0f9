#include "headless_gl.h"

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace opengpa::glwork {
namespace {

std::string EglFailure(const char* call) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%s failed (EGL error 0x%04X)", call, static_cast<unsigned>(eglGetError()));
  return buffer;
}

std::string Env(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

EGLDisplay OpenDisplay(const std::string& platform, std::string* error) {
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (get_platform_display == nullptr) {
    *error = "eglGetPlatformDisplayEXT is missing (EGL_EXT_platform_base)";
    return EGL_NO_DISPLAY;
  }
  if (platform == "surfaceless") {
    EGLDisplay display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (display == EGL_NO_DISPLAY) *error = EglFailure("eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA)");
    return display;
  }
  if (platform == "device") {
    auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    if (query_devices == nullptr) {
      *error = "eglQueryDevicesEXT is missing (EGL_EXT_device_enumeration)";
      return EGL_NO_DISPLAY;
    }
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!query_devices(16, devices, &count) || count == 0) {
      *error = EglFailure("eglQueryDevicesEXT (no EGL device)");
      return EGL_NO_DISPLAY;
    }
    int index = std::atoi(Env("OPENGPA_EGL_DEVICE", "0").c_str());
    if (index < 0 || index >= count) index = 0;
    EGLDisplay display = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[index], nullptr);
    if (display == EGL_NO_DISPLAY) *error = EglFailure("eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT)");
    return display;
  }
  *error = "OPENGPA_EGL_PLATFORM must be surfaceless or device, not " + platform;
  return EGL_NO_DISPLAY;
}

// A pbuffer-capable desktop-GL config, for drivers without EGL_KHR_no_config_context.
EGLConfig PbufferConfig(EGLDisplay display) {
  const EGLint attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, attributes, &config, 1, &count) || count == 0) return nullptr;
  return config;
}

bool HasExtension(EGLDisplay display, const char* name) {
  const char* extensions = eglQueryString(display, EGL_EXTENSIONS);
  return extensions != nullptr && std::strstr(extensions, name) != nullptr;
}

EGLContext CreateContext(EGLDisplay display, EGLContext share) {
  const EGLint attributes[] = {
      EGL_CONTEXT_MAJOR_VERSION,           4,       EGL_CONTEXT_MINOR_VERSION, 5, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  // We render to an FBO, so no config is needed where EGL_KHR_no_config_context is offered (Mesa, NVIDIA).
  EGLConfig config = HasExtension(display, "EGL_KHR_no_config_context") ? EGL_NO_CONFIG_KHR : PbufferConfig(display);
  return eglCreateContext(display, config, share, attributes);
}

}  // namespace

std::unique_ptr<HeadlessGl> HeadlessGl::Create(int width, int height, std::string* error) {
  auto gl = std::make_unique<HeadlessGl>();
  gl->platform_ = Env("OPENGPA_EGL_PLATFORM", "surfaceless");
  gl->width_ = width;
  gl->height_ = height;
  gl->display_ = OpenDisplay(gl->platform_, error);
  if (gl->display_ == EGL_NO_DISPLAY) return nullptr;
  if (!eglInitialize(gl->display_, nullptr, nullptr)) {
    *error = EglFailure("eglInitialize");
    gl->display_ = EGL_NO_DISPLAY;
    return nullptr;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    *error = EglFailure("eglBindAPI(EGL_OPENGL_API)");
    return nullptr;
  }
  gl->context_ = CreateContext(gl->display_, EGL_NO_CONTEXT);
  if (gl->context_ == EGL_NO_CONTEXT) {
    *error = EglFailure("eglCreateContext(OpenGL 4.5 core)");
    return nullptr;
  }
  if (!HasExtension(gl->display_, "EGL_KHR_surfaceless_context")) {
    // Without surfaceless contexts a (tiny, unused) pbuffer makes the context current.
    const EGLint size[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    EGLConfig config = PbufferConfig(gl->display_);
    gl->surface_ = config != nullptr ? eglCreatePbufferSurface(gl->display_, config, size) : EGL_NO_SURFACE;
  }
  if (!gl->MakeCurrent()) {
    *error = EglFailure("eglMakeCurrent");
    return nullptr;
  }
  glGenRenderbuffers(1, &gl->color_);
  glBindRenderbuffer(GL_RENDERBUFFER, gl->color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glGenRenderbuffers(1, &gl->depth_);
  glBindRenderbuffer(GL_RENDERBUFFER, gl->depth_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
  glGenFramebuffers(1, &gl->framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, gl->framebuffer_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, gl->color_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, gl->depth_);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    *error = "the framebuffer object is incomplete";
    return nullptr;
  }
  glViewport(0, 0, width, height);
  return gl;
}

HeadlessGl::~HeadlessGl() {
  if (display_ == EGL_NO_DISPLAY) return;
  if (context_ != EGL_NO_CONTEXT && MakeCurrent()) {
    glDeleteFramebuffers(1, &framebuffer_);
    glDeleteRenderbuffers(1, &color_);
    glDeleteRenderbuffers(1, &depth_);
  }
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
  if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
  eglTerminate(display_);
}

std::string HeadlessGl::renderer() const {
  const GLubyte* text = glGetString(GL_RENDERER);
  return text != nullptr ? reinterpret_cast<const char*>(text) : "";
}

bool HeadlessGl::MakeCurrent() const { return eglMakeCurrent(display_, surface_, surface_, context_); }

bool HeadlessGl::ReleaseCurrent() const {
  return eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

EGLContext HeadlessGl::CreateOtherContext() const { return CreateContext(display_, EGL_NO_CONTEXT); }

}  // namespace opengpa::glwork
