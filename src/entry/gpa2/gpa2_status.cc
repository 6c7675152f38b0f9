#include "entry/gpa2/gpa2_status.h"

namespace opengpa::gpa2 {

GPA_Status FromV3Status(GpaStatus status) {
  switch (status) {
    case kGpaStatusOk: return GPA_STATUS_OK;
    case kGpaStatusErrorNullPointer: return GPA_STATUS_ERROR_NULL_POINTER;
    case kGpaStatusErrorContextNotOpen: return GPA_STATUS_ERROR_COUNTERS_NOT_OPEN;
    case kGpaStatusErrorContextAlreadyOpen: return GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN;
    case kGpaStatusErrorIndexOutOfRange: return GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE;
    case kGpaStatusErrorCounterNotFound: return GPA_STATUS_ERROR_NOT_FOUND;
    case kGpaStatusErrorAlreadyEnabled: return GPA_STATUS_ERROR_ALREADY_ENABLED;
    case kGpaStatusErrorNoCountersEnabled: return GPA_STATUS_ERROR_NO_COUNTERS_ENABLED;
    case kGpaStatusErrorNotEnabled: return GPA_STATUS_ERROR_NOT_ENABLED;
    case kGpaStatusErrorNotEnoughPasses: return GPA_STATUS_ERROR_NOT_ENOUGH_PASSES;
    case kGpaStatusErrorSampleNotStarted: return GPA_STATUS_ERROR_SAMPLE_NOT_STARTED;
    case kGpaStatusErrorSampleAlreadyStarted: return GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED;
    case kGpaStatusErrorSampleNotEnded: return GPA_STATUS_ERROR_SAMPLE_NOT_ENDED;
    case kGpaStatusErrorCannotChangeCountersWhenSampling: return GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING;
    case kGpaStatusErrorSessionNotFound: return GPA_STATUS_ERROR_SESSION_NOT_FOUND;
    case kGpaStatusErrorSampleNotFound: return GPA_STATUS_ERROR_SAMPLE_NOT_FOUND;
    case kGpaStatusErrorReadingSampleResult: return GPA_STATUS_ERROR_READING_COUNTER_RESULT;
    case kGpaStatusErrorVariableNumberOfSamplesInPasses: return GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES;
    case kGpaStatusErrorHardwareNotSupported: return GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED;
    case kGpaStatusErrorDriverNotSupported: return GPA_STATUS_ERROR_DRIVER_NOT_SUPPORTED;
    case kGpaStatusErrorApiNotSupported: return GPA_STATUS_ERROR_API_NOT_SUPPORTED;
    case kGpaStatusErrorLibLoadFailed: return GPA_STATUS_ERROR_LIB_LOAD_FAILED;
    default: return GPA_STATUS_ERROR_FAILED;
  }
}

const char* StatusText(int status) {
  switch (status) {
    case GPA_STATUS_OK: return "Ok";
    case GPA_STATUS_ERROR_NULL_POINTER: return "Null Pointer";
    case GPA_STATUS_ERROR_COUNTERS_NOT_OPEN: return "Counters Not Open";
    case GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN: return "Counters Already Opened";
    case GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE: return "Index Out Of Range";
    case GPA_STATUS_ERROR_NOT_FOUND: return "Not Found";
    case GPA_STATUS_ERROR_ALREADY_ENABLED: return "Already Enabled";
    case GPA_STATUS_ERROR_NO_COUNTERS_ENABLED: return "No Counters Enabled";
    case GPA_STATUS_ERROR_NOT_ENABLED: return "Not Enabled";
    case GPA_STATUS_ERROR_SAMPLING_NOT_STARTED: return "Sampling Not Started";
    case GPA_STATUS_ERROR_SAMPLING_ALREADY_STARTED: return "Sampling Already Started";
    case GPA_STATUS_ERROR_SAMPLING_NOT_ENDED: return "Sampling Not Ended";
    case GPA_STATUS_ERROR_NOT_ENOUGH_PASSES: return "Not Enough Passes";
    case GPA_STATUS_ERROR_PASS_NOT_ENDED: return "Pass Not Ended";
    case GPA_STATUS_ERROR_PASS_NOT_STARTED: return "Pass Not Started";
    case GPA_STATUS_ERROR_PASS_ALREADY_STARTED: return "Pass Already Started";
    case GPA_STATUS_ERROR_SAMPLE_NOT_STARTED: return "Sample Not Started";
    case GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED: return "Sample Already Started";
    case GPA_STATUS_ERROR_SAMPLE_NOT_ENDED: return "Sample Not Ended";
    case GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING: return "Cannot Change Counters When Sampling";
    case GPA_STATUS_ERROR_SESSION_NOT_FOUND: return "Session Not Found";
    case GPA_STATUS_ERROR_SAMPLE_NOT_FOUND: return "Sample Not Found";
    case GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES: return "Sample Not Found In All Passes";
    case GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE: return "Counter Not Of Specified Type";
    case GPA_STATUS_ERROR_READING_COUNTER_RESULT: return "Reading Counter Result";
    case GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES: return "Variable Number Of Samples In Passes";
    case GPA_STATUS_ERROR_FAILED: return "Failed";
    case GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED: return "Hardware Not Supported";
    case GPA_STATUS_ERROR_DRIVER_NOT_SUPPORTED: return "Driver Not Supported";
    case GPA_STATUS_ERROR_API_NOT_SUPPORTED: return "API Not Supported";
    case GPA_STATUS_ERROR_LOAD_FAILED: return "Load Failed";
    case GPA_STATUS_ERROR_LIB_LOAD_FAILED: return "Library Load Failed";
    case GPA_STATUS_ERROR_LIB_LOAD_VERION_MISMATCH: return "Library Load Version Mismatch";
  }
  return "Unknown Error";
}

}  // namespace opengpa::gpa2
