/* See v3_table_callers.h. */
#include "tests/counter_library_v4/v3_table_callers.h"

typedef GpaStatus (*V3Open)(int, GpaCounterContextHardwareInfo, GpaOpenContextFlags, GpaUInt8, GpaCounterContext*);
typedef GpaStatus (*V3GetCounterUuid)(GpaCounterContext, GpaUInt32, V3Uuid*);

GpaStatus CallV3Open(void* function, int v3_api, GpaCounterContextHardwareInfo info, GpaOpenContextFlags flags,
                     GpaUInt8 asic, GpaCounterContext* context) {
  return ((V3Open)function)(v3_api, info, flags, asic, context);
}

GpaStatus CallV3GetCounterUuid(void* function, GpaCounterContext context, GpaUInt32 index, V3Uuid* uuid) {
  return ((V3GetCounterUuid)function)(context, index, uuid);
}
