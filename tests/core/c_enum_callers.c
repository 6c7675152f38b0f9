/* Calls with enum arguments outside their enums, made from C as a C application makes them: in C any
 * int converts to an enum parameter, so these are well-defined calls that the library must reject
 * (in C++ the test could not even form such a value without undefined behaviour). */
#include "tests/core/c_enum_callers.h"

GpaStatus CallGetDataTypeAsStr(int type, const char** text) { return GpaGetDataTypeAsStr((GpaDataType)type, text); }

GpaStatus CallGetUsageTypeAsStr(int usage, const char** text) {
  return GpaGetUsageTypeAsStr((GpaUsageType)usage, text);
}

const char* CallGetStatusAsStr(int status) { return GpaGetStatusAsStr((GpaStatus)status); }

GpaStatus CallCreateSession(GpaContextId context, int sample_type, GpaSessionId* session) {
  return GpaCreateSession(context, (GpaSessionSampleType)sample_type, session);
}

GpaStatus CallBeginCommandList(GpaSessionId session, GpaUInt32 pass, void* api_list, int type, GpaCommandListId* list) {
  return GpaBeginCommandList(session, pass, api_list, (GpaCommandListType)type, list);
}

GpaStatus CallRegisterLoggingCallback(int types, GpaLoggingCallbackPtrType callback) {
  return GpaRegisterLoggingCallback((GpaLoggingType)types, callback);
}
