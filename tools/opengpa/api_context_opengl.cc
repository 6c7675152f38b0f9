// OpenGL bootstrap: a headless EGL context made current on this thread (what libGPUPerfAPIGL.so's
// GpaOpenContext takes). Displays come from EGL_EXT_platform_device (one per GPU, and Mesa's software
// device) when offered, else from Mesa's surfaceless platform. libEGL is dlopen'ed.
#define EGL_NO_PROTOTYPES
#define EGL_EGL_PROTOTYPES 0
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstring>
#include <string>
#include <vector>

#include "api_context.h"
#include "platform/dynamic_library.h"

namespace opengpa::cli {
namespace {

bool HasExtension(const char* extensions, const char* name) {
  if (!extensions) return false;
  const std::size_t length = std::strlen(name);
  for (const char* at = extensions; (at = std::strstr(at, name)) != nullptr; at += length) {
    const bool starts = at == extensions || at[-1] == ' ';
    const bool ends = at[length] == '\0' || at[length] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

class EglApiContext : public ApiContext {
 public:
  explicit EglApiContext(std::unique_ptr<DynamicLibrary> egl) : egl_(std::move(egl)) {}

  ~EglApiContext() override {
    if (display_ == EGL_NO_DISPLAY) return;
    if (context_ != EGL_NO_CONTEXT) {
      make_current_(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      destroy_context_(display_, context_);
    }
    if (surface_ != EGL_NO_SURFACE) destroy_surface_(display_, surface_);
    terminate_(display_);
  }

  bool Create(int requested, std::string* error) {
    auto get_proc = egl_->Get<PFNEGLGETPROCADDRESSPROC>("eglGetProcAddress");
    auto query_string = egl_->Get<PFNEGLQUERYSTRINGPROC>("eglQueryString");
    auto initialize = egl_->Get<PFNEGLINITIALIZEPROC>("eglInitialize");
    auto bind_api = egl_->Get<PFNEGLBINDAPIPROC>("eglBindAPI");
    auto choose_config = egl_->Get<PFNEGLCHOOSECONFIGPROC>("eglChooseConfig");
    auto create_context = egl_->Get<PFNEGLCREATECONTEXTPROC>("eglCreateContext");
    auto create_pbuffer = egl_->Get<PFNEGLCREATEPBUFFERSURFACEPROC>("eglCreatePbufferSurface");
    make_current_ = egl_->Get<PFNEGLMAKECURRENTPROC>("eglMakeCurrent");
    destroy_context_ = egl_->Get<PFNEGLDESTROYCONTEXTPROC>("eglDestroyContext");
    destroy_surface_ = egl_->Get<PFNEGLDESTROYSURFACEPROC>("eglDestroySurface");
    terminate_ = egl_->Get<PFNEGLTERMINATEPROC>("eglTerminate");
    if (!get_proc || !query_string || !initialize || !bind_api || !choose_config || !create_context ||
        !create_pbuffer || !make_current_ || !destroy_context_ || !destroy_surface_ || !terminate_) {
      *error = "libEGL lacks an EGL 1.4 entry point";
      return false;
    }
    if (!OpenDisplay(get_proc, query_string, requested, error)) return false;
    EGLint major = 0, minor = 0;
    if (!initialize(display_, &major, &minor)) {
      *error = "eglInitialize failed on " + display_name_;
      display_ = EGL_NO_DISPLAY;
      return false;
    }
    if (!bind_api(EGL_OPENGL_API)) {
      *error = "eglBindAPI(EGL_OPENGL_API) failed: this EGL has no desktop OpenGL";
      return false;
    }
    const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                        EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!choose_config(display_, config_attributes, &config, 1, &configs) || configs == 0) {
      *error = "no EGL config with desktop OpenGL and pbuffers on " + display_name_;
      return false;
    }
    context_ = create_context(display_, config, EGL_NO_CONTEXT, nullptr);
    if (context_ == EGL_NO_CONTEXT) {
      *error = "eglCreateContext failed on " + display_name_;
      return false;
    }
    // A 1x1 pbuffer rather than EGL_KHR_surfaceless_context: every EGL with pbuffer configs has it.
    const EGLint pbuffer_attributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    surface_ = create_pbuffer(display_, config, pbuffer_attributes);
    if (surface_ == EGL_NO_SURFACE || !make_current_(display_, surface_, surface_, context_)) {
      *error = "cannot make the EGL context current on " + display_name_;
      return false;
    }
    auto get_string = reinterpret_cast<const unsigned char* (*)(unsigned int)>(get_proc("glGetString"));
    std::string renderer = "?", version = "?";
    if (get_string) {
      constexpr unsigned int kGlRenderer = 0x1F01, kGlVersion = 0x1F02;
      if (const unsigned char* text = get_string(kGlRenderer)) renderer = reinterpret_cast<const char*>(text);
      if (const unsigned char* text = get_string(kGlVersion)) version = reinterpret_cast<const char*>(text);
    }
    description_ = "OpenGL on " + display_name_ + ": " + renderer + " (" + version + ")";
    return true;
  }

  void* OpenContextArgument() override { return context_; }
  std::string Description() const override { return description_; }

 private:
  bool OpenDisplay(PFNEGLGETPROCADDRESSPROC get_proc, PFNEGLQUERYSTRINGPROC query_string, int requested,
                   std::string* error) {
    const char* client_extensions = query_string(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(get_proc("eglGetPlatformDisplayEXT"));
    auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(get_proc("eglQueryDevicesEXT"));
    auto query_device_string = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(get_proc("eglQueryDeviceStringEXT"));
    if (!get_platform_display) {
      *error = "EGL lacks eglGetPlatformDisplayEXT: no headless display";
      return false;
    }
    if (HasExtension(client_extensions, "EGL_EXT_platform_device") && query_devices) {
      EGLint count = 0;
      query_devices(0, nullptr, &count);
      std::vector<EGLDeviceEXT> devices(static_cast<std::size_t>(count));
      if (count > 0 && query_devices(count, devices.data(), &count)) {
        int chosen = requested;
        if (chosen < 0) {
          // The first hardware device; Mesa's software device only when nothing else exists.
          chosen = 0;
          for (int i = 0; i < count; ++i) {
            const char* extensions = query_device_string ? query_device_string(devices[i], EGL_EXTENSIONS) : nullptr;
            if (!HasExtension(extensions, "EGL_MESA_device_software")) {
              chosen = i;
              break;
            }
          }
        } else if (chosen >= count) {
          *error = "--device " + std::to_string(chosen) + " is out of range: EGL lists " + std::to_string(count) +
                   " device(s)";
          return false;
        }
        display_ = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[static_cast<std::size_t>(chosen)], nullptr);
        display_name_ = "EGL device " + std::to_string(chosen) + " of " + std::to_string(count);
        if (display_ != EGL_NO_DISPLAY) return true;
      }
    }
    if (requested > 0) {
      *error = "--device " + std::to_string(requested) + ": this EGL cannot enumerate devices";
      return false;
    }
    if (HasExtension(client_extensions, "EGL_MESA_platform_surfaceless")) {
      display_ = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
      display_name_ = "the EGL surfaceless platform";
      if (display_ != EGL_NO_DISPLAY) return true;
    }
    *error = "EGL offers no headless display (neither EGL_EXT_platform_device nor EGL_MESA_platform_surfaceless)";
    return false;
  }

  std::unique_ptr<DynamicLibrary> egl_;
  PFNEGLMAKECURRENTPROC make_current_ = nullptr;
  PFNEGLDESTROYCONTEXTPROC destroy_context_ = nullptr;
  PFNEGLDESTROYSURFACEPROC destroy_surface_ = nullptr;
  PFNEGLTERMINATEPROC terminate_ = nullptr;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  EGLSurface surface_ = EGL_NO_SURFACE;
  std::string display_name_;
  std::string description_;
};

}  // namespace

std::unique_ptr<ApiContext> CreateOpenGlApiContext(const ContextRequest& request, std::string* error) {
  auto egl = DynamicLibrary::Open({"libEGL.so.1", "libEGL.so"}, error);
  if (!egl) {
    *error = "cannot load libEGL: " + *error;
    return nullptr;
  }
  auto context = std::make_unique<EglApiContext>(std::move(egl));
  if (!context->Create(request.device, error)) return nullptr;
  return context;
}

}  // namespace opengpa::cli
