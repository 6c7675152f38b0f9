/* v2 calls with enum arguments outside their enums, made from C as a v2 application makes them: in C any
 * int converts to an enum parameter, so these are well-defined calls that the library must answer without
 * undefined behaviour (in C++ the test could not even form such a value without undefined behaviour). */
#include "tests/gpa2/c_enum_callers.h"

const char* CallGpa2GetStatusAsStr(int status) { return GPA_GetStatusAsStr((GPA_Status)status); }

GPA_Status CallGpa2GetDataTypeAsStr(int type, const char** text) { return GPA_GetDataTypeAsStr((GPA_Type)type, text); }

GPA_Status CallGpa2GetUsageTypeAsStr(int usage, const char** text) {
  return GPA_GetUsageTypeAsStr((GPA_Usage_Type)usage, text);
}

GPA_Status CallGpa2RegisterLoggingCallback(int types, GPA_LoggingCallbackPtrType callback) {
  return GPA_RegisterLoggingCallback((GPA_Logging_Type)types, callback);
}
