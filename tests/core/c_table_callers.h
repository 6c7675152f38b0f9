// Calls through a library's function table with enum arguments outside their enums, made from C
// (c_table_callers.c) as a C application makes them: any int converts to an enum parameter in C, while C++ may
// not even hold such a value in the enum (UBSan's enum check).
#ifndef OPENGPA_TESTS_CORE_C_TABLE_CALLERS_H_
#define OPENGPA_TESTS_CORE_C_TABLE_CALLERS_H_

#include "gpu_performance_api/gpu_perf_api.h"

#ifdef __cplusplus
extern "C" {
#endif

GpaStatus CallTableCreateSession(const GpaFunctionTable* table, GpaContextId context, int sample_type,
                                 GpaSessionId* session);

#ifdef __cplusplus
}
#endif

#endif  // OPENGPA_TESTS_CORE_C_TABLE_CALLERS_H_
