// The functions of the NvPmApi table (export_table.cc fills the table with them), one file per group:
// nvpm_init_entry.cc, nvpm_context_entry.cc, nvpm_counter_entry.cc, nvpm_experiment_entry.cc,
// nvpm_sample_entry.cc, nvpm_value_entry.cc. Statuses per function: docs/nvpmapi.md.
#ifndef OPENGPA_ENTRY_NVPMAPI_NVPM_ENTRY_H_
#define OPENGPA_ENTRY_NVPMAPI_NVPM_ENTRY_H_

#include "nvpmapi/NvPmApi.h"

namespace opengpa::nvpm::entry {

NVPMRESULT SetWarningLevel(NVPMUINT level);
NVPMRESULT GetExtendedError(NVPMUINT* error);
NVPMRESULT Init();
NVPMRESULT Shutdown();
NVPMRESULT RegisterNewDataProviderCallback(FuncPtrNewDataProvider callback);

NVPMRESULT CreateContextFromOGLContext(APIContextHandle gl_context, NVPMContext* context);
NVPMRESULT CreateContextFromCudaContext(APIContextHandle cuda_context, NVPMContext* context);
NVPMRESULT CreateContextFromChipName(const char* chip_name, NVPMContext* context);
NVPMRESULT CreateContextFromGpaLibrary(const char* gpa_library, void* open_info, NVPMContext* context);
NVPMRESULT DestroyContext(NVPMContext context);

NVPMRESULT EnumCountersByContext(NVPMContext context, NVPMEnumFunc callback);
NVPMRESULT EnumCountersByContextUserData(NVPMContext context, NVPMEnumFuncUserData callback, void* user_data);
NVPMRESULT GetCounterName(NVPMCounterID id, char* text, NVPMUINT* length);
NVPMRESULT GetCounterDescription(NVPMCounterID id, char* text, NVPMUINT* length);
NVPMRESULT GetCounterIDByContext(NVPMContext context, const char* name, NVPMCounterID* id);
NVPMRESULT GetCounterClockRateByContext(NVPMContext context, const char* name, float* megahertz);
NVPMRESULT GetCounterAttribute(NVPMCounterID id, NVPMATTRIBUTE attribute, NVPMUINT64* value);
NVPMRESULT AddCounterByName(NVPMContext context, const char* name);
NVPMRESULT AddCounter(NVPMContext context, NVPMCounterID id);
NVPMRESULT AddCounters(NVPMContext context, NVPMUINT count, NVPMCounterID* ids);
NVPMRESULT RemoveCounterByName(NVPMContext context, const char* name);
NVPMRESULT RemoveCounter(NVPMContext context, NVPMCounterID id);
NVPMRESULT RemoveCounters(NVPMContext context, NVPMUINT count, NVPMCounterID* ids);
NVPMRESULT RemoveAllCounters(NVPMContext context);

NVPMRESULT ReserveObjects(NVPMContext context, NVPMUINT count);
NVPMRESULT DeleteObjects(NVPMContext context);
NVPMRESULT BeginExperiment(NVPMContext context, NVPMUINT* passes);
NVPMRESULT EndExperiment(NVPMContext context);
NVPMRESULT BeginPass(NVPMContext context, NVPMUINT pass);
NVPMRESULT EndPass(NVPMContext context, NVPMUINT pass);
NVPMRESULT BeginObject(NVPMContext context, NVPMUINT object);
NVPMRESULT EndObject(NVPMContext context, NVPMUINT object);

NVPMRESULT Sample(NVPMContext context, NVPMSampleValue* samples, NVPMUINT* count);
NVPMRESULT SampleEx(NVPMContext context, NVPMSampleValueEx* samples, NVPMUINT* count);

NVPMRESULT GetCounterValueByName(NVPMContext context, const char* name, NVPMUINT object, NVPMUINT64* value,
                                 NVPMUINT64* cycles);
NVPMRESULT GetCounterValue(NVPMContext context, NVPMCounterID id, NVPMUINT object, NVPMUINT64* value,
                           NVPMUINT64* cycles);
NVPMRESULT GetCounterValueUint64(NVPMContext context, NVPMCounterID id, NVPMUINT object, NVPMUINT64* value,
                                 NVPMUINT64* cycles, NVPMUINT8* overflow);
NVPMRESULT GetCounterValueFloat64(NVPMContext context, NVPMCounterID id, NVPMUINT object, NVPMFLOAT64* value,
                                  NVPMUINT64* cycles, NVPMUINT8* overflow);
NVPMRESULT GetCounterValueByNameUint64(NVPMContext context, const char* name, NVPMUINT object, NVPMUINT64* value,
                                       NVPMUINT64* cycles, NVPMUINT8* overflow);
NVPMRESULT GetCounterValueByNameFloat64(NVPMContext context, const char* name, NVPMUINT object, NVPMFLOAT64* value,
                                        NVPMUINT64* cycles, NVPMUINT8* overflow);
NVPMRESULT GetGPUBottleneckName(NVPMContext context, NVPMUINT64 value, char* name);

}  // namespace opengpa::nvpm::entry

#endif  // OPENGPA_ENTRY_NVPMAPI_NVPM_ENTRY_H_
