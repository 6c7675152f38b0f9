// A GL 4.5 core context without a window, for the sample, the tests and device runs: EGL on Mesa's
// surfaceless platform (llvmpipe, the default) or on the EGL device platform (OPENGPA_EGL_PLATFORM=device,
// device OPENGPA_EGL_DEVICE, default 0: e.g. the NVIDIA driver), rendering into a W x H framebuffer object
// with color and depth.
#ifndef OPENGPA_SAMPLES_OPENGL_HEADLESS_GL_H_
#define OPENGPA_SAMPLES_OPENGL_HEADLESS_GL_H_

#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>

#include <memory>
#include <string>

namespace opengpa::glwork {

class HeadlessGl {
 public:
  // nullptr and *error when no context can be made (which EGL call failed, with its error code).
  static std::unique_ptr<HeadlessGl> Create(int width, int height, std::string* error);
  HeadlessGl() = default;  // use Create()
  ~HeadlessGl();
  HeadlessGl(const HeadlessGl&) = delete;
  HeadlessGl& operator=(const HeadlessGl&) = delete;

  EGLContext context() const { return context_; }
  EGLDisplay display() const { return display_; }
  int width() const { return width_; }
  int height() const { return height_; }
  std::string renderer() const;
  std::string platform() const { return platform_; }

  bool MakeCurrent() const;
  bool ReleaseCurrent() const;
  // A second context on the same display, never made current (for "not current" tests); caller destroys it.
  EGLContext CreateOtherContext() const;

 private:
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  EGLSurface surface_ = EGL_NO_SURFACE;  // only where EGL_KHR_surfaceless_context is missing
  std::string platform_;
  int width_ = 0;
  int height_ = 0;
  GLuint framebuffer_ = 0;
  GLuint color_ = 0;
  GLuint depth_ = 0;
};

}  // namespace opengpa::glwork

#endif  // OPENGPA_SAMPLES_OPENGL_HEADLESS_GL_H_
