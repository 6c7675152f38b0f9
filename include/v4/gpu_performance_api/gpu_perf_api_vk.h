// OpenGPA: what libGPUPerfAPIVK.so needs from a Vulkan application (GPA v4's gpu_perf_api_vk.h: v3's, plus
// GpaVkContextOpenInfo2 chosen by kGpaOpenContextVkUseInfoType2).
//
// GpaOpenContext takes a GpaVkContextOpenInfo* naming the application's instance, physical device and
// device. The extension lists are AMD's: a device that offers VK_AMD_gpa_interface (AMD's driver, or any
// driver under OpenGPA's layer VK_LAYER_OPENGPA_gpa_interface, docs/vulkan-layer.md) is measured through it,
// as AMD's GPA does. On any other device OpenGPA measures with core Vulkan queries (timestamps and pipeline
// statistics), so the application must, when it creates its objects:
//   - create the instance with AMD_GPA_REQUIRED_INSTANCE_EXTENSION_NAME_LIST (or API version >= 1.1);
//   - create the device with the extensions of AMD_GPA_REQUIRED_DEVICE_EXTENSION_NAME_LIST the device offers
//     (none, without the layer), and enable the features
//       VkPhysicalDeviceFeatures::pipelineStatisticsQuery   (pipeline-statistics counters), and
//       VkPhysicalDeviceHostQueryResetFeatures::hostQueryReset (core in Vulkan 1.2, else VK_EXT_host_query_reset;
//       OpenGPA resets its query pools from the host, so that samples may live in secondary command buffers
//       and inside render passes);
//   - optionally enable VK_EXT_calibrated_timestamps: with it, ExecutionStart/ExecutionEnd are measured from
//     the GPU clock at GpaBeginSession; without it, from the earliest sample start of the session.
// Vulkan cannot report which features a device was created with; OpenGPA checks what it can (the
// physical device supports them, the reset entry point resolves) and logs what it could not check.
//
// Command buffers passed to GpaBeginCommandList must come from a queue family that supports both graphics
// and compute (OpenGPA's pipeline-statistics queries count stages of both). Each command buffer is
// submitted once per pass; a secondary command buffer whose samples are copied with
// GpaCopySecondarySamples is executed once, by the primary it is copied to. GpaGetSampleResult waits for
// the GPU at most 60 s (environment: OPENGPA_VK_RESULT_TIMEOUT_MS, read at GpaBeginSession), then fails
// with kGpaStatusErrorReadingSampleResult rather than block forever on a command buffer never submitted.
//
// Counters need one pass. VK_KHR_performance_query (vendor counters, possibly several passes) is not used yet.
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_VK_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_VK_H_

#include <vulkan/vulkan.h>

#ifndef VK_AMD_GPA_INTERFACE_EXTENSION_NAME
/// VK_AMD_gpa_interface: the driver interface AMD's GPA reads counters through.
#define VK_AMD_GPA_INTERFACE_EXTENSION_NAME "VK_AMD_gpa_interface"
#endif

#ifndef VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME
/// VK_AMD_shader_core_properties: the shader-core topology derived counters are scaled by.
#define VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME "VK_AMD_shader_core_properties"
#endif

/// VK_AMD_shader_core_properties2, under the name AMD's header gives it.
#define VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME2 "VK_AMD_shader_core_properties2"

/// Instance extensions to enable: vkGetPhysicalDeviceFeatures2 / vkGetPhysicalDeviceProperties2.
#define AMD_GPA_REQUIRED_INSTANCE_EXTENSION_NAME_LIST VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME

/// Device extensions AMD's GPA requires; offered by AMD's driver, or by OpenGPA's layer on any driver.
#define AMD_GPA_REQUIRED_DEVICE_EXTENSION_NAME_LIST VK_AMD_GPA_INTERFACE_EXTENSION_NAME, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME

/// Device extensions worth enabling when offered.
#define AMD_GPA_OPTIONAL_DEVICE_EXTENSION_NAME_LIST VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME2

/// What GpaOpenContext takes for Vulkan (all three handles must be valid and belong together).
typedef struct GpaVkContextOpenInfo
{
    VkInstance instance;               ///< the instance the physical device was enumerated from
    VkPhysicalDevice physical_device;  ///< the physical device the device was created on
    VkDevice device;                   ///< the device whose command buffers will be sampled
} GpaVkContextOpenInfo;

/// The Vulkan-specific GpaOpenContext flag (from kGpaOpenContextApiSpecificOptionsStart on).
typedef enum
{
    kGpaOpenContextVkUseInfoType2 = 0x10000000,  ///< GpaOpenContext's api_context is a GpaVkContextOpenInfo2*.
} GpaOpenContextBitsVk;

/// GpaOpenContext's api_context with kGpaOpenContextVkUseInfoType2: the handles of GpaVkContextOpenInfo and the
/// application's own entry-point resolvers, through which OpenGPA then reaches every Vulkan function (so that
/// layers the application loaded itself are honoured). Both resolvers must be set.
typedef struct GpaVkContextOpenInfo2
{
    VkInstance                instance;                ///< as in GpaVkContextOpenInfo
    VkPhysicalDevice          physical_device;         ///< as in GpaVkContextOpenInfo
    VkDevice                  device;                  ///< as in GpaVkContextOpenInfo
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;  ///< resolves instance-level functions
    PFN_vkGetDeviceProcAddr   get_device_proc_addr;    ///< resolves device-level functions
} GpaVkContextOpenInfo2;

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_VK_H_
