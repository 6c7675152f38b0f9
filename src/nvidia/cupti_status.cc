#include "nvidia/cupti_status.h"

#include <cupti.h>

#include "nvidia/cupti_loader.h"
#include "platform/logging.h"

namespace opengpa::nvidia {

std::string CuptiResultText(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr) {
    return "CUPTI error " + std::to_string(static_cast<int>(result));
  }
  return text;
}

GpaStatus ToGpaStatus(CUptiResult result) {
  // What cupti_on_demand.cc answers for every call when libcupti could not be loaded.
  if (result == CUPTI_ERROR_NOT_INITIALIZED && CuptiIsMissing()) return kGpaStatusErrorLibLoadFailed;
  switch (result) {
    case CUPTI_SUCCESS: return kGpaStatusOk;
    case CUPTI_ERROR_INVALID_PARAMETER: return kGpaStatusErrorInvalidParameter;
    case CUPTI_ERROR_INVALID_METRIC_NAME: return kGpaStatusErrorCounterNotFound;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_INVALID_CHIP_NAME: return kGpaStatusErrorHardwareNotSupported;
    default: return kGpaStatusErrorFailed;
  }
}

GpaStatus CuptiFailure(CUptiResult result, std::string_view call, std::string_view detail) {
  std::string hint;
  if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) {
    hint = "; profiling needs administrator rights or the driver option NVreg_RestrictProfilingToAdminUsers=0";
  }
  if (detail.empty()) {
    return LogError(ToGpaStatus(result), "{} failed: {}{}", call, CuptiResultText(result), hint);
  }
  return LogError(ToGpaStatus(result), "{} failed: {} ({}){}", call, CuptiResultText(result), detail, hint);
}

}  // namespace opengpa::nvidia
