// Counter ids: GetCounterName, GetCounterDescription and GetCounterAttribute take an id and no context, so
// one id means one counter name in every context of the process. Ids are handed out from 1, consecutively,
// as contexts first offer each name; a name keeps its id (and its first description and attributes) until
// Shutdown. OpenGL and CUDA contexts that share a name (GPUTime, CSThreads) share its id.
#ifndef OPENGPA_ENTRY_NVPMAPI_COUNTER_REGISTRY_H_
#define OPENGPA_ENTRY_NVPMAPI_COUNTER_REGISTRY_H_

#include <string>

#include "nvpmapi/NvPmApi.h"

namespace opengpa::nvpm {

struct CounterInfo {
  std::string name;
  std::string description;
  NVPMCOUNTERTYPE type = NVPM_CT_GPU;
  NVPMCOUNTERDISPLAY display = NVPM_CD_RAW;
  NVPMCOUNTERVALUETYPE value_type = NVPM_VALUE_TYPE_UINT64;
};

// The id of info.name, registering it (with info) the first time.
NVPMCounterID RegisterCounter(const CounterInfo& info);

// nullptr for an id never handed out.
const CounterInfo* FindCounter(NVPMCounterID id);

// Forgets every id (Shutdown): the next Init hands ids out from 1 again.
void ClearCounters();

}  // namespace opengpa::nvpm

#endif  // OPENGPA_ENTRY_NVPMAPI_COUNTER_REGISTRY_H_
