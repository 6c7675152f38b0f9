#include "nvidia/cupti_profiler_session.h"

#include "platform/logging.h"

namespace opengpa::nvidia::cupti {

GpaStatus ProfilerSession::Begin(const CuptiLibrary& cupti, std::unique_ptr<ProfilerSession>* session) {
  std::lock_guard<std::mutex> lock(Mutex());
  if (Users() == 0) {
    auto params = MakeParams<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    if (CUptiResult result = cupti.Api().profiler_initialize(&params); result != CUPTI_SUCCESS) {
      return LogError(kGpaStatusErrorDriverNotSupported,
                      "CUPTI PM sampling: cuptiProfilerInitialize failed: {}{}", cupti.Describe(result),
                      result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                          ? " (another CUPTI client, e.g. a profiler, is active in this process)"
                          : "");
    }
  }
  ++Users();
  *session = std::make_unique<ProfilerSession>(cupti);
  return kGpaStatusOk;
}

ProfilerSession::~ProfilerSession() {
  std::lock_guard<std::mutex> lock(Mutex());
  if (--Users() > 0) return;
  auto params = MakeParams<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
  cupti_.Api().profiler_deinitialize(&params);
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
