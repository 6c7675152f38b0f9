// Calls through the v4 table with enum arguments outside their enums, made from C (c_enum_callers.c), as a C
// application makes them: in C any int converts to an enum parameter, so these are well-defined calls the
// library must refuse, while C++ could not even form such a value without undefined behaviour.
#ifndef OPENGPA_TESTS_GPA4_C_ENUM_CALLERS_H_
#define OPENGPA_TESTS_GPA4_C_ENUM_CALLERS_H_

#include "gpu_performance_api/gpu_perf_api.h"

#ifdef __cplusplus
extern "C" {
#endif

GpaStatus CallV4CreateSession(const GpaFunctionTable* table, GpaContextId context, int sample_type,
                              GpaSessionId* session);
GpaStatus CallV4BeginCommandList(const GpaFunctionTable* table, GpaSessionId session, GpaUInt32 pass, void* api_list,
                                 int type, GpaCommandListId* list);
GpaStatus CallV4GetDataTypeAsStr(const GpaFunctionTable* table, int type, const char** text);
GpaStatus CallV4GetUsageTypeAsStr(const GpaFunctionTable* table, int usage, const char** text);

#ifdef __cplusplus
}
#endif

#endif  // OPENGPA_TESTS_GPA4_C_ENUM_CALLERS_H_
