// OpenGPA: the GPU Performance API v3 entry points (exported by libGPUPerfAPI{VK,GL,CL,CUDA}.so).
//
// The table, the prototypes and every type are GPA v3.17's (see gpu_perf_api_types.h): a client compiled
// against AMD's headers calls these libraries through the same slots with the same values. See
// docs/api-status.md for each function's statuses; every error is also logged through the callback
// registered with GpaRegisterLoggingCallback.
//
// Defining DISABLE_GPA to 1 before including this header replaces every entry point with an inline stub
// that does nothing and returns kGpaStatusOk (gpu_perf_api_stub.h), so that a program builds and runs
// with GPA compiled out.
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_H_

#include <stddef.h>

#if DISABLE_GPA
#define USE_GPA 0  ///< 0: the entry points are gpu_perf_api_stub.h's inline stubs.
#else
#define USE_GPA 1  ///< 1: the entry points are the library's.
#endif

#include "gpu_performance_api/gpu_perf_api_function_types.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

/// Version of the function table (GpaFunctionTable::major_version).
#define GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER 3
/// GpaFunctionTable::minor_version: the size of the table the caller was built with.
#define GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER (sizeof(struct _GpaFunctionTable))

/// Every entry point, as stored in the table GpaGetFuncTable fills.
typedef struct _GpaFunctionTable
{
    GpaUInt32 major_version;  ///< GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER
    GpaUInt32 minor_version;  ///< GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER: sizeof the caller's table

#define GPA_FUNCTION_PREFIX(func) func##PtrType func;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX

#ifdef __cplusplus
    /// In C++ a table starts with this header's versions and no entry points, ready for GpaGetFuncTable.
    /// C code sets major_version and minor_version itself.
    _GpaFunctionTable()
    {
        major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
        minor_version = static_cast<GpaUInt32>(GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER);
#define GPA_FUNCTION_PREFIX(func) func = nullptr;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX
    }
#endif
} GpaFunctionTable;

/// Size of a table holding only the entry points before `func` (what an older client would pass).
#define GPA_FUNCTION_TABLE_SIZE_UP_TO(func) offsetof(GpaFunctionTable, func)

