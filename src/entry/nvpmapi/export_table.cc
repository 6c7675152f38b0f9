// The library's exported symbols: NVPMGetExportTable and OpenGPA's extensions (NvPmApi-OpenGPA.h).
#include <cstring>

#define NVPM_INITGUID
#include "entry/nvpmapi/nvpm_entry.h"
#include "entry/nvpmapi/nvpm_log.h"
#include "nvpmapi/NvPmApi-OpenGPA.h"
#include "nvpmapi/NvPmApi.h"

namespace opengpa::nvpm {
namespace {

NvPmApi MakeTable() {
  NvPmApi table{};
  table.struct_size = sizeof(NvPmApi);
  table.SetWarningLevel = entry::SetWarningLevel;
  table.GetExtendedError = entry::GetExtendedError;
  table.Init = entry::Init;
  table.Shutdown = entry::Shutdown;
  table.CreateContextFromOGLContext = entry::CreateContextFromOGLContext;
  table.CreateContextFromCudaContext = entry::CreateContextFromCudaContext;
  table.DestroyContext = entry::DestroyContext;
  table.EnumCountersByContext = entry::EnumCountersByContext;
  table.GetCounterName = entry::GetCounterName;
  table.GetCounterDescription = entry::GetCounterDescription;
  table.GetCounterIDByContext = entry::GetCounterIDByContext;
  table.GetCounterClockRateByContext = entry::GetCounterClockRateByContext;
  table.GetCounterAttribute = entry::GetCounterAttribute;
  table.AddCounterByName = entry::AddCounterByName;
  table.AddCounter = entry::AddCounter;
  table.AddCounters = entry::AddCounters;
  table.RemoveCounterByName = entry::RemoveCounterByName;
  table.RemoveCounter = entry::RemoveCounter;
  table.RemoveCounters = entry::RemoveCounters;
  table.RemoveAllCounters = entry::RemoveAllCounters;
  table.ReserveObjects = entry::ReserveObjects;
  table.DeleteObjects = entry::DeleteObjects;
  table.BeginExperiment = entry::BeginExperiment;
  table.EndExperiment = entry::EndExperiment;
  table.BeginPass = entry::BeginPass;
  table.EndPass = entry::EndPass;
  table.BeginObject = entry::BeginObject;
  table.EndObject = entry::EndObject;
  table.Sample = entry::Sample;
  table.SampleEx = entry::SampleEx;
  table.GetCounterValueByName = entry::GetCounterValueByName;
  table.GetCounterValue = entry::GetCounterValue;
  table.GetGPUBottleneckName = entry::GetGPUBottleneckName;
  table.RegisterNewDataProviderCallback = entry::RegisterNewDataProviderCallback;
  table.GetCounterValueUint64 = entry::GetCounterValueUint64;
  table.GetCounterValueFloat64 = entry::GetCounterValueFloat64;
  table.EnumCountersByContextUserData = entry::EnumCountersByContextUserData;
  table.GetCounterValueByNameUint64 = entry::GetCounterValueByNameUint64;
  table.GetCounterValueByNameFloat64 = entry::GetCounterValueByNameFloat64;
  return table;
}

}  // namespace
}  // namespace opengpa::nvpm

extern "C" {

__attribute__((visibility("default"))) NVPMRESULT NVPMGetExportTable(const NVPM_UUID* table_id, void** table) {
  if (table_id == nullptr || table == nullptr) {
    return opengpa::nvpm::Fail(NVPM_ERROR_INVALID_PARAMETER, "NVPMGetExportTable: a pointer is NULL");
  }
  if (std::memcmp(table_id, &ETID_NvPmApi, sizeof(NVPM_UUID)) != 0) {
    return opengpa::nvpm::Fail(NVPM_ERROR_INVALID_PARAMETER, "NVPMGetExportTable: unknown table id");
  }
  static NvPmApi api = opengpa::nvpm::MakeTable();
  *table = &api;
  return NVPM_OK;
}

__attribute__((visibility("default"))) NVPMRESULT OpenGpaNvPmCreateContextFromChipName(const char* chip_name,
                                                                                       NVPMContext* context) {
  return opengpa::nvpm::entry::CreateContextFromChipName(chip_name, context);
}

__attribute__((visibility("default"))) NVPMRESULT OpenGpaNvPmCreateContextFromGpaLibrary(const char* gpa_library,
                                                                                         void* open_info,
                                                                                         NVPMContext* context) {
  return opengpa::nvpm::entry::CreateContextFromGpaLibrary(gpa_library, open_info, context);
}

__attribute__((visibility("default"))) NVPMRESULT OpenGpaNvPmGetLastMessage(char* text, NVPMUINT* length) {
  if (length == nullptr) return NVPM_ERROR_INVALID_PARAMETER;
  std::string message = opengpa::nvpm::LastMessage();
  const auto needed = static_cast<NVPMUINT>(message.size() + 1);
  if (text == nullptr) {
    *length = needed;
    return NVPM_OK;
  }
  if (*length < needed) {
    *length = needed;
    return NVPM_ERROR_STRING_TOO_SMALL;
  }
  std::memcpy(text, message.c_str(), needed);
  *length = needed;
  return NVPM_OK;
}

}  // extern "C"
