// GPA 4's entry points that differ from v3's, with GPA 4's signatures. They are not exported (the Gpa*
// symbols are v3's): a v4 client reaches them through the table GpaGetFuncTable fills (function_table.cc).
#ifndef OPENGPA_ENTRY_GPA4_GPA4_ENTRY_POINTS_H_
#define OPENGPA_ENTRY_GPA4_GPA4_ENTRY_POINTS_H_

#include "gpu_performance_api/gpu_perf_api.h"  // the v4 set

namespace opengpa::gpa4 {

// Context (context_entry.cc).
GpaStatus GpaInitialize(GpaInitializeFlags flags);
GpaStatus GpaOpenContext(void* api_context, GpaOpenContextFlags flags, GpaContextId* context_id);
GpaStatus GpaGetSupportedSampleTypes(GpaContextId context_id, GpaContextSampleTypeFlags* sample_types);
GpaStatus GpaUpdateDeviceInformation(GpaContextId context_id, GpaUInt32 num_shader_engines, GpaUInt32 num_compute_units,
                                     GpaUInt32 num_simds, GpaUInt32 num_waves_per_simd);
GpaStatus GpaGetDeviceMaxWaveSlots(GpaContextId context_id, GpaUInt32* max_wave_slots);
GpaStatus GpaGetDeviceMaxVgprs(GpaContextId context_id, GpaUInt32* max_vgprs);
GpaStatus GpaGetDeviceMaxLdsBytes(GpaContextId context_id, GpaUInt32* max_lds_bytes);

// Counter queries by session (counter_query_entry.cc).
GpaStatus GpaGetNumCounters(GpaSessionId session_id, GpaUInt32* number_of_counters);
GpaStatus GpaGetCounterName(GpaSessionId session_id, GpaUInt32 index, const char** counter_name);
GpaStatus GpaGetCounterIndex(GpaSessionId session_id, const char* counter_name, GpaUInt32* counter_index);
GpaStatus GpaGetCounterGroup(GpaSessionId session_id, GpaUInt32 index, const char** counter_group);
GpaStatus GpaGetCounterDescription(GpaSessionId session_id, GpaUInt32 index, const char** counter_description);
GpaStatus GpaGetCounterDataType(GpaSessionId session_id, GpaUInt32 index, GpaDataType* counter_data_type);
GpaStatus GpaGetCounterUsageType(GpaSessionId session_id, GpaUInt32 index, GpaUsageType* counter_usage_type);
GpaStatus GpaGetCounterUuid(GpaSessionId session_id, GpaUInt32 index, GpaUuid* counter_uuid);
GpaStatus GpaGetCounterSampleType(GpaSessionId session_id, GpaUInt32 index, GpaCounterSampleType* counter_sample_type);

// Sessions (session_entry.cc).
GpaStatus GpaCreateSession(GpaContextId context_id, GpaSessionSampleType sample_type, GpaSessionId* session_id);
GpaStatus GpaResetSession(GpaSessionId session_id);
GpaStatus GpaAbortSession(GpaSessionId session_id);

// SQTT (sqtt_entry.cc).
GpaStatus GpaSqttGetInstructionMask(GpaSessionId session_id, GpaSqttInstructionFlags* mask);
GpaStatus GpaSqttSetInstructionMask(GpaSessionId session_id, GpaSqttInstructionFlags mask);
GpaStatus GpaSqttGetComputeUnitId(GpaSessionId session_id, GpaUInt32* compute_unit_id);
GpaStatus GpaSqttSetComputeUnitId(GpaSessionId session_id, GpaUInt32 compute_unit_id);
GpaStatus GpaSqttBegin(GpaSessionId session_id, void* command_list);
GpaStatus GpaSqttEnd(GpaSessionId session_id, void* command_list);
GpaStatus GpaSqttGetSampleResultSize(GpaSessionId session_id, size_t* size);
GpaStatus GpaSqttGetSampleResult(GpaSessionId session_id, size_t size, void* results);
GpaStatus GpaSqttSpmBegin(GpaSessionId session_id, void* command_list);
GpaStatus GpaSqttSpmEnd(GpaSessionId session_id, void* command_list);

// SPM: streaming counters (spm_entry.cc).
GpaStatus GpaSpmSetSampleInterval(GpaSessionId session_id, GpaUInt32 interval);
GpaStatus GpaSpmSetDuration(GpaSessionId session_id, GpaUInt32 nanosecond_duration);
GpaStatus GpaSpmBegin(GpaSessionId session_id, void* command_list);
GpaStatus GpaSpmEnd(GpaSessionId session_id, void* command_list);
GpaStatus GpaSpmGetSampleResultSize(GpaSessionId session_id, size_t* size);
GpaStatus GpaSpmGetSampleResult(GpaSessionId session_id, size_t size, void* results);
GpaStatus GpaSpmCalculateDerivedCounters(GpaSessionId session_id, GpaSpmData* spm_data, GpaUInt32 derived_counter_count,
                                         GpaUInt64* derived_counter_results);

}  // namespace opengpa::gpa4

#endif  // OPENGPA_ENTRY_GPA4_GPA4_ENTRY_POINTS_H_
