// Which offline BackendContext a GpaCounterLibOpenCounterContext call gets, from GPA's parameters:
//   kGpaApiCuda (OpenGPA's API value)       vendor 0x10DE and a PCI device id of a known board -> that chip
//                                           through CUPTI's host API (nvidia_device_ids.cc)
//   kGpaApiVulkan / kGpaApiOpenGl / kGpaApiOpencl   that API's catalog, for any vendor: the catalogs are
//                                           vendor-independent; with vendor 0x13B5 and a Mali G1's device id the
//                                           Mali G1 counters too (arm_mali_counters.h); other ids are only
//                                           reported back
//   kGpaApiDirectx11 / kGpaApiDirectx12     kGpaStatusErrorApiNotSupported (no such backend)
// Every refusal is logged with the value that caused it.
#ifndef OPENGPA_COUNTER_LIBRARY_DEVICE_SELECTION_H_
#define OPENGPA_COUNTER_LIBRARY_DEVICE_SELECTION_H_

#include <memory>
#include <string>

#include "core/backend.h"
#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "platform/logging.h"

namespace opengpa::counter_library {

// `api` is the caller's GpaApiType (v3's numbering) as an int (platform/enum_argument.h): C may pass any int.
// Refusals are logged under `function`, the entry point that asked.
[[nodiscard]] GpaStatus OpenOfflineBackend(const char* function, int api,
                                           const GpaCounterContextHardwareInfo& hardware_info,
                                           std::unique_ptr<BackendContext>* out);

// Defined only when the CUDA backend is built (cuda_chip_context.cc).
[[nodiscard]] GpaStatus OpenCudaChipContext(const std::string& chip, std::unique_ptr<BackendContext>* out);

}  // namespace opengpa::counter_library

#endif  // OPENGPA_COUNTER_LIBRARY_DEVICE_SELECTION_H_
