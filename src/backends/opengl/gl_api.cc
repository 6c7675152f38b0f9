#include "backends/opengl/gl_api.h"

#include "platform/logging.h"

namespace opengpa::gl {

GpaStatus Api::Load(const CurrentContext& context, Api* out) {
  Api api;
  const char* missing = nullptr;
  auto load = [&](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(context.ProcAddress(name));
    if (function == nullptr && missing == nullptr) missing = name;
  };
  load(api.GetString, "glGetString");
  load(api.GetStringi, "glGetStringi");
  load(api.GetIntegerv, "glGetIntegerv");
  load(api.GetInteger64v, "glGetInteger64v");
  load(api.GenQueries, "glGenQueries");
  load(api.DeleteQueries, "glDeleteQueries");
  load(api.BeginQuery, "glBeginQuery");
  load(api.EndQuery, "glEndQuery");
  load(api.QueryCounter, "glQueryCounter");
  load(api.GetQueryiv, "glGetQueryiv");
  load(api.GetQueryObjectuiv, "glGetQueryObjectuiv");
  load(api.GetQueryObjectui64v, "glGetQueryObjectui64v");
  load(api.Flush, "glFlush");
  load(api.Finish, "glFinish");
  if (missing != nullptr) {
    return LogError(kGpaStatusErrorDriverNotSupported, "GpaOpenContext: {} returned no address for {}",
                    WindowSystemName(context.window_system()), missing);
  }
  *out = api;
  return kGpaStatusOk;
}

}  // namespace opengpa::gl
