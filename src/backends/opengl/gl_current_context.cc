#include "backends/opengl/gl_current_context.h"

#include <array>
#include <utility>

#include "platform/logging.h"

namespace opengpa::gl {
namespace {

struct WindowSystemLibrary {
  WindowSystem system;
  const char* library;
  const char* get_current_context;
  const char* get_proc_address;
};

// libGL.so.1 is listed for applications that link the legacy libGL (it exports the GLX functions).
constexpr std::array<WindowSystemLibrary, 3> kLibraries = {{
    {WindowSystem::kEgl, "libEGL.so.1", "eglGetCurrentContext", "eglGetProcAddress"},
    {WindowSystem::kGlx, "libGLX.so.0", "glXGetCurrentContext", "glXGetProcAddressARB"},
    {WindowSystem::kGlx, "libGL.so.1", "glXGetCurrentContext", "glXGetProcAddressARB"},
}};

}  // namespace

std::string_view WindowSystemName(WindowSystem system) { return system == WindowSystem::kEgl ? "EGL" : "GLX"; }

CurrentContext::CurrentContext(Key, std::unique_ptr<DynamicLibrary> library, WindowSystem system, void* handle,
                               GetCurrentContextFn get_current, GetProcAddressFn get_proc)
    : library_(std::move(library)), system_(system), handle_(handle), get_current_(get_current), get_proc_(get_proc) {}

GpaStatus CurrentContext::Find(void* handle, std::unique_ptr<CurrentContext>* out) {
  std::string current_contexts;
  for (const WindowSystemLibrary& candidate : kLibraries) {
    std::unique_ptr<DynamicLibrary> library = DynamicLibrary::OpenIfLoaded(candidate.library);
    if (library == nullptr) continue;
    auto get_current = library->Get<GetCurrentContextFn>(candidate.get_current_context);
    auto get_proc = library->Get<GetProcAddressFn>(candidate.get_proc_address);
    void* current = get_current != nullptr ? get_current() : nullptr;
    if (current == handle && get_proc != nullptr) {
      *out =
          std::make_unique<CurrentContext>(Key(), std::move(library), candidate.system, handle, get_current, get_proc);
      Log(kGpaLoggingMessage, "OpenGL: context {} is current through {} ({})", handle,
          WindowSystemName(candidate.system), candidate.library);
      return kGpaStatusOk;
    }
    current_contexts += fmt::format(" {}: {};", candidate.library, current);
  }
  if (current_contexts.empty()) current_contexts = " neither libEGL.so.1 nor libGLX.so.0/libGL.so.1 is loaded;";
  return LogError(kGpaStatusErrorFailed,
                  "GpaOpenContext: context {} is not the GL context current on this thread (current contexts:{} "
                  "make the EGLContext or GLXContext current before GpaOpenContext)",
                  handle, current_contexts);
}

bool CurrentContext::IsCurrent() const { return get_current_() == handle_; }

GpaStatus CurrentContext::RequireCurrent(std::string_view operation) const {
  if (IsCurrent()) return kGpaStatusOk;
  return LogError(kGpaStatusErrorFailed, "{}: GL context {} is not current on this thread ({} current context: {})",
                  operation, handle_, WindowSystemName(system_), get_current_());
}

void* CurrentContext::ProcAddress(const char* name) const { return get_proc_(name); }

}  // namespace opengpa::gl
