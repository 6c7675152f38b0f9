// OpenGPA's own declarations of the PerfWorks entry points it calls (libnvperf_host.so and
// libnvperf_target.so, which ship with CUDA's CUPTI): the metrics evaluator and raw-metrics configuration of
// the host library, and the device-level GPU periodic sampler with its Vulkan and EGL driver hooks of the
// target library.
//
// Why our own: the CUDA toolkit's nvperf_host.h / nvperf_target.h lack the device, Vulkan and EGL parts, the
// graphics backends must build without any NVIDIA header, and one entry point (the Vulkan engine trigger) has
// no public declaration at all. Each parameter block below has the layout of the Nsight Perf SDK's (read as
// facts from the headers RenderDoc redistributes, renderdoc/driver/ihv/nv/official/PerfSDK/redist/include/):
// every block starts with its size and a reserved pointer, and its size is the offset just past its last
// member, which is what the library checks. The trigger's block was read from the library's own argument
// checks (docs/graphics-counters.md). The libraries are loaded at run time (perfworks_library.h).
#ifndef OPENGPA_NVIDIA_PERFWORKS_API_H_
#define OPENGPA_NVIDIA_PERFWORKS_API_H_

#include <cstddef>
#include <cstdint>

namespace opengpa::nvidia::perfworks {

using Status = int;  // NVPA_Status: 0 success; the codes this project names are below
constexpr Status kSuccess = 0;
constexpr Status kStatusNotSupported = 6;
constexpr Status kStatusDriverNotLoaded = 10;
constexpr Status kStatusUnsupportedGpu = 14;
constexpr Status kStatusInsufficientPrivilege = 17;
constexpr Status kStatusResourceUnavailable = 20;  // another profiling or sampling session holds the counters
constexpr Status kStatusProfilingNotAllowed = 25;
using Bool = std::uint8_t;

struct RawMetricsConfig;  // opaque objects of the host library
struct CounterDataBuilder;
struct MetricsEvaluator;

// --- host library: initialisation, configurations and counter-data prefixes ---------------------------------
struct InitializeParams {  // NVPW_InitializeHost and NVPW_InitializeTarget
  std::size_t struct_size;
  void* priv;
};

enum ActivityKind : int { kActivityProfiler = 1, kActivityRealtimeSampled = 2 };

struct DeviceRawMetricsConfigCreateParams {  // NVPW_Device_RawMetricsConfig_Create
  std::size_t struct_size;
  void* priv;
  int activity_kind;
  const char* chip_name;
  RawMetricsConfig* config;  // out
};

struct RawConfigParams {  // NVPW_RawMetricsConfig_{EndPassGroup,Destroy}
  std::size_t struct_size;
  void* priv;
  RawMetricsConfig* config;
};

struct RawConfigSetCounterAvailabilityParams {
  std::size_t struct_size;
  void* priv;
  RawMetricsConfig* config;
  const std::uint8_t* availability_image;
};

struct RawConfigBeginPassGroupParams {
  std::size_t struct_size;
  void* priv;
  RawMetricsConfig* config;
  std::size_t max_pass_count;
};

struct RawMetricRequest {  // NVPA_RawMetricRequest
  std::size_t struct_size;
  void* priv;
  const char* metric_name;
  Bool isolated;
  Bool keep_instances;
};

struct RawConfigAddMetricsParams {
  std::size_t struct_size;
  void* priv;
  RawMetricsConfig* config;
  const RawMetricRequest* requests;
  std::size_t request_count;
};

struct RawConfigIsAddMetricsPossibleParams {
  std::size_t struct_size;
  void* priv;
  const RawMetricsConfig* config;
  const RawMetricRequest* requests;
  std::size_t request_count;
  Bool possible;  // out
};

struct RawConfigGenerateImageParams {
  std::size_t struct_size;
  void* priv;
  RawMetricsConfig* config;
  Bool merge_all_pass_groups;
};

struct RawConfigGetImageParams {  // also the shape of NVPW_CounterDataBuilder_GetCounterDataPrefix
  std::size_t struct_size;
  void* priv;
  const RawMetricsConfig* config;
  std::size_t bytes_allocated;
  std::uint8_t* buffer;
  std::size_t bytes_copied;  // out
};

struct RawConfigGetNumPassesParams {  // NVPW_RawMetricsConfig_GetNumPasses_V2
  std::size_t struct_size;
  void* priv;
  const RawMetricsConfig* config;
  std::size_t passes;  // out
};

struct CounterDataBuilderCreateParams {
  std::size_t struct_size;
  void* priv;
  CounterDataBuilder* builder;  // out
  const char* chip_name;
};

struct CounterDataBuilderParams {  // NVPW_CounterDataBuilder_Destroy
  std::size_t struct_size;
  void* priv;
  CounterDataBuilder* builder;
};

struct CounterDataBuilderAddMetricsParams {
  std::size_t struct_size;
  void* priv;
  CounterDataBuilder* builder;
  const RawMetricRequest* requests;
  std::size_t request_count;
};

struct CounterDataBuilderGetPrefixParams {
  std::size_t struct_size;
  void* priv;
  CounterDataBuilder* builder;
  std::size_t bytes_allocated;
  std::uint8_t* buffer;
  std::size_t bytes_copied;  // out
};

// --- host library: the device metrics evaluator ------------------------------------------------------------
struct DeviceEvaluatorScratchSizeParams {  // NVPW_Device_MetricsEvaluator_CalculateScratchBufferSize
  std::size_t struct_size;
  void* priv;
  const char* chip_name;
  std::size_t scratch_size;  // out
};

struct DeviceEvaluatorInitializeParams {  // NVPW_Device_MetricsEvaluator_Initialize
  std::size_t struct_size;
  void* priv;
  std::uint8_t* scratch;
  std::size_t scratch_size;
  const char* chip_name;             // a virtual device of this chip, or
  const std::uint8_t* counter_data;  // the device that wrote this counter data (preferred when given)
  std::size_t counter_data_size;
  MetricsEvaluator* evaluator;  // out
};

struct EvaluatorDestroyParams {
  std::size_t struct_size;
  void* priv;
  MetricsEvaluator* evaluator;
};

enum MetricType : std::uint8_t { kMetricCounter = 0, kMetricRatio = 1, kMetricThroughput = 2 };
enum RollupOp : std::uint8_t { kRollupAvg = 0, kRollupMax = 1, kRollupMin = 2, kRollupSum = 3 };
enum Submetric : std::uint16_t {
  kSubmetricNone = 0,
  kSubmetricPctOfPeakSustainedElapsed = 16,
  kSubmetricRatio = 21,
};

struct MetricEvalRequest {  // NVPW_MetricEvalRequest (no size or reserved pointer of its own)
  std::size_t metric_index;
  std::uint8_t metric_type;
  std::uint8_t rollup_op;
  std::uint16_t submetric;
};

struct EvaluatorGetMetricNamesParams {
  std::size_t struct_size;
  void* priv;
  MetricsEvaluator* evaluator;
  std::uint8_t metric_type;
  const char* names;                      // out: every name, each NUL-terminated
  const std::size_t* name_begin_indices;  // out
  std::size_t metric_count;               // out
};

struct EvaluatorNameToRequestParams {  // NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest
  std::size_t struct_size;
  void* priv;
  MetricsEvaluator* evaluator;
  const char* metric_name;
  MetricEvalRequest* request;  // out
  std::size_t request_struct_size;
};

struct EvaluatorRawDependenciesParams {  // NVPW_MetricsEvaluator_GetMetricRawDependencies
  std::size_t struct_size;
  void* priv;
  MetricsEvaluator* evaluator;
  const MetricEvalRequest* requests;
  std::size_t request_count;
  std::size_t request_struct_size;
  std::size_t request_stride;
  const char** raw_dependencies;  // in: room for raw_dependency_count names, or null to count them
  std::size_t raw_dependency_count;
  const char** optional_raw_dependencies;
  std::size_t optional_raw_dependency_count;
};

struct EvaluatorSetDeviceAttributesParams {
  std::size_t struct_size;
  void* priv;
  MetricsEvaluator* evaluator;
  const std::uint8_t* counter_data;
  std::size_t counter_data_size;
};

struct EvaluatorEvaluateParams {  // NVPW_MetricsEvaluator_EvaluateToGpuValues
  std::size_t struct_size;
  void* priv;
  MetricsEvaluator* evaluator;
  const MetricEvalRequest* requests;
  std::size_t request_count;
  std::size_t request_struct_size;
  std::size_t request_stride;
  const std::uint8_t* counter_data;
  std::size_t counter_data_size;
  std::size_t range_index;
  Bool isolated;
  double* values;  // out: one per request
};

struct EvaluatorCounterPropertiesParams {  // NVPW_MetricsEvaluator_GetCounterProperties
  std::size_t struct_size;
  void* priv;
  MetricsEvaluator* evaluator;
  std::size_t counter_index;
  const char* description;  // out
  std::uint32_t hw_unit;    // out
};

struct EvaluatorRatioPropertiesParams {  // NVPW_MetricsEvaluator_GetRatioMetricProperties
  std::size_t struct_size;
  void* priv;
  MetricsEvaluator* evaluator;
  std::size_t ratio_index;
  const char* description;  // out
  std::uint64_t hw_unit;    // out
};

struct EvaluatorThroughputPropertiesParams {  // NVPW_MetricsEvaluator_GetThroughputMetricProperties
  std::size_t struct_size;
  void* priv;
  MetricsEvaluator* evaluator;
  std::size_t throughput_index;
  const char* description;  // out
  std::uint32_t hw_unit;    // out
  std::size_t counter_count;
  const std::size_t* counter_indices;
  std::size_t sub_throughput_count;
  const std::size_t* sub_throughput_indices;
};

struct EvaluatorHwUnitToStringParams {
  std::size_t struct_size;
  void* priv;
  MetricsEvaluator* evaluator;
  std::uint32_t hw_unit;
  const char* name;  // out
};

// --- target library: devices ------------------------------------------------------------------------------
struct GetDeviceCountParams {
  std::size_t struct_size;
  void* priv;
  std::size_t device_count;  // out
};

struct DeviceGetNamesParams {  // NVPW_Device_GetNames
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  const char* device_name;  // out
  const char* chip_name;    // out
};

struct PciBusId {  // NVPW_PciBusId
  std::uint32_t domain;
  std::uint16_t bus;
  std::uint16_t device;
};

struct DeviceGetPciBusIdsParams {  // NVPW_Device_GetPciBusIds
  std::size_t struct_size;
  void* priv;
  PciBusId* bus_ids;  // room for device_count, indexed by PerfWorks device index
  std::size_t device_count;
};

enum ClockStatus : int {  // NVPW_Device_ClockStatus
  kClockUnknown = 0,
  kClockLockedToRatedTdp = 1,
  kClockBoostEnabled = 2,
  kClockBoostDisabled = 3,
  kClockLocked = 4,
  kClockUnlocked = 5,
};

struct DeviceGetClockStatusParams {  // NVPW_Device_GetClockStatus (read only: OpenGPA never sets clocks)
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  int clock_status;  // out, ClockStatus
  int clock_level;   // out
};

struct VkLoadDriverParams {  // NVPW_VK_LoadDriver
  std::size_t struct_size;
  void* priv;
  void* instance;  // VkInstance
};

struct VkDeviceGetIndexParams {  // NVPW_VK_Device_GetDeviceIndex
  std::size_t struct_size;
  void* priv;
  void* physical_device;  // VkPhysicalDevice
  std::size_t sli_index;
  std::size_t device_index;  // out
  void* instance;            // VkInstance
  void* device;              // VkDevice
  void* get_instance_proc_addr;
  void* get_device_proc_addr;
};

// NVPW_VK_CommandBuffer_InsertTrigger (no public declaration): records an engine trigger into a command buffer.
// The library checks exactly these: size != 0, reserved pointer null, device index < device count, command
// buffer non-null.
struct VkInsertTriggerParams {
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  void* command_buffer;  // VkCommandBuffer
};

struct EglLoadDriverParams {  // NVPW_EGL_LoadDriver
  std::size_t struct_size;
  void* priv;
};

struct EglContextGetDeviceIndexParams {  // NVPW_EGL_GraphicsContext_GetDeviceIndex (the current EGL context)
  std::size_t struct_size;
  void* priv;
  std::size_t sli_index;
  std::size_t device_index;  // out
};

// NVPW_OpenGL_LoadDriver and NVPW_OpenGL_GraphicsContext_GetDeviceIndex (the current GLX context) take the same
// parameters as their EGL twins.
using OpenGlLoadDriverParams = EglLoadDriverParams;
using OpenGlContextGetDeviceIndexParams = EglContextGetDeviceIndexParams;

// --- target library: the GPU periodic sampler ----------------------------------------------------------------
enum TriggerSource : std::uint32_t {
  kTriggerCpu = 1,  // NVPW_GPU_PeriodicSampler_CpuTrigger
  kTriggerSysclkInterval = 2,
  kTriggerGpuTimeInterval = 3,  // every samplingInterval nanoseconds
  kTriggerEngine = 4,           // a trigger in the graphics pushbuffer (a command buffer's), from any process
};

enum SupportLevel : int { kSupportLevelUnknown = 0, kSupportLevelUnsupported = 1, kSupportLevelSupported = 2 };

struct SamplerIsGpuSupportedParams {
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  Bool supported;                  // out
  int architecture_level;          // out, SupportLevel
  int sli_level;                   // out
  int vgpu_level;                  // out
  int confidential_compute_level;  // out
  int cmp_level;                   // out
  int wsl_level;                   // out
};

struct SamplerGetTriggerSourcesParams {
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  std::uint32_t* sources;    // null: count only
  std::size_t source_count;  // in: room; out: written
};

struct SamplerRecordBufferSizeParams {  // NVPW_GPU_PeriodicSampler_CalculateRecordBufferSize
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  const std::uint8_t* config;
  std::size_t config_size;
  std::size_t max_undecoded_samples;
  std::size_t record_buffer_size;  // out
};

enum RecordBufferAppendMode : std::uint32_t { kKeepOldest = 0, kKeepLatest = 1 };

struct SamplerBeginSessionParams {  // NVPW_GPU_PeriodicSampler_BeginSession_V2
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  std::size_t max_undecoded_sampling_ranges;  // must be 1
  const std::uint32_t* trigger_sources;
  std::size_t trigger_source_count;
  std::uint64_t sampling_interval;  // ns for kTriggerGpuTimeInterval
  std::size_t record_buffer_size;
  std::uint32_t record_buffer_append_mode;
};

struct SamplerDeviceParams {  // EndSession, StartSampling, StopSampling, CpuTrigger
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
};

struct SamplerCounterAvailabilityParams {
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  std::size_t image_size;  // in: room (or 0 with a null image to size it); out: size
  std::uint8_t* image;
};

struct SamplerSetConfigParams {
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  const std::uint8_t* config;
  std::size_t config_size;
  std::size_t pass_index;
};

enum CounterDataAppendMode : std::uint32_t { kCounterDataLinear = 0, kCounterDataCircular = 1 };

struct SamplerCounterDataOptions {  // NVPW_GPU_PeriodicSampler_CounterDataImageOptions
  std::size_t struct_size;
  const std::uint8_t* prefix;
  std::size_t prefix_size;
  std::uint32_t max_samples;
  std::uint32_t append_mode;
};

struct SamplerCounterDataSizeParams {  // NVPW_GPU_PeriodicSampler_CounterDataImage_CalculateSize
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  const SamplerCounterDataOptions* options;
  std::size_t image_size;  // out
};

struct SamplerCounterDataInitializeParams {  // NVPW_GPU_PeriodicSampler_CounterDataImage_Initialize
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  const SamplerCounterDataOptions* options;
  std::uint8_t* image;
  std::size_t image_size;
};

struct SamplerDecodeParams {  // NVPW_GPU_PeriodicSampler_DecodeCounters_V2
  std::size_t struct_size;
  void* priv;
  std::size_t device_index;
  std::uint8_t* counter_data;
  std::size_t counter_data_size;
  std::size_t ranges_to_decode;  // must be 1
  Bool do_not_drop_samples;
  std::size_t ranges_decoded;   // out
  Bool record_buffer_overflow;  // out
  std::size_t samples_dropped;  // out: the counter data had no room
  std::size_t samples_merged;   // out: samples closer than the hardware can separate
};

struct CounterDataGetInfoParams {  // NVPW_PeriodicSampler_CounterData_GetInfo
  std::size_t struct_size;
  void* priv;
  const std::uint8_t* counter_data;
  std::size_t counter_data_size;
  std::size_t total_ranges;      // out
  std::size_t populated_ranges;  // out
  std::size_t completed_ranges;  // out
};

struct CounterDataGetSampleTimeParams {  // NVPW_PeriodicSampler_CounterData_GetSampleTime
  std::size_t struct_size;
  void* priv;
  const std::uint8_t* counter_data;
  std::size_t range_index;
  std::uint64_t start_ns;  // out
  std::uint64_t end_ns;    // out
};

struct CounterDataGetTriggerCountParams {  // NVPW_PeriodicSampler_CounterData_GetTriggerCount
  std::size_t struct_size;
  void* priv;
  const std::uint8_t* counter_data;
  std::size_t counter_data_size;
  std::size_t range_index;
  std::uint32_t trigger_count;  // out
};

// The size each parameter block is passed with: the offset just past its last member, which the library reads as
// the block's version (trailing padding would make it a different one).
// bugprone-sizeof-expression flags the blocks whose last member is a pointer to a struct ("sizeof(A*)"): the
// pointer's own size is the one meant, since the block ends at that member.
#define OPENGPA_PERFWORKS_PARAMS(Type, last_member) \
  constexpr std::size_t ParamsSize(const Type*) { return offsetof(Type, last_member) + sizeof(Type::last_member); }
// NOLINTBEGIN(bugprone-sizeof-expression)
OPENGPA_PERFWORKS_PARAMS(InitializeParams, priv)
OPENGPA_PERFWORKS_PARAMS(DeviceRawMetricsConfigCreateParams, config)
OPENGPA_PERFWORKS_PARAMS(RawConfigParams, config)
OPENGPA_PERFWORKS_PARAMS(RawConfigSetCounterAvailabilityParams, availability_image)
OPENGPA_PERFWORKS_PARAMS(RawConfigBeginPassGroupParams, max_pass_count)
OPENGPA_PERFWORKS_PARAMS(RawMetricRequest, keep_instances)
OPENGPA_PERFWORKS_PARAMS(RawConfigAddMetricsParams, request_count)
OPENGPA_PERFWORKS_PARAMS(RawConfigIsAddMetricsPossibleParams, possible)
OPENGPA_PERFWORKS_PARAMS(RawConfigGenerateImageParams, merge_all_pass_groups)
OPENGPA_PERFWORKS_PARAMS(RawConfigGetImageParams, bytes_copied)
OPENGPA_PERFWORKS_PARAMS(RawConfigGetNumPassesParams, passes)
OPENGPA_PERFWORKS_PARAMS(CounterDataBuilderCreateParams, chip_name)
OPENGPA_PERFWORKS_PARAMS(CounterDataBuilderParams, builder)
OPENGPA_PERFWORKS_PARAMS(CounterDataBuilderAddMetricsParams, request_count)
OPENGPA_PERFWORKS_PARAMS(CounterDataBuilderGetPrefixParams, bytes_copied)
OPENGPA_PERFWORKS_PARAMS(DeviceEvaluatorScratchSizeParams, scratch_size)
OPENGPA_PERFWORKS_PARAMS(DeviceEvaluatorInitializeParams, evaluator)
OPENGPA_PERFWORKS_PARAMS(EvaluatorDestroyParams, evaluator)
OPENGPA_PERFWORKS_PARAMS(EvaluatorGetMetricNamesParams, metric_count)
OPENGPA_PERFWORKS_PARAMS(EvaluatorNameToRequestParams, request_struct_size)
OPENGPA_PERFWORKS_PARAMS(EvaluatorRawDependenciesParams, optional_raw_dependency_count)
OPENGPA_PERFWORKS_PARAMS(EvaluatorSetDeviceAttributesParams, counter_data_size)
OPENGPA_PERFWORKS_PARAMS(EvaluatorEvaluateParams, values)
OPENGPA_PERFWORKS_PARAMS(EvaluatorCounterPropertiesParams, hw_unit)
OPENGPA_PERFWORKS_PARAMS(EvaluatorRatioPropertiesParams, hw_unit)
OPENGPA_PERFWORKS_PARAMS(EvaluatorThroughputPropertiesParams, sub_throughput_indices)
OPENGPA_PERFWORKS_PARAMS(EvaluatorHwUnitToStringParams, name)
OPENGPA_PERFWORKS_PARAMS(GetDeviceCountParams, device_count)
OPENGPA_PERFWORKS_PARAMS(DeviceGetNamesParams, chip_name)
OPENGPA_PERFWORKS_PARAMS(DeviceGetClockStatusParams, clock_level)
OPENGPA_PERFWORKS_PARAMS(DeviceGetPciBusIdsParams, device_count)
OPENGPA_PERFWORKS_PARAMS(VkLoadDriverParams, instance)
OPENGPA_PERFWORKS_PARAMS(VkDeviceGetIndexParams, get_device_proc_addr)
OPENGPA_PERFWORKS_PARAMS(VkInsertTriggerParams, command_buffer)
OPENGPA_PERFWORKS_PARAMS(EglLoadDriverParams, priv)
OPENGPA_PERFWORKS_PARAMS(EglContextGetDeviceIndexParams, device_index)
OPENGPA_PERFWORKS_PARAMS(SamplerIsGpuSupportedParams, wsl_level)
OPENGPA_PERFWORKS_PARAMS(SamplerGetTriggerSourcesParams, source_count)
OPENGPA_PERFWORKS_PARAMS(SamplerRecordBufferSizeParams, record_buffer_size)
OPENGPA_PERFWORKS_PARAMS(SamplerBeginSessionParams, record_buffer_append_mode)
OPENGPA_PERFWORKS_PARAMS(SamplerDeviceParams, device_index)
OPENGPA_PERFWORKS_PARAMS(SamplerCounterAvailabilityParams, image)
OPENGPA_PERFWORKS_PARAMS(SamplerSetConfigParams, pass_index)
OPENGPA_PERFWORKS_PARAMS(SamplerCounterDataOptions, append_mode)
OPENGPA_PERFWORKS_PARAMS(SamplerCounterDataSizeParams, image_size)
OPENGPA_PERFWORKS_PARAMS(SamplerCounterDataInitializeParams, image_size)
OPENGPA_PERFWORKS_PARAMS(SamplerDecodeParams, samples_merged)
OPENGPA_PERFWORKS_PARAMS(CounterDataGetInfoParams, completed_ranges)
OPENGPA_PERFWORKS_PARAMS(CounterDataGetSampleTimeParams, end_ns)
OPENGPA_PERFWORKS_PARAMS(CounterDataGetTriggerCountParams, trigger_count)
// NOLINTEND(bugprone-sizeof-expression)
#undef OPENGPA_PERFWORKS_PARAMS

template <typename Params>
using Entry = Status (*)(Params*);

}  // namespace opengpa::nvidia::perfworks

#endif  // OPENGPA_NVIDIA_PERFWORKS_API_H_
