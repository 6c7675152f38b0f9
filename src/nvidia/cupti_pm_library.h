// The CUPTI functions PM sampling needs, reached through dlopen (the CUDA driver: cuda_driver.h): the monitor
// links neither libcuda nor libcupti, so it loads (and NVML monitoring works) on machines without them. The
// toolkit's headers give the types; only compiled when they are present (OPENGPA_WITH_PM_SAMPLING).
#ifndef OPENGPA_NVIDIA_CUPTI_PM_LIBRARY_H_
#define OPENGPA_NVIDIA_CUPTI_PM_LIBRARY_H_

#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <memory>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "platform/dynamic_library.h"

namespace opengpa::nvidia::cupti {

struct CuptiFunctions {
  decltype(&cuptiGetResultString) get_result_string = nullptr;
  decltype(&cuptiGetTimestamp) get_timestamp = nullptr;
  decltype(&cuptiProfilerInitialize) profiler_initialize = nullptr;
  decltype(&cuptiDeviceGetChipName) device_get_chip_name = nullptr;
  decltype(&cuptiProfilerHostInitialize) host_initialize = nullptr;
  decltype(&cuptiProfilerHostDeinitialize) host_deinitialize = nullptr;
  decltype(&cuptiProfilerHostGetBaseMetrics) host_get_base_metrics = nullptr;
  decltype(&cuptiProfilerHostGetMetricProperties) host_get_metric_properties = nullptr;
  decltype(&cuptiProfilerHostConfigAddMetrics) host_config_add_metrics = nullptr;
  decltype(&cuptiProfilerHostGetConfigImageSize) host_get_config_image_size = nullptr;
  decltype(&cuptiProfilerHostGetConfigImage) host_get_config_image = nullptr;
  decltype(&cuptiProfilerHostGetNumOfPasses) host_get_num_of_passes = nullptr;
  decltype(&cuptiProfilerHostEvaluateToGpuValues) host_evaluate_to_gpu_values = nullptr;
  decltype(&cuptiPmSamplingGetCounterAvailability) pm_get_counter_availability = nullptr;
  decltype(&cuptiPmSamplingEnable) pm_enable = nullptr;
  decltype(&cuptiPmSamplingDisable) pm_disable = nullptr;
  decltype(&cuptiPmSamplingSetConfig) pm_set_config = nullptr;
  decltype(&cuptiPmSamplingStart) pm_start = nullptr;
  decltype(&cuptiPmSamplingStop) pm_stop = nullptr;
  decltype(&cuptiPmSamplingDecodeData) pm_decode_data = nullptr;
  decltype(&cuptiPmSamplingGetCounterDataSize) pm_get_counter_data_size = nullptr;
  decltype(&cuptiPmSamplingCounterDataImageInitialize) pm_counter_data_image_initialize = nullptr;
  decltype(&cuptiPmSamplingGetCounterDataInfo) pm_get_counter_data_info = nullptr;
  decltype(&cuptiPmSamplingCounterDataGetSampleInfo) pm_counter_data_get_sample_info = nullptr;
};

// $OPENGPA_CUPTI_LIBRARY when set, then libcupti.so.13 by soname and in the toolkit's usual folders.
std::vector<std::string> DefaultCuptiCandidates();

// libcupti loaded with every function above resolved. Host-only use (metric lists, config images for a
// named chip) needs nothing else: no GPU, no libcuda.
class CuptiLibrary {
 public:
  [[nodiscard]] static GpaStatus Load(const std::vector<std::string>& candidates,
                                      std::unique_ptr<CuptiLibrary>* library);
  CuptiLibrary(std::unique_ptr<DynamicLibrary> library, const CuptiFunctions& functions)
      : library_(std::move(library)), functions_(functions) {}
  const CuptiFunctions& Api() const { return functions_; }
  const std::string& Path() const { return library_->Name(); }
  std::string Describe(CUptiResult result) const;  // "CUPTI_ERROR_INVALID_METRIC_NAME (17)"

 private:
  std::unique_ptr<DynamicLibrary> library_;
  CuptiFunctions functions_;
};

// A zero-initialised CUPTI parameter block with structSize set, as every CUPTI profiler call expects.
template <typename Params>
Params MakeParams(size_t struct_size) {
  Params params{};
  params.structSize = struct_size;
  return params;
}

}  // namespace opengpa::nvidia::cupti

#endif  // OPENGPA_NVIDIA_CUPTI_PM_LIBRARY_H_
