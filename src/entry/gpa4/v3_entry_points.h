// The v3 entry points the v4 table reuses or wraps, declared for the v4 side (whose headers declare no
// prototypes). Each uses only types the v3 and v4 header sets define alike; libGPUPerfAPI<X>.so exports them.
#ifndef OPENGPA_ENTRY_GPA4_V3_ENTRY_POINTS_H_
#define OPENGPA_ENTRY_GPA4_V3_ENTRY_POINTS_H_

#include "gpu_performance_api/gpu_perf_api.h"  // the v4 set

extern "C" {
// The same in v3 and v4: they fill the v4 table as they are.
GpaStatus GpaGetFuncTable(void*);
GpaStatus GpaRegisterLoggingCallback(GpaLoggingType, GpaLoggingCallbackPtrType);
GpaStatus GpaDestroy(void);
GpaStatus GpaCloseContext(GpaContextId);
GpaStatus GpaGetDeviceAndRevisionId(GpaContextId, GpaUInt32*, GpaUInt32*);
GpaStatus GpaGetDeviceName(GpaContextId, const char**);
GpaStatus GpaGetDeviceGeneration(GpaContextId, GpaHwGeneration*);
GpaStatus GpaGetDataTypeAsStr(GpaDataType, const char**);
GpaStatus GpaGetUsageTypeAsStr(GpaUsageType, const char**);
GpaStatus GpaDeleteSession(GpaSessionId);
GpaStatus GpaBeginSession(GpaSessionId);
GpaStatus GpaEndSession(GpaSessionId);
GpaStatus GpaEnableCounter(GpaSessionId, GpaUInt32);
GpaStatus GpaDisableCounter(GpaSessionId, GpaUInt32);
GpaStatus GpaEnableCounterByName(GpaSessionId, const char*);
GpaStatus GpaDisableCounterByName(GpaSessionId, const char*);
GpaStatus GpaEnableAllCounters(GpaSessionId);
GpaStatus GpaDisableAllCounters(GpaSessionId);
GpaStatus GpaGetPassCount(GpaSessionId, GpaUInt32*);
GpaStatus GpaGetNumEnabledCounters(GpaSessionId, GpaUInt32*);
GpaStatus GpaGetEnabledIndex(GpaSessionId, GpaUInt32, GpaUInt32*);
GpaStatus GpaIsCounterEnabled(GpaSessionId, GpaUInt32);
GpaStatus GpaBeginCommandList(GpaSessionId, GpaUInt32, void*, GpaCommandListType, GpaCommandListId*);
GpaStatus GpaEndCommandList(GpaCommandListId);
GpaStatus GpaBeginSample(GpaUInt32, GpaCommandListId);
GpaStatus GpaEndSample(GpaCommandListId);
GpaStatus GpaContinueSampleOnCommandList(GpaUInt32, GpaCommandListId);
GpaStatus GpaCopySecondarySamples(GpaCommandListId, GpaCommandListId, GpaUInt32, GpaUInt32*);
GpaStatus GpaGetSampleCount(GpaSessionId, GpaUInt32*);
GpaStatus GpaIsPassComplete(GpaSessionId, GpaUInt32);
GpaStatus GpaIsSessionComplete(GpaSessionId);
GpaStatus GpaGetSampleResultSize(GpaSessionId, GpaUInt32, size_t*);
GpaStatus GpaGetSampleResult(GpaSessionId, GpaUInt32, size_t, void*);
const char* GpaGetStatusAsStr(GpaStatus);
GpaStatus GpaGetSampleId(GpaSessionId, GpaUInt32, GpaUInt32*);
GpaStatus GpaGetVersion(GpaUInt32*, GpaUInt32*, GpaUInt32*, GpaUInt32*);

// v3 entry points the v4 ones wrap (flag values, sample-type bits or the handle their counter queries take differ).
GpaStatus GpaInitialize(GpaInitializeFlags);
GpaStatus GpaOpenContext(void*, GpaOpenContextFlags, GpaContextId*);
GpaStatus GpaGetSupportedSampleTypes(GpaContextId, GpaContextSampleTypeFlags*);
GpaStatus GpaGetNumCounters(GpaContextId, GpaUInt32*);
GpaStatus GpaGetCounterName(GpaContextId, GpaUInt32, const char**);
GpaStatus GpaGetCounterIndex(GpaContextId, const char*, GpaUInt32*);
GpaStatus GpaGetCounterGroup(GpaContextId, GpaUInt32, const char**);
GpaStatus GpaGetCounterDescription(GpaContextId, GpaUInt32, const char**);
GpaStatus GpaGetCounterDataType(GpaContextId, GpaUInt32, GpaDataType*);
GpaStatus GpaGetCounterUsageType(GpaContextId, GpaUInt32, GpaUsageType*);
}

#endif  // OPENGPA_ENTRY_GPA4_V3_ENTRY_POINTS_H_
