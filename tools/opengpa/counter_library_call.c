/* See counter_library_call.h. */
#include "counter_library_call.h"

GpaStatus OpenGpaCliOpenCounterContext(GpaCounterLibOpenCounterContextPtrType open, int api,
                                       GpaCounterContextHardwareInfo info, GpaOpenContextFlags flags,
                                       GpaUInt8 generate_asic_specific_counters, GpaCounterContext* context) {
  return open((GpaApiType)api, info, flags, generate_asic_specific_counters, context);
}
