// Counter-library entry points called from C with an int for each enum argument or field (c_enum_callers.c).
#ifndef OPENGPA_TESTS_COUNTER_LIBRARY_C_ENUM_CALLERS_H_
#define OPENGPA_TESTS_COUNTER_LIBRARY_C_ENUM_CALLERS_H_

#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "gpu_performance_api/opengpa_counters_ext.h"

#ifdef __cplusplus
extern "C" {
#endif

GpaStatus CallCounterLibOpenCounterContext(int api, GpaCounterContextHardwareInfo info, GpaCounterContext* context);
GpaStatus CallCounterLibRegisterLoggingCallback(int types, GpaLoggingCallbackPtrType callback);
// A hardware-counter lookup of event `event` of block number `block`.
GpaStatus CallCounterLibGetIndexOfBlockEvent(GpaCounterContext context, int block, GpaUInt32 event, GpaUInt32* index);

#ifdef __cplusplus
}
#endif

#endif  // OPENGPA_TESTS_COUNTER_LIBRARY_C_ENUM_CALLERS_H_
