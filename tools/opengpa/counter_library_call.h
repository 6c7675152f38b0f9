// GpaCounterLibOpenCounterContext called with the API as a number (client::ApiNumber), from C: the CLI holds
// opengpa_ext.h's kGpaApiCuda (0x100) as a number, because C++ may not hold a value outside GpaApiType's range
// in the enum (src/client/gpa_library_search.h), while C converts any int to an enum parameter.
#ifndef OPENGPA_TOOLS_OPENGPA_COUNTER_LIBRARY_CALL_H_
#define OPENGPA_TOOLS_OPENGPA_COUNTER_LIBRARY_CALL_H_

#include "gpu_performance_api/gpu_perf_api_counters.h"

#ifdef __cplusplus
extern "C" {
#endif

GpaStatus OpenGpaCliOpenCounterContext(GpaCounterLibOpenCounterContextPtrType open, int api,
                                       GpaCounterContextHardwareInfo info, GpaOpenContextFlags flags,
                                       GpaUInt8 generate_asic_specific_counters, GpaCounterContext* context);

#ifdef __cplusplus
}
#endif

#endif  // OPENGPA_TOOLS_OPENGPA_COUNTER_LIBRARY_CALL_H_
