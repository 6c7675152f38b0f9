// The GPA v3 entry points in GpaFunctionTable order, as an X-macro list: define GPA_FUNCTION_PREFIX(name)
// before including it. The order is GPA v3.17's, slot for slot (tests/abi pins every offset): a client built
// against AMD's headers calls through these slots. Appending at the end is the only compatible change
// (the table's minor version is its size).
#ifndef GPA_FUNCTION_PREFIX
#define GPA_FUNCTION_PREFIX(f)                ///< Expands to nothing when the includer defined no macro.
#define NEED_TO_UNDEFINE_GPA_FUNCTION_PREFIX  ///< Set when the placeholder above is to be removed at the end.
#endif

// GPA API table.
GPA_FUNCTION_PREFIX(GpaGetFuncTable)

// Logging.
GPA_FUNCTION_PREFIX(GpaRegisterLoggingCallback)

// Initialize / destroy.
GPA_FUNCTION_PREFIX(GpaInitialize)
GPA_FUNCTION_PREFIX(GpaDestroy)

// Context start / finish.
GPA_FUNCTION_PREFIX(GpaOpenContext)
GPA_FUNCTION_PREFIX(GpaCloseContext)

// Context interrogation.
GPA_FUNCTION_PREFIX(GpaGetSupportedSampleTypes)
GPA_FUNCTION_PREFIX(GpaGetDeviceAndRevisionId)
GPA_FUNCTION_PREFIX(GpaGetDeviceName)

// Counter interrogation.
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

// Sessions.
GPA_FUNCTION_PREFIX(GpaCreateSession)
GPA_FUNCTION_PREFIX(GpaDeleteSession)
GPA_FUNCTION_PREFIX(GpaBeginSession)
GPA_FUNCTION_PREFIX(GpaEndSession)

// Counter scheduling.
GPA_FUNCTION_PREFIX(GpaEnableCounter)
GPA_FUNCTION_PREFIX(GpaDisableCounter)
GPA_FUNCTION_PREFIX(GpaEnableCounterByName)
GPA_FUNCTION_PREFIX(GpaDisableCounterByName)
GPA_FUNCTION_PREFIX(GpaEnableAllCounters)
GPA_FUNCTION_PREFIX(GpaDisableAllCounters)

// Query counter scheduling.
GPA_FUNCTION_PREFIX(GpaGetPassCount)
GPA_FUNCTION_PREFIX(GpaGetNumEnabledCounters)
GPA_FUNCTION_PREFIX(GpaGetEnabledIndex)
GPA_FUNCTION_PREFIX(GpaIsCounterEnabled)

// Sample handling.
GPA_FUNCTION_PREFIX(GpaBeginCommandList)
GPA_FUNCTION_PREFIX(GpaEndCommandList)
GPA_FUNCTION_PREFIX(GpaBeginSample)
GPA_FUNCTION_PREFIX(GpaEndSample)
GPA_FUNCTION_PREFIX(GpaContinueSampleOnCommandList)
GPA_FUNCTION_PREFIX(GpaCopySecondarySamples)
GPA_FUNCTION_PREFIX(GpaGetSampleCount)

// Query results.
GPA_FUNCTION_PREFIX(GpaIsPassComplete)
GPA_FUNCTION_PREFIX(GpaIsSessionComplete)
GPA_FUNCTION_PREFIX(GpaGetSampleResultSize)
GPA_FUNCTION_PREFIX(GpaGetSampleResult)

// Status / error query.
GPA_FUNCTION_PREFIX(GpaGetStatusAsStr)

// Added after the first v3 table, in this order.
GPA_FUNCTION_PREFIX(GpaGetSampleId)
GPA_FUNCTION_PREFIX(GpaGetVersion)
GPA_FUNCTION_PREFIX(GpaGetDeviceGeneration)

#ifdef NEED_TO_UNDEFINE_GPA_FUNCTION_PREFIX
#undef GPA_FUNCTION_PREFIX
#undef NEED_TO_UNDEFINE_GPA_FUNCTION_PREFIX
#endif
