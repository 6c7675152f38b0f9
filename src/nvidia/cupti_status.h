// Turning a failed CUPTI call into GPA's vocabulary: a log line naming the call and CUPTI's own words,
// and the GpaStatus the application will see.
#ifndef OPENGPA_NVIDIA_CUPTI_STATUS_H_
#define OPENGPA_NVIDIA_CUPTI_STATUS_H_

#include <cupti_result.h>

#include <string>
#include <string_view>

#include "gpu_performance_api/gpu_perf_api_types.h"

namespace opengpa::nvidia {

// CUPTI's name for `result`, e.g. "CUPTI_ERROR_NOT_SUPPORTED".
std::string CuptiResultText(CUptiResult result);

// The GPA status a failed CUPTI call maps to (kGpaStatusOk for CUPTI_SUCCESS).
GpaStatus ToGpaStatus(CUptiResult result);

// Logs "<call> failed: <CUPTI's words> (<detail>)" and returns ToGpaStatus(result).
GpaStatus CuptiFailure(CUptiResult result, std::string_view call, std::string_view detail = {});

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_CUPTI_STATUS_H_
