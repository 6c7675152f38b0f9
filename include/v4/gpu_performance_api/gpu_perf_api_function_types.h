// Pointer types for every GPA v4 entry point (what GpaFunctionTable holds), as GPA 4.3 declares them.
// Counter queries take a session in v4: a session's sample type decides which counters it offers.
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
typedef GpaStatus (*GpaUpdateDeviceInformationPtrType)(GpaContextId, GpaUInt32, GpaUInt32, GpaUInt32, GpaUInt32);
typedef GpaStatus (*GpaGetDeviceMaxWaveSlotsPtrType)(GpaContextId, GpaUInt32*);
typedef GpaStatus (*GpaGetDeviceMaxVgprsPtrType)(GpaContextId, GpaUInt32*);
typedef GpaStatus (*GpaGetDeviceMaxLdsBytesPtrType)(GpaContextId, GpaUInt32*);

// Counter interrogation.
typedef GpaStatus (*GpaGetNumCountersPtrType)(GpaSessionId, GpaUInt32*);
typedef GpaStatus (*GpaGetCounterNamePtrType)(GpaSessionId, GpaUInt32, const char**);
typedef GpaStatus (*GpaGetCounterIndexPtrType)(GpaSessionId, const char*, GpaUInt32*);
typedef GpaStatus (*GpaGetCounterGroupPtrType)(GpaSessionId, GpaUInt32, const char**);
typedef GpaStatus (*GpaGetCounterDescriptionPtrType)(GpaSessionId, GpaUInt32, const char**);
typedef GpaStatus (*GpaGetCounterDataTypePtrType)(GpaSessionId, GpaUInt32, GpaDataType*);
typedef GpaStatus (*GpaGetCounterUsageTypePtrType)(GpaSessionId, GpaUInt32, GpaUsageType*);
typedef GpaStatus (*GpaGetCounterUuidPtrType)(GpaSessionId, GpaUInt32, GpaUuid*);
typedef GpaStatus (*GpaGetCounterSampleTypePtrType)(GpaSessionId, GpaUInt32, GpaCounterSampleType*);
typedef GpaStatus (*GpaGetDataTypeAsStrPtrType)(GpaDataType, const char**);
typedef GpaStatus (*GpaGetUsageTypeAsStrPtrType)(GpaUsageType, const char**);

// Sessions.
typedef GpaStatus (*GpaCreateSessionPtrType)(GpaContextId, GpaSessionSampleType, GpaSessionId*);
typedef GpaStatus (*GpaDeleteSessionPtrType)(GpaSessionId);
typedef GpaStatus (*GpaBeginSessionPtrType)(GpaSessionId);
typedef GpaStatus (*GpaEndSessionPtrType)(GpaSessionId);
typedef GpaStatus (*GpaResetSessionPtrType)(GpaSessionId);
typedef GpaStatus (*GpaAbortSessionPtrType)(GpaSessionId);

// SQTT (shader instruction traces).
typedef GpaStatus (*GpaSqttGetInstructionMaskPtrType)(GpaSessionId, GpaSqttInstructionFlags*);
typedef GpaStatus (*GpaSqttSetInstructionMaskPtrType)(GpaSessionId, GpaSqttInstructionFlags);
typedef GpaStatus (*GpaSqttGetComputeUnitIdPtrType)(GpaSessionId, GpaUInt32*);
typedef GpaStatus (*GpaSqttSetComputeUnitIdPtrType)(GpaSessionId, GpaUInt32);
typedef GpaStatus (*GpaSqttBeginPtrType)(GpaSessionId, void*);
typedef GpaStatus (*GpaSqttEndPtrType)(GpaSessionId, void*);
typedef GpaStatus (*GpaSqttGetSampleResultSizePtrType)(GpaSessionId, size_t*);
typedef GpaStatus (*GpaSqttGetSampleResultPtrType)(GpaSessionId, size_t, void*);

// SPM (streaming performance monitor: counters sampled over time).
typedef GpaStatus (*GpaSpmSetSampleIntervalPtrType)(GpaSessionId, GpaUInt32);
typedef GpaStatus (*GpaSpmSetDurationPtrType)(GpaSessionId, GpaUInt32);
typedef GpaStatus (*GpaSpmBeginPtrType)(GpaSessionId, void*);
typedef GpaStatus (*GpaSpmEndPtrType)(GpaSessionId, void*);
typedef GpaStatus (*GpaSpmGetSampleResultSizePtrType)(GpaSessionId, size_t*);
typedef GpaStatus (*GpaSpmGetSampleResultPtrType)(GpaSessionId, size_t, void*);
typedef GpaStatus (*GpaSpmCalculateDerivedCountersPtrType)(GpaSessionId, GpaSpmData*, GpaUInt32, GpaUInt64*);

// SQTT and SPM together.
typedef GpaStatus (*GpaSqttSpmBeginPtrType)(GpaSessionId, void*);
typedef GpaStatus (*GpaSqttSpmEndPtrType)(GpaSessionId, void*);

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
