#include "nvidia/perfworks_library.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <mutex>

namespace opengpa::nvidia::perfworks {
namespace {

// The CUDA toolkit's folders, where CUPTI puts PerfWorks beside itself.
std::vector<std::string> ToolkitCandidates(const char* file) {
  return {file, fmt::format("/usr/local/cuda/lib64/{}", file),
          fmt::format("/usr/local/cuda/extras/CUPTI/lib64/{}", file),
          fmt::format("/usr/local/cuda/targets/x86_64-linux/lib/{}", file), fmt::format("/opt/cuda/lib64/{}", file)};
}

// Resolves each entry point, remembering the first that is missing.
class Resolver {
 public:
  explicit Resolver(const DynamicLibrary& library) : library_(library) {}
  template <typename Function>
  void operator()(const char* symbol, Function* function) {
    if (!library_.Resolve(symbol, function) && missing_.empty()) missing_ = symbol;
  }
  const std::string& Missing() const { return missing_; }

 private:
  const DynamicLibrary& library_;
  std::string missing_;
};

void ResolveHost(Resolver& r, HostFunctions* f) {
  r("NVPW_InitializeHost", &f->initialize);
  r("NVPW_Device_RawMetricsConfig_Create", &f->raw_config_create);
  r("NVPW_RawMetricsConfig_Destroy", &f->raw_config_destroy);
  r("NVPW_RawMetricsConfig_SetCounterAvailability", &f->raw_config_set_counter_availability);
  r("NVPW_RawMetricsConfig_BeginPassGroup", &f->raw_config_begin_pass_group);
  r("NVPW_RawMetricsConfig_AddMetrics", &f->raw_config_add_metrics);
  r("NVPW_RawMetricsConfig_IsAddMetricsPossible", &f->raw_config_is_add_metrics_possible);
  r("NVPW_RawMetricsConfig_EndPassGroup", &f->raw_config_end_pass_group);
  r("NVPW_RawMetricsConfig_GenerateConfigImage", &f->raw_config_generate_image);
  r("NVPW_RawMetricsConfig_GetConfigImage", &f->raw_config_get_image);
  r("NVPW_RawMetricsConfig_GetNumPasses_V2", &f->raw_config_get_num_passes);
  r("NVPW_CounterDataBuilder_Create", &f->builder_create);
  r("NVPW_CounterDataBuilder_Destroy", &f->builder_destroy);
  r("NVPW_CounterDataBuilder_AddMetrics", &f->builder_add_metrics);
  r("NVPW_CounterDataBuilder_GetCounterDataPrefix", &f->builder_get_prefix);
  r("NVPW_Device_MetricsEvaluator_CalculateScratchBufferSize", &f->evaluator_scratch_size);
  r("NVPW_Device_MetricsEvaluator_Initialize", &f->evaluator_initialize);
  r("NVPW_MetricsEvaluator_Destroy", &f->evaluator_destroy);
  r("NVPW_MetricsEvaluator_GetMetricNames", &f->evaluator_get_metric_names);
  r("NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest", &f->evaluator_name_to_request);
  r("NVPW_MetricsEvaluator_GetMetricRawDependencies", &f->evaluator_raw_dependencies);
  r("NVPW_MetricsEvaluator_SetDeviceAttributes", &f->evaluator_set_device_attributes);
  r("NVPW_MetricsEvaluator_EvaluateToGpuValues", &f->evaluator_evaluate);
  r("NVPW_MetricsEvaluator_GetCounterProperties", &f->evaluator_counter_properties);
  r("NVPW_MetricsEvaluator_GetRatioMetricProperties", &f->evaluator_ratio_properties);
  r("NVPW_MetricsEvaluator_GetThroughputMetricProperties", &f->evaluator_throughput_properties);
  r("NVPW_MetricsEvaluator_HwUnitToString", &f->evaluator_hw_unit_to_string);
}

void ResolveTarget(Resolver& r, TargetFunctions* f) {
  r("NVPW_InitializeTarget", &f->initialize);
  r("NVPW_GetDeviceCount", &f->get_device_count);
  r("NVPW_Device_GetNames", &f->device_get_names);
  r("NVPW_Device_GetClockStatus", &f->device_get_clock_status);
  r("NVPW_Device_GetPciBusIds", &f->device_get_pci_bus_ids);
  r("NVPW_VK_LoadDriver", &f->vk_load_driver);
  r("NVPW_VK_Device_GetDeviceIndex", &f->vk_device_get_index);
  r("NVPW_VK_CommandBuffer_InsertTrigger", &f->vk_insert_trigger);
  r("NVPW_EGL_LoadDriver", &f->egl_load_driver);
  r("NVPW_EGL_GraphicsContext_GetDeviceIndex", &f->egl_context_get_device_index);
  r("NVPW_OpenGL_LoadDriver", &f->opengl_load_driver);
  r("NVPW_OpenGL_GraphicsContext_GetDeviceIndex", &f->opengl_context_get_device_index);
  r("NVPW_GPU_PeriodicSampler_IsGpuSupported", &f->sampler_is_gpu_supported);
  r("NVPW_GPU_PeriodicSampler_GetSupportedTriggerSources", &f->sampler_get_trigger_sources);
  r("NVPW_GPU_PeriodicSampler_CalculateRecordBufferSize", &f->sampler_record_buffer_size);
  r("NVPW_GPU_PeriodicSampler_BeginSession_V2", &f->sampler_begin_session);
  r("NVPW_GPU_PeriodicSampler_EndSession", &f->sampler_end_session);
  r("NVPW_GPU_PeriodicSampler_GetCounterAvailability", &f->sampler_counter_availability);
  r("NVPW_GPU_PeriodicSampler_SetConfig", &f->sampler_set_config);
  r("NVPW_GPU_PeriodicSampler_StartSampling", &f->sampler_start);
  r("NVPW_GPU_PeriodicSampler_StopSampling", &f->sampler_stop);
  r("NVPW_GPU_PeriodicSampler_CpuTrigger", &f->sampler_cpu_trigger);
  r("NVPW_GPU_PeriodicSampler_CounterDataImage_CalculateSize", &f->sampler_counter_data_size);
  r("NVPW_GPU_PeriodicSampler_CounterDataImage_Initialize", &f->sampler_counter_data_initialize);
  r("NVPW_GPU_PeriodicSampler_DecodeCounters_V2", &f->sampler_decode);
  r("NVPW_PeriodicSampler_CounterData_GetInfo", &f->counter_data_get_info);
  r("NVPW_PeriodicSampler_CounterData_GetSampleTime", &f->counter_data_get_sample_time);
  r("NVPW_PeriodicSampler_CounterData_GetTriggerCount", &f->counter_data_get_trigger_count);
}

}  // namespace

std::vector<std::string> DefaultHostCandidates() {
  return LibraryCandidates({}, "OPENGPA_NVPERF_HOST_LIBRARY", ToolkitCandidates("libnvperf_host.so"));
}

std::vector<std::string> DefaultTargetCandidates() {
  return LibraryCandidates({}, "OPENGPA_NVPERF_TARGET_LIBRARY", ToolkitCandidates("libnvperf_target.so"));
}

std::string StatusName(Status status) {
  static constexpr const char* kNames[] = {"NVPA_STATUS_SUCCESS",
                                           "NVPA_STATUS_ERROR",
                                           "NVPA_STATUS_INTERNAL_ERROR",
                                           "NVPA_STATUS_NOT_INITIALIZED",
                                           "NVPA_STATUS_NOT_LOADED",
                                           "NVPA_STATUS_FUNCTION_NOT_FOUND",
                                           "NVPA_STATUS_NOT_SUPPORTED",
                                           "NVPA_STATUS_NOT_IMPLEMENTED",
                                           "NVPA_STATUS_INVALID_ARGUMENT",
                                           "NVPA_STATUS_INVALID_METRIC_ID",
                                           "NVPA_STATUS_DRIVER_NOT_LOADED",
                                           "NVPA_STATUS_OUT_OF_MEMORY",
                                           "NVPA_STATUS_INVALID_THREAD_STATE",
                                           "NVPA_STATUS_FAILED_CONTEXT_ALLOC",
                                           "NVPA_STATUS_UNSUPPORTED_GPU",
                                           "NVPA_STATUS_INSUFFICIENT_DRIVER_VERSION",
                                           "NVPA_STATUS_OBJECT_NOT_REGISTERED",
                                           "NVPA_STATUS_INSUFFICIENT_PRIVILEGE",
                                           "NVPA_STATUS_INVALID_CONTEXT_STATE",
                                           "NVPA_STATUS_INVALID_OBJECT_STATE",
                                           "NVPA_STATUS_RESOURCE_UNAVAILABLE",
                                           "NVPA_STATUS_DRIVER_LOADED_TOO_LATE",
                                           "NVPA_STATUS_INSUFFICIENT_SPACE",
                                           "NVPA_STATUS_OBJECT_MISMATCH",
                                           "NVPA_STATUS_VIRTUALIZED_DEVICE_NOT_SUPPORTED",
                                           "NVPA_STATUS_PROFILING_NOT_ALLOWED"};
  const bool known = status >= 0 && static_cast<std::size_t>(status) < std::size(kNames);
  return fmt::format("{} ({})", known ? kNames[status] : "unknown NVPA status", status);
}

std::unique_ptr<PerfWorksLibrary> PerfWorksLibrary::Load(const std::vector<std::string>& host,
                                                         const std::vector<std::string>& target, std::string* why) {
  std::string error;
  // Never unloaded: the target library registers itself with the driver, like CUPTI.
  auto host_library = DynamicLibrary::Open(host, &error, DynamicLibrary::Unload::kNever);
  if (host_library == nullptr) {
    *why = fmt::format("PerfWorks' host library could not be loaded ({}): {}", fmt::join(host, " or "), error);
    return nullptr;
  }
  std::unique_ptr<DynamicLibrary> target_library;
  if (!target.empty()) {
    target_library = DynamicLibrary::Open(target, &error, DynamicLibrary::Unload::kNever);
    if (target_library == nullptr) {
      *why = fmt::format("PerfWorks' target library could not be loaded ({}): {}", fmt::join(target, " or "), error);
      return nullptr;
    }
  }
  auto library = std::make_unique<PerfWorksLibrary>(std::move(host_library), std::move(target_library));
  Resolver host_resolver(*library->host_library_);
  ResolveHost(host_resolver, &library->host_);
  if (!host_resolver.Missing().empty()) {
    *why = fmt::format("{} lacks {} (PerfWorks from CUDA 12.6 or later is needed)", library->HostPath(),
                       host_resolver.Missing());
    return nullptr;
  }
  auto init = MakeParams<InitializeParams>();
  if (Status status = library->host_.initialize(&init); status != kSuccess) {
    *why = fmt::format("NVPW_InitializeHost failed: {}", StatusName(status));
    return nullptr;
  }
  if (library->target_library_ != nullptr) {
    Resolver target_resolver(*library->target_library_);
    ResolveTarget(target_resolver, &library->target_);
    if (!target_resolver.Missing().empty()) {
      *why = fmt::format("{} lacks {} (PerfWorks from CUDA 12.6 or later is needed)", library->TargetPath(),
                         target_resolver.Missing());
      return nullptr;
    }
    auto target_init = MakeParams<InitializeParams>();
    if (Status status = library->target_.initialize(&target_init); status != kSuccess) {
      *why = fmt::format("NVPW_InitializeTarget failed: {}", StatusName(status));
      return nullptr;
    }
  }
  return library;
}

const PerfWorksLibrary* PerfWorksLibrary::Get(std::string* why) {
  static std::once_flag once;
  static std::unique_ptr<PerfWorksLibrary> library;
  static std::string failure;
  std::call_once(once, [] { library = Load(DefaultHostCandidates(), DefaultTargetCandidates(), &failure); });
  if (library == nullptr && why != nullptr) *why = failure;
  return library.get();
}

}  // namespace opengpa::nvidia::perfworks