#if USE_GPA
#ifndef GPA_NO_PROTOTYPES
#ifdef __cplusplus
extern "C" {
#endif

GPA_LIB_DECL GpaStatus GpaGetVersion(GpaUInt32* major_version, GpaUInt32* minor_version, GpaUInt32* build_version,
                                     GpaUInt32* update_version);
GPA_LIB_DECL GpaStatus GpaGetFuncTable(void* gpa_func_table);
GPA_LIB_DECL GpaStatus GpaRegisterLoggingCallback(GpaLoggingType logging_type, GpaLoggingCallbackPtrType callback_func_ptr);
GPA_LIB_DECL GpaStatus GpaInitialize(GpaInitializeFlags flags);
GPA_LIB_DECL GpaStatus GpaDestroy(void);

GPA_LIB_DECL GpaStatus GpaOpenContext(void* context, GpaOpenContextFlags flags, GpaContextId* context_id);
GPA_LIB_DECL GpaStatus GpaCloseContext(GpaContextId context_id);
GPA_LIB_DECL GpaStatus GpaGetSupportedSampleTypes(GpaContextId context_id, GpaContextSampleTypeFlags* sample_types);
GPA_LIB_DECL GpaStatus GpaGetDeviceAndRevisionId(GpaContextId context_id, GpaUInt32* device_id, GpaUInt32* revision_id);
GPA_LIB_DECL GpaStatus GpaGetDeviceName(GpaContextId context_id, const char** device_name);
GPA_LIB_DECL GpaStatus GpaGetDeviceGeneration(GpaContextId context_id, GpaHwGeneration* hardware_generation);

GPA_LIB_DECL GpaStatus GpaGetNumCounters(GpaContextId context_id, GpaUInt32* number_of_counters);
GPA_LIB_DECL GpaStatus GpaGetCounterName(GpaContextId context_id, GpaUInt32 index, const char** counter_name);
GPA_LIB_DECL GpaStatus GpaGetCounterIndex(GpaContextId context_id, const char* counter_name, GpaUInt32* counter_index);
GPA_LIB_DECL GpaStatus GpaGetCounterGroup(GpaContextId context_id, GpaUInt32 index, const char** counter_group);
GPA_LIB_DECL GpaStatus GpaGetCounterDescription(GpaContextId context_id, GpaUInt32 index, const char** counter_description);
GPA_LIB_DECL GpaStatus GpaGetCounterDataType(GpaContextId context_id, GpaUInt32 index, GpaDataType* counter_data_type);
GPA_LIB_DECL GpaStatus GpaGetCounterUsageType(GpaContextId context_id, GpaUInt32 index, GpaUsageType* counter_usage_type);
GPA_LIB_DECL GpaStatus GpaGetCounterUuid(GpaContextId context_id, GpaUInt32 index, GpaUuid* counter_uuid);
GPA_LIB_DECL GpaStatus GpaGetCounterSampleType(GpaContextId context_id, GpaUInt32 index, GpaCounterSampleType* counter_sample_type);
GPA_LIB_DECL GpaStatus GpaGetDataTypeAsStr(GpaDataType counter_data_type, const char** type_as_str);
GPA_LIB_DECL GpaStatus GpaGetUsageTypeAsStr(GpaUsageType counter_usage_type, const char** usage_type_as_str);

GPA_LIB_DECL GpaStatus GpaCreateSession(GpaContextId context_id, GpaSessionSampleType sample_type, GpaSessionId* session_id);
GPA_LIB_DECL GpaStatus GpaDeleteSession(GpaSessionId session_id);
GPA_LIB_DECL GpaStatus GpaBeginSession(GpaSessionId session_id);
GPA_LIB_DECL GpaStatus GpaEndSession(GpaSessionId session_id);

GPA_LIB_DECL GpaStatus GpaEnableCounter(GpaSessionId session_id, GpaUInt32 counter_index);
GPA_LIB_DECL GpaStatus GpaDisableCounter(GpaSessionId session_id, GpaUInt32 counter_index);
GPA_LIB_DECL GpaStatus GpaEnableCounterByName(GpaSessionId session_id, const char* counter_name);
GPA_LIB_DECL GpaStatus GpaDisableCounterByName(GpaSessionId session_id, const char* counter_name);
GPA_LIB_DECL GpaStatus GpaEnableAllCounters(GpaSessionId session_id);
GPA_LIB_DECL GpaStatus GpaDisableAllCounters(GpaSessionId session_id);

GPA_LIB_DECL GpaStatus GpaGetPassCount(GpaSessionId session_id, GpaUInt32* number_of_passes);
GPA_LIB_DECL GpaStatus GpaGetNumEnabledCounters(GpaSessionId session_id, GpaUInt32* counter_count);
GPA_LIB_DECL GpaStatus GpaGetEnabledIndex(GpaSessionId session_id, GpaUInt32 enabled_number, GpaUInt32* enabled_counter_index);
GPA_LIB_DECL GpaStatus GpaIsCounterEnabled(GpaSessionId session_id, GpaUInt32 counter_index);

GPA_LIB_DECL GpaStatus GpaBeginCommandList(GpaSessionId session_id, GpaUInt32 pass_index, void* command_list,
                                           GpaCommandListType command_list_type, GpaCommandListId* command_list_id);
GPA_LIB_DECL GpaStatus GpaEndCommandList(GpaCommandListId command_list_id);
GPA_LIB_DECL GpaStatus GpaBeginSample(GpaUInt32 sample_id, GpaCommandListId command_list_id);
GPA_LIB_DECL GpaStatus GpaEndSample(GpaCommandListId command_list_id);
GPA_LIB_DECL GpaStatus GpaContinueSampleOnCommandList(GpaUInt32 src_sample_id, GpaCommandListId primary_command_list_id);
GPA_LIB_DECL GpaStatus GpaCopySecondarySamples(GpaCommandListId secondary_command_list_id, GpaCommandListId primary_command_list_id,
                                               GpaUInt32 num_samples, GpaUInt32* new_sample_ids);
GPA_LIB_DECL GpaStatus GpaGetSampleCount(GpaSessionId session_id, GpaUInt32* sample_count);
GPA_LIB_DECL GpaStatus GpaGetSampleId(GpaSessionId session_id, GpaUInt32 index, GpaUInt32* sample_id);

GPA_LIB_DECL GpaStatus GpaIsPassComplete(GpaSessionId session_id, GpaUInt32 pass_index);
GPA_LIB_DECL GpaStatus GpaIsSessionComplete(GpaSessionId session_id);
GPA_LIB_DECL GpaStatus GpaGetSampleResultSize(GpaSessionId session_id, GpaUInt32 sample_id, size_t* sample_result_size_in_bytes);
GPA_LIB_DECL GpaStatus GpaGetSampleResult(GpaSessionId session_id, GpaUInt32 sample_id, size_t sample_result_size_in_bytes,
                                          void* counter_sample_results);

GPA_LIB_DECL const char* GpaGetStatusAsStr(GpaStatus status);

#ifdef __cplusplus
}
#endif
#endif  // GPA_NO_PROTOTYPES
#else  // !USE_GPA
#include "gpu_performance_api/gpu_perf_api_stub.h"
#endif  // USE_GPA

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_H_
