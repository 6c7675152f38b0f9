// GPA compiled out: with DISABLE_GPA defined to 1, gpu_perf_api.h includes this header instead of declaring
// the library's entry points. Every Gpa* function becomes an inline stub that touches none of its arguments
// and returns kGpaStatusOk, so a program instrumented with GPA builds and runs without any GPA library;
// GpaGetFuncTable hands out a table of these stubs (with GpaGetFuncTable's own version checks), so code
// that calls through the table (the interface loader's, see gpu_perf_api_interface_loader.h) works too.
// GpaGetStatusAsStr returns "GPA Status: Ok." for every status.
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_STUB_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_STUB_H_

#include <string.h>

#include "gpu_performance_api/gpu_perf_api_function_types.h"
#include "gpu_performance_api/gpu_perf_api_types.h"

#ifdef __GNUC__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

static inline GpaStatus GpaGetVersion(GpaUInt32* major_version, GpaUInt32* minor_version, GpaUInt32* build_version,
                                      GpaUInt32* update_version) { return kGpaStatusOk; }
static inline GpaStatus GpaRegisterLoggingCallback(GpaLoggingType logging_type, GpaLoggingCallbackPtrType callback_func_ptr) { return kGpaStatusOk; }
static inline GpaStatus GpaInitialize(GpaInitializeFlags flags) { return kGpaStatusOk; }
static inline GpaStatus GpaDestroy(void) { return kGpaStatusOk; }

static inline GpaStatus GpaOpenContext(void* context, GpaOpenContextFlags flags, GpaContextId* context_id) { return kGpaStatusOk; }
static inline GpaStatus GpaCloseContext(GpaContextId context_id) { return kGpaStatusOk; }
static inline GpaStatus GpaGetSupportedSampleTypes(GpaContextId context_id, GpaContextSampleTypeFlags* sample_types) { return kGpaStatusOk; }
static inline GpaStatus GpaGetDeviceAndRevisionId(GpaContextId context_id, GpaUInt32* device_id, GpaUInt32* revision_id) { return kGpaStatusOk; }
static inline GpaStatus GpaGetDeviceName(GpaContextId context_id, const char** device_name) { return kGpaStatusOk; }
static inline GpaStatus GpaGetDeviceGeneration(GpaContextId context_id, GpaHwGeneration* hardware_generation) { return kGpaStatusOk; }

static inline GpaStatus GpaGetNumCounters(GpaContextId context_id, GpaUInt32* number_of_counters) { return kGpaStatusOk; }
static inline GpaStatus GpaGetCounterName(GpaContextId context_id, GpaUInt32 index, const char** counter_name) { return kGpaStatusOk; }
static inline GpaStatus GpaGetCounterIndex(GpaContextId context_id, const char* counter_name, GpaUInt32* counter_index) { return kGpaStatusOk; }
static inline GpaStatus GpaGetCounterGroup(GpaContextId context_id, GpaUInt32 index, const char** counter_group) { return kGpaStatusOk; }
static inline GpaStatus GpaGetCounterDescription(GpaContextId context_id, GpaUInt32 index, const char** counter_description) { return kGpaStatusOk; }
static inline GpaStatus GpaGetCounterDataType(GpaContextId context_id, GpaUInt32 index, GpaDataType* counter_data_type) { return kGpaStatusOk; }
static inline GpaStatus GpaGetCounterUsageType(GpaContextId context_id, GpaUInt32 index, GpaUsageType* counter_usage_type) { return kGpaStatusOk; }
static inline GpaStatus GpaGetCounterUuid(GpaContextId context_id, GpaUInt32 index, GpaUuid* counter_uuid) { return kGpaStatusOk; }
static inline GpaStatus GpaGetCounterSampleType(GpaContextId context_id, GpaUInt32 index, GpaCounterSampleType* counter_sample_type) { return kGpaStatusOk; }
static inline GpaStatus GpaGetDataTypeAsStr(GpaDataType counter_data_type, const char** type_as_str) { return kGpaStatusOk; }
static inline GpaStatus GpaGetUsageTypeAsStr(GpaUsageType counter_usage_type, const char** usage_type_as_str) { return kGpaStatusOk; }

static inline GpaStatus GpaCreateSession(GpaContextId context_id, GpaSessionSampleType sample_type, GpaSessionId* session_id) { return kGpaStatusOk; }
static inline GpaStatus GpaDeleteSession(GpaSessionId session_id) { return kGpaStatusOk; }
static inline GpaStatus GpaBeginSession(GpaSessionId session_id) { return kGpaStatusOk; }
static inline GpaStatus GpaEndSession(GpaSessionId session_id) { return kGpaStatusOk; }

