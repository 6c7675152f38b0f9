#include "nvidia/cupti_pm_library.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "platform/logging.h"

namespace opengpa::nvidia::cupti {

std::vector<std::string> DefaultCuptiCandidates() {
  return LibraryCandidates({}, "OPENGPA_CUPTI_LIBRARY",
                           {"libcupti.so.13", "libcupti.so", "/usr/local/cuda/lib64/libcupti.so.13",
                            "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13"});
}

GpaStatus CuptiLibrary::Load(const std::vector<std::string>& candidates, std::unique_ptr<CuptiLibrary>* library) {
  library->reset();
  std::string error;
  std::unique_ptr<DynamicLibrary> loaded = DynamicLibrary::Open(candidates, &error, DynamicLibrary::Unload::kNever);
  if (loaded == nullptr) {
    return LogError(kGpaStatusErrorLibLoadFailed, "CUPTI PM sampling: cannot load {}: {}",
                    fmt::join(candidates, " or "), error);
  }
  CuptiFunctions f;
  EntryPointResolver resolve(*loaded);
  resolve("cuptiGetResultString", &f.get_result_string);
  resolve("cuptiGetTimestamp", &f.get_timestamp);
  resolve("cuptiProfilerInitialize", &f.profiler_initialize);
  resolve("cuptiDeviceGetChipName", &f.device_get_chip_name);
  resolve("cuptiProfilerHostInitialize", &f.host_initialize);
  resolve("cuptiProfilerHostDeinitialize", &f.host_deinitialize);
  resolve("cuptiProfilerHostGetBaseMetrics", &f.host_get_base_metrics);
  resolve("cuptiProfilerHostGetMetricProperties", &f.host_get_metric_properties);
  resolve("cuptiProfilerHostConfigAddMetrics", &f.host_config_add_metrics);
  resolve("cuptiProfilerHostGetConfigImageSize", &f.host_get_config_image_size);
  resolve("cuptiProfilerHostGetConfigImage", &f.host_get_config_image);
  resolve("cuptiProfilerHostGetNumOfPasses", &f.host_get_num_of_passes);
  resolve("cuptiProfilerHostEvaluateToGpuValues", &f.host_evaluate_to_gpu_values);
  resolve("cuptiPmSamplingGetCounterAvailability", &f.pm_get_counter_availability);
  resolve("cuptiPmSamplingEnable", &f.pm_enable);
  resolve("cuptiPmSamplingDisable", &f.pm_disable);
  resolve("cuptiPmSamplingSetConfig", &f.pm_set_config);
  resolve("cuptiPmSamplingStart", &f.pm_start);
  resolve("cuptiPmSamplingStop", &f.pm_stop);
  resolve("cuptiPmSamplingDecodeData", &f.pm_decode_data);
  resolve("cuptiPmSamplingGetCounterDataSize", &f.pm_get_counter_data_size);
  resolve("cuptiPmSamplingCounterDataImageInitialize", &f.pm_counter_data_image_initialize);
  resolve("cuptiPmSamplingGetCounterDataInfo", &f.pm_get_counter_data_info);
  resolve("cuptiPmSamplingCounterDataGetSampleInfo", &f.pm_counter_data_get_sample_info);
  if (!resolve.Missing().empty()) {
    return LogError(kGpaStatusErrorDriverNotSupported,
                    "CUPTI PM sampling: {} does not export {} (PM sampling needs CUPTI 13)", loaded->Name(),
                    resolve.Missing());
  }
  *library = std::make_unique<CuptiLibrary>(std::move(loaded), f);
  return kGpaStatusOk;
}

std::string CuptiLibrary::Describe(CUptiResult result) const {
  const char* text = nullptr;
  if (functions_.get_result_string(result, &text) != CUPTI_SUCCESS || text == nullptr) text = "unknown CUPTI result";
  return fmt::format("{} ({})", text, static_cast<int>(result));
}

}  // namespace opengpa::nvidia::cupti
