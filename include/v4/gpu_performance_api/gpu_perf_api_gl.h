// OpenGPA: what libGPUPerfAPIGL.so needs from an OpenGL application.
//
// GpaOpenContext takes the application's GL context handle: an EGLContext or a GLXContext (GPA documents
// GLXContext on Linux; EGL is how headless and modern Linux applications get a context). The context
// must be current on the thread calling GpaOpenContext: OpenGPA compares the value with
// eglGetCurrentContext() and then glXGetCurrentContext() and resolves GL functions through
// eglGetProcAddress / glXGetProcAddressARB of the library that made it current. libGPUPerfAPIGL.so links
// neither libGL nor libEGL. Every later GPA call that touches GL (GpaBeginSession, GpaBeginSample,
// GpaEndSample, GpaEndSession, GpaIsPassComplete, GpaGetSampleResult) must also be made with that context
// current, or it fails with kGpaStatusErrorFailed and a log message naming the context.
//
// Desktop OpenGL 3.3 (or GL_ARB_timer_query) gives GPUTime; GL 4.6 (or GL_ARB_pipeline_statistics_query)
// gives the pipeline statistics. OpenGL ES contexts are refused (kGpaStatusErrorDriverNotSupported).
//
// Sampling, per sample:
//   - GPUTime comes from two glQueryCounter(GL_TIMESTAMP) queries, never from GL_TIME_ELAPSED, so an
//     application's own GL_TIME_ELAPSED query may be active across, inside or around GPA samples;
//   - each enabled pipeline statistic (GL_VERTICES_SUBMITTED ... GL_COMPUTE_SHADER_INVOCATIONS) and
//     GL_SAMPLES_PASSED is a glBeginQuery/glEndQuery pair on its target. GL allows one active query per
//     target: if the application has a query active on a target an enabled counter needs (for
//     GL_SAMPLES_PASSED also GL_ANY_SAMPLES_PASSED[_CONSERVATIVE]), GpaBeginSample fails with
//     kGpaStatusErrorFailed and logs the target and the application's query; GPA never ends or restarts an
//     application's query. If the application ends GPA's query inside a sample, GpaEndSample logs it and
//     GpaGetSampleResult reports kGpaStatusErrorReadingSampleResult.
// Every counter is collected in one pass. Command lists: pass GPA_NULL_COMMAND_LIST with
// kGpaCommandListNone. Samples cannot nest.
//
// GL_AMD_performance_monitor and GL_INTEL_performance_query are detected and logged, but their counters
// are not exposed yet (no driver OpenGPA is tested on offers them).
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_GL_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_GL_H_

#include "gpu_performance_api/gpu_perf_api.h"

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_GL_H_
