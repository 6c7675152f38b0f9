// PerfWorks' two libraries, libnvperf_host.so (metric names, configurations, evaluation: works without a GPU)
// and libnvperf_target.so (devices, the GPU periodic sampler, the Vulkan and EGL driver hooks), loaded once per
// process and initialised, with every entry point OpenGPA calls resolved (declarations: perfworks_api.h).
//
// They ship with CUDA's CUPTI; a machine without them still runs every library, whose graphics backends then
// keep their API counters and say once why hardware ones are absent.
#ifndef OPENGPA_NVIDIA_PERFWORKS_LIBRARY_H_
#define OPENGPA_NVIDIA_PERFWORKS_LIBRARY_H_

#include <memory>
#include <string>
#include <vector>

#include "nvidia/perfworks_api.h"
#include "platform/dynamic_library.h"

namespace opengpa::nvidia::perfworks {

struct HostFunctions {
  Entry<InitializeParams> initialize = nullptr;
  Entry<DeviceRawMetricsConfigCreateParams> raw_config_create = nullptr;
  Entry<RawConfigParams> raw_config_destroy = nullptr;
  Entry<RawConfigSetCounterAvailabilityParams> raw_config_set_counter_availability = nullptr;
  Entry<RawConfigBeginPassGroupParams> raw_config_begin_pass_group = nullptr;
  Entry<RawConfigAddMetricsParams> raw_config_add_metrics = nullptr;
  Entry<RawConfigIsAddMetricsPossibleParams> raw_config_is_add_metrics_possible = nullptr;
  Entry<RawConfigParams> raw_config_end_pass_group = nullptr;
  Entry<RawConfigGenerateImageParams> raw_config_generate_image = nullptr;
  Entry<RawConfigGetImageParams> raw_config_get_image = nullptr;
  Entry<RawConfigGetNumPassesParams> raw_config_get_num_passes = nullptr;
  Entry<CounterDataBuilderCreateParams> builder_create = nullptr;
  Entry<CounterDataBuilderParams> builder_destroy = nullptr;
  Entry<CounterDataBuilderAddMetricsParams> builder_add_metrics = nullptr;
  Entry<CounterDataBuilderGetPrefixParams> builder_get_prefix = nullptr;
  Entry<DeviceEvaluatorScratchSizeParams> evaluator_scratch_size = nullptr;
  Entry<DeviceEvaluatorInitializeParams> evaluator_initialize = nullptr;
  Entry<EvaluatorDestroyParams> evaluator_destroy = nullptr;
  Entry<EvaluatorGetMetricNamesParams> evaluator_get_metric_names = nullptr;
  Entry<EvaluatorNameToRequestParams> evaluator_name_to_request = nullptr;
  Entry<EvaluatorRawDependenciesParams> evaluator_raw_dependencies = nullptr;
  Entry<EvaluatorSetDeviceAttributesParams> evaluator_set_device_attributes = nullptr;
  Entry<EvaluatorEvaluateParams> evaluator_evaluate = nullptr;
  Entry<EvaluatorCounterPropertiesParams> evaluator_counter_properties = nullptr;
  Entry<EvaluatorRatioPropertiesParams> evaluator_ratio_properties = nullptr;
  Entry<EvaluatorThroughputPropertiesParams> evaluator_throughput_properties = nullptr;
  Entry<EvaluatorHwUnitToStringParams> evaluator_hw_unit_to_string = nullptr;
};

struct TargetFunctions {
  Entry<InitializeParams> initialize = nullptr;
  Entry<GetDeviceCountParams> get_device_count = nullptr;
  Entry<DeviceGetNamesParams> device_get_names = nullptr;
  Entry<DeviceGetClockStatusParams> device_get_clock_status = nullptr;
  Entry<DeviceGetPciBusIdsParams> device_get_pci_bus_ids = nullptr;
  Entry<VkLoadDriverParams> vk_load_driver = nullptr;
  Entry<VkDeviceGetIndexParams> vk_device_get_index = nullptr;
  Entry<VkInsertTriggerParams> vk_insert_trigger = nullptr;
  Entry<EglLoadDriverParams> egl_load_driver = nullptr;
  Entry<EglContextGetDeviceIndexParams> egl_context_get_device_index = nullptr;
  Entry<OpenGlLoadDriverParams> opengl_load_driver = nullptr;
  Entry<OpenGlContextGetDeviceIndexParams> opengl_context_get_device_index = nullptr;
  Entry<SamplerIsGpuSupportedParams> sampler_is_gpu_supported = nullptr;
  Entry<SamplerGetTriggerSourcesParams> sampler_get_trigger_sources = nullptr;
  Entry<SamplerRecordBufferSizeParams> sampler_record_buffer_size = nullptr;
  Entry<SamplerBeginSessionParams> sampler_begin_session = nullptr;
  Entry<SamplerDeviceParams> sampler_end_session = nullptr;
  Entry<SamplerCounterAvailabilityParams> sampler_counter_availability = nullptr;
  Entry<SamplerSetConfigParams> sampler_set_config = nullptr;
  Entry<SamplerDeviceParams> sampler_start = nullptr;
  Entry<SamplerDeviceParams> sampler_stop = nullptr;
  Entry<SamplerDeviceParams> sampler_cpu_trigger = nullptr;
  Entry<SamplerCounterDataSizeParams> sampler_counter_data_size = nullptr;
  Entry<SamplerCounterDataInitializeParams> sampler_counter_data_initialize = nullptr;
  Entry<SamplerDecodeParams> sampler_decode = nullptr;
  Entry<CounterDataGetInfoParams> counter_data_get_info = nullptr;
  Entry<CounterDataGetSampleTimeParams> counter_data_get_sample_time = nullptr;
  Entry<CounterDataGetTriggerCountParams> counter_data_get_trigger_count = nullptr;
};

// $OPENGPA_NVPERF_HOST_LIBRARY / $OPENGPA_NVPERF_TARGET_LIBRARY when set, then the soname and the CUDA
// toolkit's folders.
std::vector<std::string> DefaultHostCandidates();
std::vector<std::string> DefaultTargetCandidates();

class PerfWorksLibrary {
 public:
  // The process's one instance, loaded and initialised on first use; nullptr with *why (what was tried, what
  // failed) when the libraries are missing or too old. Later calls return the same answer.
  static const PerfWorksLibrary* Get(std::string* why);
  // A fresh load from explicit candidates, for tests; the host library alone when `target` is empty.
  static std::unique_ptr<PerfWorksLibrary> Load(const std::vector<std::string>& host,
                                                const std::vector<std::string>& target, std::string* why);

  const HostFunctions& Host() const { return host_; }
  const TargetFunctions& Target() const { return target_; }
  bool HasTarget() const { return target_library_ != nullptr; }
  std::string HostPath() const { return host_library_->Name(); }
  std::string TargetPath() const { return target_library_ ? target_library_->Name() : std::string(); }

  PerfWorksLibrary(std::unique_ptr<DynamicLibrary> host, std::unique_ptr<DynamicLibrary> target)
      : host_library_(std::move(host)), target_library_(std::move(target)) {}

 private:
  std::unique_ptr<DynamicLibrary> host_library_;
  std::unique_ptr<DynamicLibrary> target_library_;
  HostFunctions host_;
  TargetFunctions target_;
};

// "NVPA_STATUS_RESOURCE_UNAVAILABLE (20)" and the like, for log messages.
std::string StatusName(Status status);

// A zero-initialised parameter block with its size set to what the library expects (ParamsSize).
template <typename Params>
Params MakeParams() {
  Params params{};
  params.struct_size = ParamsSize(static_cast<const Params*>(nullptr));
  return params;
}

}  // namespace opengpa::nvidia::perfworks

#endif  // OPENGPA_NVIDIA_PERFWORKS_LIBRARY_H_
