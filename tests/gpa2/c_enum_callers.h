// v2 entry points called from C with an int for each enum argument (c_enum_callers.c).
#ifndef OPENGPA_TESTS_GPA2_C_ENUM_CALLERS_H_
#define OPENGPA_TESTS_GPA2_C_ENUM_CALLERS_H_

#include "gpu_performance_api/v2/GPUPerfAPI.h"

#ifdef __cplusplus
extern "C" {
#endif

const char* CallGpa2GetStatusAsStr(int status);
GPA_Status CallGpa2GetDataTypeAsStr(int type, const char** text);
GPA_Status CallGpa2GetUsageTypeAsStr(int usage, const char** text);
GPA_Status CallGpa2RegisterLoggingCallback(int types, GPA_LoggingCallbackPtrType callback);

#ifdef __cplusplus
}
#endif

#endif  // OPENGPA_TESTS_GPA2_C_ENUM_CALLERS_H_
