// Pointer types for every GPA v3 entry point (what GpaFunctionTable holds), as GPA v3.17 declares them.
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_FUNCTION_TYPES_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_FUNCTION_TYPES_H_

#include "gpu_performance_api/gpu_perf_api_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The logging callback GpaRegisterLoggingCallback takes. Messages end with '.' and carry no newline.
typedef void (*GpaLoggingCallbackPtrType)(GpaLoggingType message_type, const char* message);

// GPA API table.
typedef GpaStatus (*GpaGetFuncTablePtrType)(void*);

// Logging.
typedef GpaStatus (*GpaRegisterLoggingCallbackPtrType)(GpaLoggingType, GpaLoggingCallbackPtrType);

// Initialize / destroy.
typedef GpaStatus (*GpaInitializePtrType)(GpaInitializeFlags);
typedef GpaStatus (*GpaDestroyPtrType)(void);

// Context start / finish and interrogation.
typedef GpaStatus (*GpaOpenContextPtrType)(void*, GpaOpenContextFlags, GpaContextId*);
typedef GpaStatus (*GpaCloseContextPtrType)(GpaContextId);
typedef GpaStatus (*GpaGetSupportedSampleTypesPtrType)(GpaContextId, GpaContextSampleTypeFlags*);
typedef GpaStatus (*GpaGetDeviceAndRevisionIdPtrType)(GpaContextId, GpaUInt32*, GpaUInt32*);
typedef GpaStatus (*GpaGetDeviceNamePtrType)(GpaContextId, const char**);
typedef GpaStatus (*GpaGetDeviceGenerationPtrType)(GpaContextId, GpaHwGeneration*);

// Counter interrogation.
typedef GpaStatus (*GpaGetNumCountersPtrType)(GpaContextId, GpaUInt32*);
typedef GpaStatus (*GpaGetCounterNamePtrType)(GpaContextId, GpaUInt32, const char**);
typedef GpaStatus (*GpaGetCounterIndexPtrType)(GpaContextId, const char*, GpaUInt32*);
typedef GpaStatus (*GpaGetCounterGroupPtrType)(GpaContextId, GpaUInt32, const char**);
typedef GpaStatus (*GpaGetCounterDescriptionPtrType)(GpaContextId, GpaUInt32, const char**);
typedef GpaStatus (*GpaGetCounterDataTypePtrType)(GpaContextId, GpaUInt32, GpaDataType*);
typedef GpaStatus (*GpaGetCounterUsageTypePtrType)(GpaContextId, GpaUInt32, GpaUsageType*);
typedef GpaStatus (*GpaGetCounterUuidPtrType)(GpaContextId, GpaUInt32, GpaUuid*);
typedef GpaStatus (*GpaGetCounterSampleTypePtrType)(GpaContextId, GpaUInt32, GpaCounterSampleType*);
typedef GpaStatus (*GpaGetDataTypeAsStrPtrType)(GpaDataType, const char**);
typedef GpaStatus (*GpaGetUsageTypeAsStrPtrType)(GpaUsageType, const char**);

// Sessions.
typedef GpaStatus (*GpaCreateSessionPtrType)(GpaContextId, GpaSessionSampleType, GpaSessionId*);
typedef GpaStatus (*GpaDeleteSessionPtrType)(GpaSessionId);
typedef GpaStatus (*GpaBeginSessionPtrType)(GpaSessionId);
typedef GpaStatus (*GpaEndSessionPtrType)(GpaSessionId);

// Counter scheduling.
typedef GpaStatus (*GpaEnableCounterPtrType)(GpaSessionId, GpaUInt32);
typedef GpaStatus (*GpaDisableCounterPtrType)(GpaSessionId, GpaUInt32);
typedef GpaStatus (*GpaEnableCounterByNamePtrType)(GpaSessionId, const char*);
typedef GpaStatus (*GpaDisableCounterByNamePtrType)(GpaSessionId, const char*);
typedef GpaStatus (*GpaEnableAllCountersPtrType)(GpaSessionId);
typedef GpaStatus (*GpaDisableAllCountersPtrType)(GpaSessionId);

// Query counter scheduling.
typedef GpaStatus (*GpaGetPassCountPtrType)(GpaSessionId, GpaUInt32*);
typedef GpaStatus (*GpaGetNumEnabledCountersPtrType)(GpaSessionId, GpaUInt32*);
typedef GpaStatus (*GpaGetEnabledIndexPtrType)(GpaSessionId, GpaUInt32, GpaUInt32*);
typedef GpaStatus (*GpaIsCounterEnabledPtrType)(GpaSessionId, GpaUInt32);

// Sample handling.
typedef GpaStatus (*GpaBeginCommandListPtrType)(GpaSessionId, GpaUInt32, void*, GpaCommandListType, GpaCommandListId*);
typedef GpaStatus (*GpaEndCommandListPtrType)(GpaCommandListId);
typedef GpaStatus (*GpaBeginSamplePtrType)(GpaUInt32, GpaCommandListId);
typedef GpaStatus (*GpaEndSamplePtrType)(GpaCommandListId);
typedef GpaStatus (*GpaContinueSampleOnCommandListPtrType)(GpaUInt32, GpaCommandListId);
typedef GpaStatus (*GpaCopySecondarySamplesPtrType)(GpaCommandListId, GpaCommandListId, GpaUInt32, GpaUInt32*);
typedef GpaStatus (*GpaGetSampleCountPtrType)(GpaSessionId, GpaUInt32*);
typedef GpaStatus (*GpaGetSampleIdPtrType)(GpaSessionId, GpaUInt32, GpaUInt32*);

// Query results.
typedef GpaStatus (*GpaIsPassCompletePtrType)(GpaSessionId, GpaUInt32);
typedef GpaStatus (*GpaIsSessionCompletePtrType)(GpaSessionId);
typedef GpaStatus (*GpaGetSampleResultSizePtrType)(GpaSessionId, GpaUInt32, size_t*);
typedef GpaStatus (*GpaGetSampleResultPtrType)(GpaSessionId, GpaUInt32, size_t, void*);

// Status / error query.
typedef const char* (*GpaGetStatusAsStrPtrType)(GpaStatus);

// Version.
typedef GpaStatus (*GpaGetVersionPtrType)(GpaUInt32*, GpaUInt32*, GpaUInt32*, GpaUInt32*);

#ifdef __cplusplus
}
#endif

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_FUNCTION_TYPES_H_