static inline GpaStatus GpaEnableCounter(GpaSessionId session_id, GpaUInt32 counter_index) { return kGpaStatusOk; }
static inline GpaStatus GpaDisableCounter(GpaSessionId session_id, GpaUInt32 counter_index) { return kGpaStatusOk; }
static inline GpaStatus GpaEnableCounterByName(GpaSessionId session_id, const char* counter_name) { return kGpaStatusOk; }
static inline GpaStatus GpaDisableCounterByName(GpaSessionId session_id, const char* counter_name) { return kGpaStatusOk; }
static inline GpaStatus GpaEnableAllCounters(GpaSessionId session_id) { return kGpaStatusOk; }
static inline GpaStatus GpaDisableAllCounters(GpaSessionId session_id) { return kGpaStatusOk; }

static inline GpaStatus GpaGetPassCount(GpaSessionId session_id, GpaUInt32* number_of_passes) { return kGpaStatusOk; }
static inline GpaStatus GpaGetNumEnabledCounters(GpaSessionId session_id, GpaUInt32* counter_count) { return kGpaStatusOk; }
static inline GpaStatus GpaGetEnabledIndex(GpaSessionId session_id, GpaUInt32 enabled_number, GpaUInt32* enabled_counter_index) { return kGpaStatusOk; }
static inline GpaStatus GpaIsCounterEnabled(GpaSessionId session_id, GpaUInt32 counter_index) { return kGpaStatusOk; }

static inline GpaStatus GpaBeginCommandList(GpaSessionId session_id, GpaUInt32 pass_index, void* command_list,
                                            GpaCommandListType command_list_type, GpaCommandListId* command_list_id) { return kGpaStatusOk; }
static inline GpaStatus GpaEndCommandList(GpaCommandListId command_list_id) { return kGpaStatusOk; }
static inline GpaStatus GpaBeginSample(GpaUInt32 sample_id, GpaCommandListId command_list_id) { return kGpaStatusOk; }
static inline GpaStatus GpaEndSample(GpaCommandListId command_list_id) { return kGpaStatusOk; }
static inline GpaStatus GpaContinueSampleOnCommandList(GpaUInt32 src_sample_id, GpaCommandListId primary_command_list_id) { return kGpaStatusOk; }
static inline GpaStatus GpaCopySecondarySamples(GpaCommandListId secondary_command_list_id, GpaCommandListId primary_command_list_id,
                                                GpaUInt32 num_samples, GpaUInt32* new_sample_ids) { return kGpaStatusOk; }
static inline GpaStatus GpaGetSampleCount(GpaSessionId session_id, GpaUInt32* sample_count) { return kGpaStatusOk; }
static inline GpaStatus GpaGetSampleId(GpaSessionId session_id, GpaUInt32 index, GpaUInt32* sample_id) { return kGpaStatusOk; }

static inline GpaStatus GpaIsPassComplete(GpaSessionId session_id, GpaUInt32 pass_index) { return kGpaStatusOk; }
static inline GpaStatus GpaIsSessionComplete(GpaSessionId session_id) { return kGpaStatusOk; }
static inline GpaStatus GpaGetSampleResultSize(GpaSessionId session_id, GpaUInt32 sample_id, size_t* sample_result_size_in_bytes) { return kGpaStatusOk; }
static inline GpaStatus GpaGetSampleResult(GpaSessionId session_id, GpaUInt32 sample_id, size_t sample_result_size_in_bytes,
                                           void* counter_sample_results) { return kGpaStatusOk; }

static inline const char* GpaGetStatusAsStr(GpaStatus status) { return "GPA Status: Ok."; }

/// Fills a caller's table with the stubs above, checking its versions as the library's GpaGetFuncTable does:
/// a major version other than 3, or a table larger than this header's, is refused; a smaller (older)
/// table gets the entry points that fit.
static inline GpaStatus GpaGetFuncTable(void* gpa_func_table)
{
    GpaFunctionTable stubs;
    GpaUInt32        header[2];
    GpaUInt32        caller_major;
    GpaUInt32        caller_size;
    if (gpa_func_table == NULL)
    {
        return kGpaStatusErrorNullPointer;
    }
    memcpy(header, gpa_func_table, sizeof header);
    caller_major = header[0];
    caller_size  = header[1];
    header[0]    = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
    header[1]    = (GpaUInt32)GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
    memcpy(gpa_func_table, header, sizeof header);
    if (caller_major != GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER)
    {
        return kGpaStatusErrorLibLoadMajorVersionMismatch;
    }
    if (caller_size > sizeof(GpaFunctionTable) || caller_size < sizeof header)
    {
        return kGpaStatusErrorLibLoadMinorVersionMismatch;
    }
#define GPA_FUNCTION_PREFIX(func) stubs.func = func;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX
    memcpy((char*)gpa_func_table + sizeof header, (const char*)&stubs + sizeof header,
           (caller_size - sizeof header) / sizeof(void*) * sizeof(void*));
    return kGpaStatusOk;
}

#ifdef __GNUC__
#pragma GCC diagnostic pop
#endif

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_STUB_H_
