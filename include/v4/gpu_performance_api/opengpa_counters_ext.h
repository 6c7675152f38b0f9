// OpenGPA's additions to the offline counter library (libGPUPerfAPICounters.so), outside AMD's table, for v4 clients
// (the same export as the v3 set's opengpa_counters_ext.h declares):
// AMD's counter library has no logging callback, so refusals would be silent; this one receives the same
// messages GpaRegisterLoggingCallback does in the live libraries. Look it up with dlsym.
#ifndef GPU_PERF_API_OPENGPA_COUNTERS_EXT_H_
#define GPU_PERF_API_OPENGPA_COUNTERS_EXT_H_

#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "gpu_performance_api/gpu_perf_api_function_types.h"

/// Registers `callback` for the messages of `logging_type` (kGpaLoggingNone and NULL to stop).
GPU_PERF_API_COUNTERS_DECL GpaStatus OpenGpaCounterLibRegisterLoggingCallback(GpaLoggingType            logging_type,
                                                                             GpaLoggingCallbackPtrType callback);
typedef GpaStatus (*OpenGpaCounterLibRegisterLoggingCallbackPtrType)(GpaLoggingType, GpaLoggingCallbackPtrType);

#endif  // GPU_PERF_API_OPENGPA_COUNTERS_EXT_H_
