// The entry points of the v4 counter-library table that differ from v3's (signature, enum values or layout),
// with GPA 4.3's signatures; C++ linkage, reached only through the table (the GpaCounterLib* exports are v3's).
#ifndef OPENGPA_COUNTER_LIBRARY_GPA4_GPA4_ENTRY_POINTS_H_
#define OPENGPA_COUNTER_LIBRARY_GPA4_GPA4_ENTRY_POINTS_H_

#include "gpu_performance_api/gpu_perf_api_counters.h"  // the v4 set

namespace opengpa::counter_library::gpa4 {

GpaStatus OpenCounterContextV4(GpaApiType api, GpaSessionSampleType sample_type,
                               GpaCounterContextHardwareInfo gpa_counter_context_hardware_info,
                               GpaOpenContextFlags context_flags, GpaCounterContext* gpa_virtual_context);
GpaStatus GetSupportedSampleTypes(GpaApiType api, const GpaSupportedSampleTypeInfo* info,
                                  GpaContextSampleTypeFlags* supported_sample_types);
GpaStatus GetCounterUuid(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                         GpaUuid* gpa_counter_uuid);
GpaStatus GetCounterSampleType(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                               GpaCounterSampleType* gpa_counter_sample_type);
GpaStatus ComputeDerivedCounterResultV4(const GpaCounterContext gpa_virtual_context, GpaUInt32 gpa_counter_index,
                                        const GpaUInt64* gpa_counter_result, GpaUInt32 gpa_counter_result_count,
                                        GpaFloat64* gpa_counter_value);
GpaStatus ComputeDerivedSpmCounterResults(const GpaCounterContext gpa_virtual_context, const GpaSpmData* spm_data,
                                          GpaUInt64 gpa_counter_indices_count, const GpaUInt32* gpa_counter_indices,
                                          GpaFloat64* gpa_counter_results);

}  // namespace opengpa::counter_library::gpa4

#endif  // OPENGPA_COUNTER_LIBRARY_GPA4_GPA4_ENTRY_POINTS_H_
