// The GPA v3 entry points in function-table order. Include with GPA_FUNCTION_PREFIX defined;
// appending at the end is the only compatible change (the table's minor version is its size).
#ifndef GPA_FUNCTION_PREFIX
#error "define GPA_FUNCTION_PREFIX(name) before including gpu_perf_api_functions.h"
#endif

// Version
GPA_FUNCTION_PREFIX(GpaGetVersion)
GPA_FUNCTION_PREFIX(GpaGetFuncTable)

// Logging
GPA_FUNCTION_PREFIX(GpaRegisterLoggingCallback)

// Init / destroy
GPA_FUNCTION_PREFIX(GpaInitialize)
GPA_FUNCTION_PREFIX(GpaDestroy)

// Context
GPA_FUNCTION_PREFIX(GpaOpenContext)
GPA_FUNCTION_PREFIX(GpaCloseContext)
GPA_FUNCTION_PREFIX(GpaGetSupportedSampleTypes)
GPA_FUNCTION_PREFIX(GpaGetDeviceAndRevisionId)
GPA_FUNCTION_PREFIX(GpaGetDeviceName)
GPA_FUNCTION_PREFIX(GpaGetDeviceGeneration)

// Counter interrogation
GPA_FUNCTION_PREFIX(GpaGetNumCounters)
GPA_FUNCTION_PREFIX(GpaGetCounterName)
GPA_FUNCTION_PREFIX(GpaGetCounterIndex)
GPA_FUNCTION_PREFIX(GpaGetCounterGroup)
GPA_FUNCTION_PREFIX(GpaGetCounterDescription)
GPA_FUNCTION_PREFIX(GpaGetCounterDataType)
GPA_FUNCTION_PREFIX(GpaGetCounterUsageType)
GPA_FUNCTION_PREFIX(GpaGetCounterUuid)
GPA_FUNCTION_PREFIX(GpaGetCounterSampleType)
GPA_FUNCTION_PREFIX(GpaGetDataTypeAsStr)
GPA_FUNCTION_PREFIX(GpaGetUsageTypeAsStr)

// Session
GPA_FUNCTION_PREFIX(GpaCreateSession)
GPA_FUNCTION_PREFIX(GpaDeleteSession)
GPA_FUNCTION_PREFIX(GpaBeginSession)
GPA_FUNCTION_PREFIX(GpaEndSession)

// Counter scheduling
GPA_FUNCTION_PREFIX(GpaEnableCounter)
GPA_FUNCTION_PREFIX(GpaDisableCounter)
GPA_FUNCTION_PREFIX(GpaEnableCounterByName)
GPA_FUNCTION_PREFIX(GpaDisableCounterByName)
GPA_FUNCTION_PREFIX(GpaEnableAllCounters)
GPA_FUNCTION_PREFIX(GpaDisableAllCounters)

// Query counter schedule
GPA_FUNCTION_PREFIX(GpaGetPassCount)
GPA_FUNCTION_PREFIX(GpaGetNumEnabledCounters)
GPA_FUNCTION_PREFIX(GpaGetEnabledIndex)
GPA_FUNCTION_PREFIX(GpaIsCounterEnabled)

// Sample handling
GPA_FUNCTION_PREFIX(GpaBeginCommandList)
GPA_FUNCTION_PREFIX(GpaEndCommandList)
GPA_FUNCTION_PREFIX(GpaBeginSample)
GPA_FUNCTION_PREFIX(GpaEndSample)
GPA_FUNCTION_PREFIX(GpaContinueSampleOnCommandList)
GPA_FUNCTION_PREFIX(GpaCopySecondarySamples)
GPA_FUNCTION_PREFIX(GpaGetSampleCount)
GPA_FUNCTION_PREFIX(GpaGetSampleId)

// Query results
GPA_FUNCTION_PREFIX(GpaIsPassComplete)
GPA_FUNCTION_PREFIX(GpaIsSessionComplete)
GPA_FUNCTION_PREFIX(GpaGetSampleResultSize)
GPA_FUNCTION_PREFIX(GpaGetSampleResult)

// Status / error
GPA_FUNCTION_PREFIX(GpaGetStatusAsStr)
