/* Counter-library calls with enum values outside their enums, made from C as a C client makes them: in C any
 * int converts to an enum parameter or field, so these are well-defined calls that the library must answer
 * without undefined behaviour (in C++ the test could not even form such a value without undefined behaviour). */
#include "tests/counter_library/c_enum_callers.h"

GpaStatus CallCounterLibOpenCounterContext(int api, GpaCounterContextHardwareInfo info, GpaCounterContext* context) {
  return GpaCounterLibOpenCounterContext((GpaApiType)api, info, kGpaOpenContextDefaultBit, 1, context);
}

GpaStatus CallCounterLibRegisterLoggingCallback(int types, GpaLoggingCallbackPtrType callback) {
  return OpenGpaCounterLibRegisterLoggingCallback((GpaLoggingType)types, callback);
}

GpaStatus CallCounterLibGetIndexOfBlockEvent(GpaCounterContext context, int block, GpaUInt32 event, GpaUInt32* index) {
  GpaCounterParam param = {0};
  param.is_derived_counter = false;
  param.gpa_hw_counter.is_timing_block = false;
  param.gpa_hw_counter.gpa_hw_block = (GpaHwBlock)block;
  param.gpa_hw_counter.gpa_hw_block_event_id = event;
  return GpaCounterLibGetCounterIndex(context, &param, index);
}
