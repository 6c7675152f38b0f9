// The exported v3 entry points the v4 table holds as they are: their GPA 4 signatures are v3's, over types both
// header sets lay out alike (GpaCounterParam, GpaCounterInfo, GpaPassCounter, GpaUInt64's 8 bytes). Declared here
// for the v4 side, whose gpu_perf_api_counters.h declares only GpaCounterLibGetVersion and GpaCounterLibGetFuncTable.
#ifndef OPENGPA_COUNTER_LIBRARY_GPA4_V3_ENTRY_POINTS_H_
#define OPENGPA_COUNTER_LIBRARY_GPA4_V3_ENTRY_POINTS_H_

#include "gpu_performance_api/gpu_perf_api_counters.h"  // the v4 set

extern "C" {
GpaStatus GpaCounterLibCloseCounterContext(const GpaCounterContext);
GpaStatus GpaCounterLibGetNumCounters(const GpaCounterContext, GpaUInt32*);
GpaStatus GpaCounterLibGetCounterName(const GpaCounterContext, GpaUInt32, const char**);
GpaStatus GpaCounterLibGetCounterIndex(const GpaCounterContext, const GpaCounterParam*, GpaUInt32*);
GpaStatus GpaCounterLibGetCounterGroup(const GpaCounterContext, GpaUInt32, const char**);
GpaStatus GpaCounterLibGetCounterDescription(const GpaCounterContext, GpaUInt32, const char**);
GpaStatus GpaCounterLibGetCounterDataType(const GpaCounterContext, GpaUInt32, GpaDataType*);
GpaStatus GpaCounterLibGetCounterUsageType(const GpaCounterContext, GpaUInt32, GpaUsageType*);
GpaStatus GpaCounterLibGetCounterInfo(const GpaCounterContext, GpaUInt32, const GpaCounterInfo**);
GpaStatus GpaCounterLibComputeDerivedCounterResult(const GpaCounterContext, GpaUInt32, const GpaUInt64*, GpaUInt32,
                                                   GpaFloat64*);
GpaStatus GpaCounterLibGetPassCount(const GpaCounterContext, const GpaUInt32*, GpaUInt32, GpaUInt32*);
GpaStatus GpaCounterLibGetCountersByPass(const GpaCounterContext, GpaUInt32, const GpaUInt32*, GpaUInt32*, GpaUInt32*,
                                         GpaPassCounter*);
}

#endif  // OPENGPA_COUNTER_LIBRARY_GPA4_V3_ENTRY_POINTS_H_
