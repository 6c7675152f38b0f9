// NvPmApi calls with enum arguments outside their enums, made from C (c_enum_callers.c), as a PerfKit client
// written in C makes them: any int converts to an enum parameter there, while C++ could not even form such a
// value without undefined behaviour.
#ifndef OPENGPA_TESTS_NVPMAPI_C_ENUM_CALLERS_H_
#define OPENGPA_TESTS_NVPMAPI_C_ENUM_CALLERS_H_

#include "nvpmapi/NvPmApi.h"

#ifdef __cplusplus
extern "C" {
#endif

NVPMRESULT CallGetCounterAttribute(const NvPmApi* api, NVPMCounterID id, int attribute, NVPMUINT64* value);

#ifdef __cplusplus
}
#endif

#endif  // OPENGPA_TESTS_NVPMAPI_C_ENUM_CALLERS_H_
