// OpenGPA: what libGPUPerfAPICL.so needs from an OpenCL application.
//
// GpaOpenContext takes the application's cl_command_queue itself, cast to void*: GPA's table lists
// "cl_command_queue*", but GPA's own OpenCL library casts the parameter to cl_command_queue, and that is
// what its users pass. The queue must have been created with CL_QUEUE_PROFILING_ENABLE, or
// GpaOpenContext fails with kGpaStatusErrorInvalidParameter and says so; its device must support
// OpenCL 1.2. GPA keeps its own reference to the queue until the context is closed.
//
// Sampling: GpaBeginSession enqueues a marker whose CL_PROFILING_COMMAND_QUEUED time is the session's
// time origin. GpaBeginSample and GpaEndSample each enqueue a marker; their CL_PROFILING_COMMAND_* times
// bracket every command enqueued on the queue between the two calls. On an out-of-order queue
// GpaBeginSample also enqueues a barrier behind its marker, so that the sample's commands start after the
// earlier ones; on an in-order queue the markers order nothing the queue does not already order.
// GpaEndSession flushes the queue. Counters (nanoseconds):
//   GPUTime, ExecutionDuration  end of the end marker - end of the begin marker
//   ExecutionStart / End        end of the begin marker / end marker, since GpaBeginSession
//   QueueToStartLatency         end - queued of the begin marker: waiting behind earlier work
// A driver that reports no device times for the markers (START 0) makes GpaGetSampleResult fail with
// kGpaStatusErrorReadingSampleResult instead of returning made-up times. Every counter is collected in
// one pass. Command lists: pass GPA_NULL_COMMAND_LIST with kGpaCommandListNone. Samples cannot nest.
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_CL_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_CL_H_

#include "gpu_performance_api/gpu_perf_api.h"

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_CL_H_
