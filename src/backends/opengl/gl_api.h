// The GL entry points the backend calls, resolved through the window system of the application's context
// (never linked: libGPUPerfAPIGL.so does not depend on libGL/libOpenGL).
#ifndef OPENGPA_BACKENDS_OPENGL_GL_API_H_
#define OPENGPA_BACKENDS_OPENGL_GL_API_H_

#include <GL/glcorearb.h>

#include "backends/opengl/gl_current_context.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa::gl {

struct Api {
  PFNGLGETSTRINGPROC GetString = nullptr;
  PFNGLGETSTRINGIPROC GetStringi = nullptr;
  PFNGLGETINTEGERVPROC GetIntegerv = nullptr;
  PFNGLGETINTEGER64VPROC GetInteger64v = nullptr;
  PFNGLGENQUERIESPROC GenQueries = nullptr;
  PFNGLDELETEQUERIESPROC DeleteQueries = nullptr;
  PFNGLBEGINQUERYPROC BeginQuery = nullptr;
  PFNGLENDQUERYPROC EndQuery = nullptr;
  PFNGLQUERYCOUNTERPROC QueryCounter = nullptr;
  PFNGLGETQUERYIVPROC GetQueryiv = nullptr;
  PFNGLGETQUERYOBJECTUIVPROC GetQueryObjectuiv = nullptr;
  PFNGLGETQUERYOBJECTUI64VPROC GetQueryObjectui64v = nullptr;
  PFNGLFLUSHPROC Flush = nullptr;
  PFNGLFINISHPROC Finish = nullptr;

  // kGpaStatusErrorDriverNotSupported (logged, naming the function) when one is missing.
  static GpaStatus Load(const CurrentContext& context, Api* out);
};

}  // namespace opengpa::gl

#endif  // OPENGPA_BACKENDS_OPENGL_GL_API_H_
