// Entry points called from C with an int for each enum argument (c_enum_callers.c).
#ifndef OPENGPA_TESTS_CORE_C_ENUM_CALLERS_H_
#define OPENGPA_TESTS_CORE_C_ENUM_CALLERS_H_

#include "gpu_performance_api/gpu_perf_api.h"

#ifdef __cplusplus
extern "C" {
#endif

GpaStatus CallGetDataTypeAsStr(int type, const char** text);
GpaStatus CallGetUsageTypeAsStr(int usage, const char** text);
const char* CallGetStatusAsStr(int status);
GpaStatus CallCreateSession(GpaContextId context, int sample_type, GpaSessionId* session);
GpaStatus CallBeginCommandList(GpaSessionId session, GpaUInt32 pass, void* api_list, int type, GpaCommandListId* list);
GpaStatus CallRegisterLoggingCallback(int types, GpaLoggingCallbackPtrType callback);

#ifdef __cplusplus
}
#endif

#endif  // OPENGPA_TESTS_CORE_C_ENUM_CALLERS_H_
