#include "nvidia/cupti_range_session.h"

#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <mutex>
#include <utility>

#include "nvidia/cupti_profiler_initialization.h"
#include "nvidia/cupti_status.h"
#include "platform/logging.h"

namespace opengpa::nvidia {
namespace {

const char* SupportLevelText(CUpti_Profiler_Support_Level level) {
  switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
    default: return "unknown";
  }
}

}  // namespace

GpaStatus EnsureCuptiProfilerInitialized() {
  if (const CUptiResult result = InitializeCuptiProfiler(&cuptiProfilerInitialize); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerInitialize");
  }
  return kGpaStatusOk;
}

GpaStatus CuptiChipName(CUdevice device, std::string* chip) {
  CUpti_Device_GetChipName_Params params{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  params.deviceIndex = static_cast<std::size_t>(device);
  if (const CUptiResult result = cuptiDeviceGetChipName(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiDeviceGetChipName", fmt::format("device {}", device));
  }
  *chip = params.pChipName != nullptr ? params.pChipName : "";
  return kGpaStatusOk;
}

GpaStatus CheckDeviceSupportsRangeProfiling(CUdevice device) {
  CUpti_Profiler_DeviceSupported_Params params{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  params.cuDevice = device;
  params.api = CUPTI_PROFILER_RANGE_PROFILING;
  if (const CUptiResult result = cuptiProfilerDeviceSupported(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerDeviceSupported", fmt::format("device {}", device));
  }
  if (params.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return kGpaStatusOk;
  return LogError(kGpaStatusErrorHardwareNotSupported,
                  "CUPTI cannot profile device {}: architecture {}, SLI {}, vGPU {}, confidential compute {}, CMP {}, "
                  "WSL {}",
                  device, SupportLevelText(params.architecture), SupportLevelText(params.sli),
                  SupportLevelText(params.vGpu), SupportLevelText(params.confidentialCompute),
                  SupportLevelText(params.cmp), SupportLevelText(params.wsl));
}

GpaStatus CounterAvailabilityImage(CUcontext context, std::vector<std::uint8_t>* image) {
  CUpti_Profiler_GetCounterAvailability_Params params{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  params.ctx = context;
  if (const CUptiResult result = cuptiProfilerGetCounterAvailability(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerGetCounterAvailability (size)");
  }
  image->resize(params.counterAvailabilityImageSize);
  params.pCounterAvailabilityImage = image->data();
  if (const CUptiResult result = cuptiProfilerGetCounterAvailability(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiProfilerGetCounterAvailability");
  }
  image->resize(params.counterAvailabilityImageSize);
  return kGpaStatusOk;
}

void CuptiRangeSession::Disabler::operator()(CUpti_RangeProfiler_Object* object) const {
  CUpti_RangeProfiler_Disable_Params params{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = object;
  if (const CUptiResult result = cuptiRangeProfilerDisable(&params); result != CUPTI_SUCCESS) {
    CuptiFailure(result, "cuptiRangeProfilerDisable");
  }
}

CuptiRangeSession::CuptiRangeSession(Key, const CuptiMetricConfig& config, const RangeProfilerOptions& options,
                                     ObjectPtr object)
    : config_(config), options_(options), object_(std::move(object)) {}

CuptiRangeSession::~CuptiRangeSession() {
  if (started_) {
    // A pass left open (its session abandoned): stopped so that profiling can be disabled; a failure is logged.
    bool all_submitted = false;
    static_cast<void>(Stop(&all_submitted));
  }
}

GpaStatus CuptiRangeSession::Create(CUcontext context, const CuptiMetricConfig& config,
                                    const RangeProfilerOptions& options, std::unique_ptr<CuptiRangeSession>* out) {
  if (GpaStatus status = EnsureCuptiProfilerInitialized(); status != kGpaStatusOk) return status;
  CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  enable.ctx = context;
  if (const CUptiResult result = cuptiRangeProfilerEnable(&enable); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiRangeProfilerEnable",
                        "is another profiler (ncu, nsys, a CUPTI tool) attached to this context?");
  }
  auto session = std::make_unique<CuptiRangeSession>(Key{}, config, options, ObjectPtr(enable.pRangeProfilerObject));

  std::vector<const char*> names;
  for (const std::string& metric : config.metrics()) names.push_back(metric.c_str());
  CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  size.pRangeProfilerObject = session->object_.get();
  size.pMetricNames = names.data();
  size.numMetrics = names.size();
  size.maxNumOfRanges = options.max_ranges_per_pass;
  size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(options.max_ranges_per_pass);
  if (const CUptiResult result = cuptiRangeProfilerGetCounterDataSize(&size); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiRangeProfilerGetCounterDataSize",
                        fmt::format("{} metrics, {} ranges", names.size(), options.max_ranges_per_pass));
  }
  session->counter_data_.resize(size.counterDataSize);
  if (GpaStatus status = session->InitializeCounterData(); status != kGpaStatusOk) return status;
  if (GpaStatus status = session->SetConfig(); status != kGpaStatusOk) return status;
  *out = std::move(session);
  return kGpaStatusOk;
}

RangeProfilerFactory CuptiRangeProfilerFactory() {
  return [](CUcontext context, const CuptiMetricConfig& config, const RangeProfilerOptions& options,
            std::unique_ptr<RangeProfiler>* out) {
    std::unique_ptr<CuptiRangeSession> session;
    const GpaStatus status = CuptiRangeSession::Create(context, config, options, &session);
    *out = std::move(session);
    return status;
  };
}

GpaStatus CuptiRangeSession::RangeCount(std::size_t* count) const {
  return CounterDataRangeCount(counter_data_, count);
}

GpaStatus CuptiRangeSession::RangeName(std::size_t range, std::string* name) const {
  return CounterDataRangeName(counter_data_, range, name);
}

GpaStatus CuptiRangeSession::EvaluateRange(std::size_t range, double* values) const {
  return config_.Evaluate(counter_data_, range, values);
}

GpaStatus CuptiRangeSession::InitializeCounterData() {
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  init.pRangeProfilerObject = object_.get();
  init.counterDataSize = counter_data_.size();
  init.pCounterData = counter_data_.data();
  if (const CUptiResult result = cuptiRangeProfilerCounterDataImageInitialize(&init); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiRangeProfilerCounterDataImageInitialize");
  }
  return kGpaStatusOk;
}

GpaStatus CuptiRangeSession::SetConfig() {
  CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  set.pRangeProfilerObject = object_.get();
  set.configSize = config_.image().size();
  set.pConfig = config_.image().data();
  set.counterDataImageSize = counter_data_.size();
  set.pCounterDataImage = counter_data_.data();
  set.range = options_.range;
  set.replayMode = options_.replay;
  set.maxRangesPerPass = options_.max_ranges_per_pass;
  set.numNestingLevels = options_.nesting_levels;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  if (const CUptiResult result = cuptiRangeProfilerSetConfig(&set); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiRangeProfilerSetConfig",
                        fmt::format("{} metrics in {} passes, {} ranges per pass", config_.metrics().size(),
                                    config_.pass_count(), options_.max_ranges_per_pass));
  }
  return kGpaStatusOk;
}

GpaStatus CuptiRangeSession::ResetCounterData(bool set_config) {
  if (started_) return LogError(kGpaStatusErrorFailed, "the counter data of a running range profiler cannot be reset");
  if (GpaStatus status = InitializeCounterData(); status != kGpaStatusOk) return status;
  return set_config ? SetConfig() : kGpaStatusOk;
}

GpaStatus CuptiRangeSession::Start() {
  CUpti_RangeProfiler_Start_Params params{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = object_.get();
  if (const CUptiResult result = cuptiRangeProfilerStart(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiRangeProfilerStart");
  }
  started_ = true;
  return kGpaStatusOk;
}

GpaStatus CuptiRangeSession::Stop(bool* all_passes_submitted) {
  CUpti_RangeProfiler_Stop_Params params{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = object_.get();
  started_ = false;
  if (const CUptiResult result = cuptiRangeProfilerStop(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiRangeProfilerStop");
  }
  *all_passes_submitted = params.isAllPassSubmitted != 0;
  return kGpaStatusOk;
}

GpaStatus CuptiRangeSession::PushRange(const char* name) {
  CUpti_RangeProfiler_PushRange_Params params{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = object_.get();
  params.pRangeName = name;
  if (const CUptiResult result = cuptiRangeProfilerPushRange(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiRangeProfilerPushRange", name);
  }
  return kGpaStatusOk;
}

GpaStatus CuptiRangeSession::PopRange() {
  CUpti_RangeProfiler_PopRange_Params params{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = object_.get();
  if (const CUptiResult result = cuptiRangeProfilerPopRange(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiRangeProfilerPopRange");
  }
  return kGpaStatusOk;
}

GpaStatus CuptiRangeSession::Decode(std::size_t* ranges_dropped) {
  CUpti_RangeProfiler_DecodeData_Params params{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = object_.get();
  if (const CUptiResult result = cuptiRangeProfilerDecodeData(&params); result != CUPTI_SUCCESS) {
    return CuptiFailure(result, "cuptiRangeProfilerDecodeData");
  }
  *ranges_dropped = params.numOfRangeDropped;
  return kGpaStatusOk;
}

}  // namespace opengpa::nvidia
