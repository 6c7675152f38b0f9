#include "platform/type_strings.h"

#include "gpu_performance_api/opengpa_ext.h"

namespace opengpa {

const char* StatusAsString(int status) {
  switch (status) {
    case kGpaStatusOk: return "GPA Status: Ok.";
    case kGpaStatusResultNotReady: return "GPA Status: Counter Results Not Ready.";
    case kGpaStatusErrorNullPointer: return "GPA Error: Null Pointer.";
    case kGpaStatusErrorContextNotOpen: return "GPA Error: Context Not Open.";
    case kGpaStatusErrorContextAlreadyOpen: return "GPA Error: Context Already Open.";
    case kGpaStatusErrorIndexOutOfRange: return "GPA Error: Index Out Of Range.";
    case kGpaStatusErrorCounterNotFound: return "GPA Error: Counter Not Found.";
    case kGpaStatusErrorAlreadyEnabled: return "GPA Error: Already Enabled.";
    case kGpaStatusErrorNoCountersEnabled: return "GPA Error: No Counters Enabled.";
    case kGpaStatusErrorNotEnabled: return "GPA Error: Not Enabled.";
    case kGpaStatusErrorCommandListAlreadyEnded: return "GPA Error: Command List Already Ended.";
    case kGpaStatusErrorCommandListAlreadyStarted: return "GPA Error: Command List Already Started.";
    case kGpaStatusErrorCommandListNotEnded: return "GPA Error: Command List Not Ended.";
    case kGpaStatusErrorNotEnoughPasses: return "GPA Error: Not Enough Passes.";
    case kGpaStatusErrorSampleNotStarted: return "GPA Error: Sample Not Started.";
    case kGpaStatusErrorSampleAlreadyStarted: return "GPA Error: Sample Already Started.";
    case kGpaStatusErrorSampleNotEnded: return "GPA Error: Sample Not Ended.";
    case kGpaStatusErrorCannotChangeCountersWhenSampling: return "GPA Error: Cannot Change Counters When Sampling.";
    case kGpaStatusErrorSessionNotFound: return "GPA Error: Session Not Found.";
    case kGpaStatusErrorSampleNotFound: return "GPA Error: Sample Not Found.";
    case kGpaStatusErrorContextNotFound: return "GPA Error: Context Not Found.";
    case kGpaStatusErrorCommandListNotFound: return "GPA Error: Command List Not Found.";
    case kGpaStatusErrorReadingSampleResult: return "GPA Error: Reading Sample Result.";
    case kGpaStatusErrorVariableNumberOfSamplesInPasses: return "GPA Error: Variable Number Of Samples In Passes.";
    case kGpaStatusErrorFailed: return "GPA Error: Failed.";
    case kGpaStatusErrorHardwareNotSupported: return "GPA Error: Hardware Not Supported.";
    case kGpaStatusErrorDriverNotSupported: return "GPA Error: Driver Not Supported.";
    case kGpaStatusErrorApiNotSupported: return "GPA Error: API Not Supported.";
    case kGpaStatusErrorInvalidParameter: return "GPA Error: Invalid Parameter.";
    case kGpaStatusErrorLibLoadFailed: return "GPA Error: Library Load Failed.";
    case kGpaStatusErrorLibLoadMajorVersionMismatch: return "GPA Error: Library Load Major Version Mismatch.";
    case kGpaStatusErrorLibLoadMinorVersionMismatch: return "GPA Error: Library Load Minor Version Mismatch.";
    case kGpaStatusErrorGpaNotInitialized: return "GPA Error: GPA Not Initialized.";
    case kGpaStatusErrorGpaAlreadyInitialized: return "GPA Error: GPA Already Initialized.";
    case kGpaStatusErrorSampleInSecondaryCommandList: return "GPA Error: Sample In Secondary Command List.";
    case kGpaStatusErrorIncompatibleSampleTypes: return "GPA Error: Incompatible Sample Types.";
    case kGpaStatusErrorSessionAlreadyStarted: return "GPA Error: Session Already Started.";
    case kGpaStatusErrorSessionNotStarted: return "GPA Error: Session Not Started.";
    case kGpaStatusErrorSessionNotEnded: return "GPA Error: Session Not Ended.";
    case kGpaStatusErrorInvalidDataType: return "GPA Error: Invalid Data Type.";
    case kGpaStatusErrorInvalidCounterEquation: return "GPA Error: Invalid Counter Equation.";
    case kGpaStatusErrorTimeout: return "GPA Error: Attempt to Retrieve Data Failed due to Timeout.";
    case kGpaStatusErrorLibAlreadyLoaded: return "GPA Error: Library Already Loaded.";
    case kGpaStatusErrorOtherSessionActive: return "GPA Error: Other Session Active.";
    case kGpaStatusErrorException: return "GPA Error: Exception Occurred.";
    case kGpaStatusErrorInvalidCounterGroupData: return "GPA Error: Invalid Counter Group Data.";
    case kGpaStatusInternal: break;
  }
  // The strings GPA gives every value it does not know (its own tests compare them).
  return status < 0 ? "GPA Error: Unknown Error." : "GPA Status: Unknown Status.";
}

const char* HwGenerationName(int generation) {
  if (generation == static_cast<int>(kGpaHwGenerationSoftware)) return "software (CPU)";
  switch (generation) {
    case kGpaHwGenerationNvidia: return "NVIDIA";
    case kGpaHwGenerationIntel: return "Intel";
    case kGpaHwGenerationGfx6: return "AMD GFX 6";
    case kGpaHwGenerationGfx7: return "AMD GFX 7";
    case kGpaHwGenerationGfx8: return "AMD GFX 8";
    case kGpaHwGenerationGfx9: return "AMD GFX 9";
    case kGpaHwGenerationGfx10: return "AMD GFX 10";
    case kGpaHwGenerationGfx103: return "AMD GFX 10.3";
    case kGpaHwGenerationGfx11: return "AMD GFX 11";
    case kGpaHwGenerationCdna: return "AMD CDNA";
    case kGpaHwGenerationCdna2: return "AMD CDNA 2";
    case kGpaHwGenerationCdna3: return "AMD CDNA 3";
    default: return "unknown";
  }
}

const char* DataTypeAsString(int type) {
  switch (type) {
    case kGpaDataTypeFloat64: return "gpa_float64";
    case kGpaDataTypeUint64: return "gpa_uint64";
    case kGpaDataTypeLast: break;
  }
  return nullptr;
}

const char* UsageTypeAsString(int type) {
  switch (type) {
    case kGpaUsageTypeRatio: return "ratio";
    case kGpaUsageTypePercentage: return "percentage";
    case kGpaUsageTypeCycles: return "cycles";
    case kGpaUsageTypeMilliseconds: return "milliseconds";
    case kGpaUsageTypeBytes: return "bytes";
    case kGpaUsageTypeItems: return "items";
    case kGpaUsageTypeKilobytes: return "kilobytes";
    case kGpaUsageTypeNanoseconds: return "nanoseconds";
    case kGpaUsageTypeLast: break;
  }
  return nullptr;
}

const char* CommandListTypeName(GpaCommandListType type) {
  switch (type) {
    case kGpaCommandListNone: return "kGpaCommandListNone";
    case kGpaCommandListPrimary: return "kGpaCommandListPrimary";
    case kGpaCommandListSecondary: return "kGpaCommandListSecondary";
    default: return "invalid";
  }
}

}  // namespace opengpa
