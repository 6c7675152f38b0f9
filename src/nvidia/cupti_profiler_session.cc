#include "nvidia/cupti_profiler_session.h"

#include "nvidia/cupti_profiler_initialization.h"
#include "platform/logging.h"

namespace opengpa::nvidia::cupti {

GpaStatus ProfilerSession::Begin(const CuptiLibrary& cupti, std::unique_ptr<ProfilerSession>* session) {
  if (CUptiResult result = InitializeCuptiProfiler(cupti.Api().profiler_initialize); result != CUPTI_SUCCESS) {
    return LogError(kGpaStatusErrorDriverNotSupported, "CUPTI PM sampling: cuptiProfilerInitialize failed: {}{}",
                    cupti.Describe(result),
                    result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                        ? " (another CUPTI client, e.g. a profiler, is active in this process)"
                        : "");
  }
  *session = std::make_unique<ProfilerSession>();
  return kGpaStatusOk;
}

GpaStatus ChipName(const CuptiLibrary& cupti, int ordinal, std::string* chip) {
  auto params = MakeParams<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  params.deviceIndex = static_cast<size_t>(ordinal);
  if (CUptiResult r = cupti.Api().device_get_chip_name(&params); r != CUPTI_SUCCESS || params.pChipName == nullptr) {
    return LogError(kGpaStatusErrorHardwareNotSupported, "CUPTI PM sampling: cuptiDeviceGetChipName({}) failed: {}",
                    ordinal, cupti.Describe(r));
  }
  *chip = params.pChipName;
  return kGpaStatusOk;
}

}  // namespace opengpa::nvidia::cupti
