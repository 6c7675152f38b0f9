/* See c_enum_callers.h. */
#include "c_enum_callers.h"

NVPMRESULT CallGetCounterAttribute(const NvPmApi* api, NVPMCounterID id, int attribute, NVPMUINT64* value) {
  return api->GetCounterAttribute(id, (NVPMATTRIBUTE)attribute, value);
}
