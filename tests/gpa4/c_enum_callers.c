/* See c_enum_callers.h: compiled as C against include/v4. */
#include "tests/gpa4/c_enum_callers.h"

GpaStatus CallV4CreateSession(const GpaFunctionTable* table, GpaContextId context, int sample_type,
                              GpaSessionId* session) {
  return table->GpaCreateSession(context, (GpaSessionSampleType)sample_type, session);
}

GpaStatus CallV4BeginCommandList(const GpaFunctionTable* table, GpaSessionId session, GpaUInt32 pass, void* api_list,
                                 int type, GpaCommandListId* list) {
  return table->GpaBeginCommandList(session, pass, api_list, (GpaCommandListType)type, list);
}

GpaStatus CallV4GetDataTypeAsStr(const GpaFunctionTable* table, int type, const char** text) {
  return table->GpaGetDataTypeAsStr((GpaDataType)type, text);
}

GpaStatus CallV4GetUsageTypeAsStr(const GpaFunctionTable* table, int usage, const char** text) {
  return table->GpaGetUsageTypeAsStr((GpaUsageType)usage, text);
}
