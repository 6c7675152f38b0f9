/* See c_table_callers.h. */
#include "tests/core/c_table_callers.h"

GpaStatus CallTableCreateSession(const GpaFunctionTable* table, GpaContextId context, int sample_type,
                                 GpaSessionId* session) {
  return table->GpaCreateSession(context, (GpaSessionSampleType)sample_type, session);
}
