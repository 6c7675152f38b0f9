// OpenGPA: what libGPUPerfAPICL.so needs from an OpenCL application.
//
// GpaOpenContext takes the application's cl_command_queue itself, cast to void*: GPA's table lists
// "cl_command_queue*", but GPA's own OpenCL library casts the parameter to cl_command_queue, and that is
// what its users pass. The queue must have been created with CL_QUEUE_PROFILING_ENABLE, or
// GpaOpenContext fails with kGpaStatusErrorInvalidParameter and says so; its device must support
// OpenCL 1.2. GPA keeps its own reference to the queue until the context is closed.
//
// Sampling: GpaBeginSession enqueues a marker whose CL_PROFILING_COMMAND_QUEUED time is the session's
// time origin. GpaBeginSample enqueues a barrier, GpaEndSample a marker; their CL_PROFILING_COMMAND_*
// times bracket every command enqueued on the queue between the two calls (in-order and out-of-order
// queues). GpaEndSession flushes the queue. Counters (nanoseconds):
//   GPUTime, ExecutionDuration  end of the end marker - end of the begin barrier
//   ExecutionStart / End        end of the begin barrier / end marker, since GpaBeginSession
//   QueueToStartLatency         start - queued of the begin barrier: waiting behind earlier work
// The barrier and marker are real commands in the application's queue (they order nothing an in-order
// queue does not already order; in an out-of-order queue the barrier keeps the sample's commands after the
// earlier ones). Every counter is collected in one pass. Command lists: pass GPA_NULL_COMMAND_LIST with
// kGpaCommandListNone. Samples cannot nest.
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_CL_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_CL_H_

#include "gpu_performance_api/gpu_perf_api.h"

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_CL_H_
