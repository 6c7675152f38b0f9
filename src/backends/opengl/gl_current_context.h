// Which window system owns the GL context the application handed to GpaOpenContext, and the two things
// the backend needs from it: "is that context still current on this thread?" and GL entry points.
//
// The handle is an EGLContext or a GLXContext. It is compared with eglGetCurrentContext() and then
// glXGetCurrentContext(); GL functions come from eglGetProcAddress / glXGetProcAddressARB. libEGL and
// libGLX are only looked up if the application already loaded them (RTLD_NOLOAD): a context can only be
// current through a library that is loaded, and libGPUPerfAPIGL.so links neither.
#ifndef OPENGPA_BACKENDS_OPENGL_GL_CURRENT_CONTEXT_H_
#define OPENGPA_BACKENDS_OPENGL_GL_CURRENT_CONTEXT_H_

#include <memory>
#include <string_view>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "platform/dynamic_library.h"

namespace opengpa::gl {

enum class WindowSystem { kEgl, kGlx };

std::string_view WindowSystemName(WindowSystem system);

class CurrentContext {
 public:
  // kGpaStatusErrorFailed (logged, naming the handle and what is current) when `handle` is not the
  // context current on the calling thread through EGL or GLX.
  static GpaStatus Find(void* handle, std::unique_ptr<CurrentContext>* out);

  struct Key {  // only Find() constructs one
   private:
    Key() = default;
    friend class CurrentContext;
  };
  using GetCurrentContextFn = void* (*)();
  using GetProcAddressFn = void* (*)(const char*);
  CurrentContext(Key, std::unique_ptr<DynamicLibrary> library, WindowSystem system, void* handle,
                 GetCurrentContextFn get_current, GetProcAddressFn get_proc);
  CurrentContext(const CurrentContext&) = delete;
  CurrentContext& operator=(const CurrentContext&) = delete;

  // GL commands only reach this context from a thread where it is current.
  bool IsCurrent() const;
  // Logs and returns kGpaStatusErrorFailed when not current; `operation` names the GPA call.
  GpaStatus RequireCurrent(std::string_view operation) const;

  void* ProcAddress(const char* name) const;
  WindowSystem window_system() const { return system_; }
  void* handle() const { return handle_; }

 private:
  std::unique_ptr<DynamicLibrary> library_;  // the window system library, kept loaded while the context is used
  WindowSystem system_;
  void* handle_;
  GetCurrentContextFn get_current_;
  GetProcAddressFn get_proc_;
};

}  // namespace opengpa::gl

#endif  // OPENGPA_BACKENDS_OPENGL_GL_CURRENT_CONTEXT_H_
