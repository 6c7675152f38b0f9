// CUPTI's functions, defined here and forwarded to libcupti loaded at the first call (cupti_loader.h), so the
// libraries that use them have no NEEDED entry for libcupti and load without CUDA. Each definition has the
// signature of CUPTI's own header (a mismatch does not compile); the libraries' version scripts keep these
// names local, so a program that links the real libcupti is not affected.
//
// When CUPTI cannot be loaded every call returns CUPTI_ERROR_NOT_INITIALIZED, and cuptiGetResultString says
// why (the callers put that text in their log line: cupti_status.h), so whichever CUDA call comes first reports
// that CUPTI is missing and what was searched.
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <string>

#include "nvidia/cupti_loader.h"
#include "platform/dynamic_library.h"

namespace {

template <typename Function>
Function Real(const char* name) {
  const opengpa::DynamicLibrary* cupti = opengpa::nvidia::LoadedCupti();
  return cupti == nullptr ? nullptr : cupti->Get<Function>(name);
}

constexpr CUptiResult kCuptiMissing = CUPTI_ERROR_NOT_INITIALIZED;

}  // namespace

// A CUPTI entry point with these parameters, forwarded with these arguments. The pointer is resolved once.
// The macros' arguments are a parameter list, an argument list and a type: parentheses around them would make
// declarations of casts, so bugprone-macro-parentheses is off for these two definitions.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define OPENGPA_CUPTI_FORWARD(name, parameters, arguments)   \
  CUptiResult CUPTIAPI name parameters {                     \
    static const auto real = Real<decltype(&name)>(#name);   \
    return real != nullptr ? real arguments : kCuptiMissing; \
  }
// The profiler API's usual shape: one parameter block.
#define OPENGPA_CUPTI_FORWARD_PARAMS(name, Params) OPENGPA_CUPTI_FORWARD(name, (Params * params), (params))
// NOLINTEND(bugprone-macro-parentheses)

extern "C" {

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char** text) {
  static const auto real = Real<decltype(&cuptiGetResultString)>("cuptiGetResultString");
  if (real != nullptr) return real(result, text);
  if (text == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  static const std::string why = [] {
    std::string reason;
    opengpa::nvidia::LoadedCupti(&reason);
    return reason.empty() ? std::string("libcupti.so.13 does not export cuptiGetResultString") : reason;
  }();
  *text = why.c_str();
  return CUPTI_SUCCESS;
}

OPENGPA_CUPTI_FORWARD(cuptiSubscribe, (CUpti_SubscriberHandle * subscriber, CUpti_CallbackFunc callback, void* data),
                      (subscriber, callback, data))
OPENGPA_CUPTI_FORWARD(cuptiUnsubscribe, (CUpti_SubscriberHandle subscriber), (subscriber))
OPENGPA_CUPTI_FORWARD(cuptiEnableCallback,
                      (uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain,
                       CUpti_CallbackId id),
                      (enable, subscriber, domain, id))
OPENGPA_CUPTI_FORWARD(cuptiEnableDomain,
                      (uint32_t enable, CUpti_SubscriberHandle subscriber, CUpti_CallbackDomain domain),
                      (enable, subscriber, domain))
OPENGPA_CUPTI_FORWARD(cuptiGetStreamIdEx, (CUcontext context, CUstream stream, uint8_t per_thread, uint32_t* id),
                      (context, stream, per_thread, id))
OPENGPA_CUPTI_FORWARD(cuptiGetGraphExecId, (CUgraphExec graph, uint32_t* id), (graph, id))
// The activity API: the sampled mode's kernel, copy and memset records (src/profiler/kernel_timeline.h).
OPENGPA_CUPTI_FORWARD(cuptiActivityEnable, (CUpti_ActivityKind kind), (kind))
OPENGPA_CUPTI_FORWARD(cuptiActivityDisable, (CUpti_ActivityKind kind), (kind))
OPENGPA_CUPTI_FORWARD(cuptiActivityRegisterCallbacks,
                      (CUpti_BuffersCallbackRequestFunc requested, CUpti_BuffersCallbackCompleteFunc completed),
                      (requested, completed))
OPENGPA_CUPTI_FORWARD(cuptiActivityGetNextRecord, (uint8_t * buffer, size_t valid, CUpti_Activity** record),
                      (buffer, valid, record))
OPENGPA_CUPTI_FORWARD(cuptiActivityGetNumDroppedRecords, (CUcontext context, uint32_t stream, size_t* dropped),
                      (context, stream, dropped))
OPENGPA_CUPTI_FORWARD(cuptiActivityFlushAll, (uint32_t flag), (flag))

OPENGPA_CUPTI_FORWARD_PARAMS(cuptiDeviceGetChipName, CUpti_Device_GetChipName_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerInitialize, CUpti_Profiler_Initialize_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerDeviceSupported, CUpti_Profiler_DeviceSupported_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerGetCounterAvailability, CUpti_Profiler_GetCounterAvailability_Params)

OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostInitialize, CUpti_Profiler_Host_Initialize_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostDeinitialize, CUpti_Profiler_Host_Deinitialize_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostGetSupportedChips, CUpti_Profiler_Host_GetSupportedChips_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostGetBaseMetrics, CUpti_Profiler_Host_GetBaseMetrics_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostGetSubMetrics, CUpti_Profiler_Host_GetSubMetrics_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostGetMetricProperties, CUpti_Profiler_Host_GetMetricProperties_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostGetRangeName, CUpti_Profiler_Host_GetRangeName_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostEvaluateToGpuValues, CUpti_Profiler_Host_EvaluateToGpuValues_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostConfigAddMetrics, CUpti_Profiler_Host_ConfigAddMetrics_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostGetConfigImageSize, CUpti_Profiler_Host_GetConfigImageSize_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostGetConfigImage, CUpti_Profiler_Host_GetConfigImage_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiProfilerHostGetNumOfPasses, CUpti_Profiler_Host_GetNumOfPasses_Params)

OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerEnable, CUpti_RangeProfiler_Enable_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerDisable, CUpti_RangeProfiler_Disable_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerSetConfig, CUpti_RangeProfiler_SetConfig_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerStart, CUpti_RangeProfiler_Start_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerStop, CUpti_RangeProfiler_Stop_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerPushRange, CUpti_RangeProfiler_PushRange_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerPopRange, CUpti_RangeProfiler_PopRange_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerDecodeData, CUpti_RangeProfiler_DecodeData_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerGetCounterDataSize, CUpti_RangeProfiler_GetCounterDataSize_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerGetCounterDataInfo, CUpti_RangeProfiler_GetCounterDataInfo_Params)
OPENGPA_CUPTI_FORWARD_PARAMS(cuptiRangeProfilerCounterDataImageInitialize,
                             CUpti_RangeProfiler_CounterDataImage_Initialize_Params)

}  // extern "C"
