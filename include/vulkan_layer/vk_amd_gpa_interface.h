// VK_AMD_gpa_interface: the Vulkan device extension AMD's GPU Performance API reads its counters through.
//
// AMD's driver declares it in a header of the same name that GPA includes as <vk_amd_gpa_interface.h>;
// Vulkan headers from the Khronos registry declare it in vulkan_core.h once they know it. This header
// declares the same types with the same values and layouts (extension number 134, so every enumerant
// below is 1000133000 + offset), for Vulkan headers that do not: OpenGPA's layer
// VK_LAYER_OPENGPA_gpa_interface (src/vulkan_layer) implements it on any driver, and libGPUPerfAPIVK reads
// counters through it wherever a device offers it.
#ifndef OPENGPA_VULKAN_LAYER_VK_AMD_GPA_INTERFACE_H_
#define OPENGPA_VULKAN_LAYER_VK_AMD_GPA_INTERFACE_H_

#include <vulkan/vulkan.h>

#ifndef VK_AMD_gpa_interface
#define VK_AMD_gpa_interface 1
#define VK_AMD_GPA_INTERFACE_SPEC_VERSION 1
#ifndef VK_AMD_GPA_INTERFACE_EXTENSION_NAME
#define VK_AMD_GPA_INTERFACE_EXTENSION_NAME "VK_AMD_gpa_interface"
#endif

#ifdef __cplusplus
extern "C" {
#endif

VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkGpaSessionAMD)

// Structure types and the object type the extension adds.
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD ((VkStructureType)1000133000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD ((VkStructureType)1000133001)
#define VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD ((VkStructureType)1000133002)
#define VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD ((VkStructureType)1000133003)
#define VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD ((VkStructureType)1000133004)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD ((VkStructureType)1000133005)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES2_AMD VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD
#define VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD ((VkStructureType)1000133006)
#define VK_OBJECT_TYPE_GPA_SESSION_AMD ((VkObjectType)1000133000)

typedef enum VkGpaSqShaderStageFlagBitsAMD {
  VK_GPA_SQ_SHADER_STAGE_PS_BIT_AMD = 0x00000001,
  VK_GPA_SQ_SHADER_STAGE_VS_BIT_AMD = 0x00000002,
  VK_GPA_SQ_SHADER_STAGE_GS_BIT_AMD = 0x00000004,
  VK_GPA_SQ_SHADER_STAGE_ES_BIT_AMD = 0x00000008,
  VK_GPA_SQ_SHADER_STAGE_HS_BIT_AMD = 0x00000010,
  VK_GPA_SQ_SHADER_STAGE_LS_BIT_AMD = 0x00000020,
  VK_GPA_SQ_SHADER_STAGE_CS_BIT_AMD = 0x00000040,
  VK_GPA_SQ_SHADER_STAGE_FLAG_BITS_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaSqShaderStageFlagBitsAMD;
typedef VkFlags VkGpaSqShaderStageFlagsAMD;
typedef VkFlags VkGpaSqShaderStageFlags;  // the older spelling AMD's GPA sources use

typedef enum VkGpaPerfBlockAMD {
  VK_GPA_PERF_BLOCK_CPF_AMD = 0,
  VK_GPA_PERF_BLOCK_IA_AMD = 1,
  VK_GPA_PERF_BLOCK_VGT_AMD = 2,
  VK_GPA_PERF_BLOCK_PA_AMD = 3,
  VK_GPA_PERF_BLOCK_SC_AMD = 4,
  VK_GPA_PERF_BLOCK_SPI_AMD = 5,
  VK_GPA_PERF_BLOCK_SQ_AMD = 6,
  VK_GPA_PERF_BLOCK_SX_AMD = 7,
  VK_GPA_PERF_BLOCK_TA_AMD = 8,
  VK_GPA_PERF_BLOCK_TD_AMD = 9,
  VK_GPA_PERF_BLOCK_TCP_AMD = 10,
  VK_GPA_PERF_BLOCK_TCC_AMD = 11,
  VK_GPA_PERF_BLOCK_TCA_AMD = 12,
  VK_GPA_PERF_BLOCK_DB_AMD = 13,
  VK_GPA_PERF_BLOCK_CB_AMD = 14,
  VK_GPA_PERF_BLOCK_GDS_AMD = 15,
  VK_GPA_PERF_BLOCK_SRBM_AMD = 16,
  VK_GPA_PERF_BLOCK_GRBM_AMD = 17,
  VK_GPA_PERF_BLOCK_GRBM_SE_AMD = 18,
  VK_GPA_PERF_BLOCK_RLC_AMD = 19,
  VK_GPA_PERF_BLOCK_DMA_AMD = 20,
  VK_GPA_PERF_BLOCK_MC_AMD = 21,
  VK_GPA_PERF_BLOCK_CPG_AMD = 22,
  VK_GPA_PERF_BLOCK_CPC_AMD = 23,
  VK_GPA_PERF_BLOCK_WD_AMD = 24,
  VK_GPA_PERF_BLOCK_TCS_AMD = 25,
  VK_GPA_PERF_BLOCK_ATC_AMD = 26,
  VK_GPA_PERF_BLOCK_ATC_L2_AMD = 27,
  VK_GPA_PERF_BLOCK_MC_VM_L2_AMD = 28,
  VK_GPA_PERF_BLOCK_EA_AMD = 29,
  VK_GPA_PERF_BLOCK_RPB_AMD = 30,
  VK_GPA_PERF_BLOCK_RMI_AMD = 31,
  VK_GPA_PERF_BLOCK_UMCCH_AMD = 32,
  VK_GPA_PERF_BLOCK_GE_AMD = 33,
  VK_GPA_PERF_BLOCK_GL1A_AMD = 34,
  VK_GPA_PERF_BLOCK_GL1C_AMD = 35,
  VK_GPA_PERF_BLOCK_GL1CG_AMD = 36,
  VK_GPA_PERF_BLOCK_GL2A_AMD = 37,
  VK_GPA_PERF_BLOCK_GL2C_AMD = 38,
  VK_GPA_PERF_BLOCK_CHA_AMD = 39,
  VK_GPA_PERF_BLOCK_CHC_AMD = 40,
  VK_GPA_PERF_BLOCK_CHCG_AMD = 41,
  VK_GPA_PERF_BLOCK_GUS_AMD = 42,
  VK_GPA_PERF_BLOCK_GCR_AMD = 43,
  VK_GPA_PERF_BLOCK_PH_AMD = 44,
  VK_GPA_PERF_BLOCK_UTCL1_AMD = 45,
  VK_GPA_PERF_BLOCK_GE_DIST_AMD = 46,
  VK_GPA_PERF_BLOCK_GE_SE_AMD = 47,
  VK_GPA_PERF_BLOCK_DF_MALL_AMD = 48,
  VK_GPA_PERF_BLOCK_SQ_WGP_AMD = 49,
  VK_GPA_PERF_BLOCK_PC_AMD = 50,
  VK_GPA_PERF_BLOCK_GL1XA_AMD = 51,
  VK_GPA_PERF_BLOCK_GL1XC_AMD = 52,
  VK_GPA_PERF_BLOCK_WGS_AMD = 53,
  VK_GPA_PERF_BLOCK_EACPWD_AMD = 54,
  VK_GPA_PERF_BLOCK_EASE_AMD = 55,
  VK_GPA_PERF_BLOCK_RLCUSER_AMD = 56,
  VK_GPA_PERF_BLOCK_GE1_AMD = VK_GPA_PERF_BLOCK_GE_AMD,
  VK_GPA_PERF_BLOCK_RLCLOCAL_AMD = VK_GPA_PERF_BLOCK_RLCUSER_AMD,
  VK_GPA_PERF_BLOCK_SQWGP_AMD = VK_GPA_PERF_BLOCK_SQ_WGP_AMD,  // the older spelling
  VK_GPA_PERF_BLOCK_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaPerfBlockAMD;

typedef enum VkGpaSampleTypeAMD {
  VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD = 0,
  VK_GPA_SAMPLE_TYPE_TRACE_AMD = 1,
  VK_GPA_SAMPLE_TYPE_TIMING_AMD = 2,
  VK_GPA_SAMPLE_TYPE_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaSampleTypeAMD;

typedef enum VkGpaDeviceClockModeAMD {
  VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD = 0,
  VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD = 1,
  VK_GPA_DEVICE_CLOCK_MODE_PROFILING_AMD = 2,
  VK_GPA_DEVICE_CLOCK_MODE_MIN_MEMORY_AMD = 3,
  VK_GPA_DEVICE_CLOCK_MODE_MIN_ENGINE_AMD = 4,
  VK_GPA_DEVICE_CLOCK_MODE_PEAK_AMD = 5,
  VK_GPA_DEVICE_CLOCK_MODE_MAX_ENUM_AMD = 0x7FFFFFFF
} VkGpaDeviceClockModeAMD;

// One counter block of the device: what VkGpaPerfCounterAMD may name in it.
typedef struct VkGpaPerfBlockPropertiesAMD {
  VkGpaPerfBlockAMD blockType;
  VkFlags flags;
  uint32_t instanceCount;
  uint32_t maxEventID;
  uint32_t maxGlobalOnlyCounters;
  uint32_t maxGlobalSharedCounters;
  uint32_t maxStreamingCounters;
} VkGpaPerfBlockPropertiesAMD;

// Chained to VkPhysicalDeviceFeatures2 (what the device offers) or VkDeviceCreateInfo (what is enabled).
typedef struct VkPhysicalDeviceGpaFeaturesAMD {
  VkStructureType sType;
  const void* pNext;
  VkBool32 perfCounters;
  VkBool32 streamingPerfCounters;
  VkBool32 sqThreadTracing;
  VkBool32 clockModes;
} VkPhysicalDeviceGpaFeaturesAMD;

// Chained to VkPhysicalDeviceProperties2. pPerfBlocks: NULL to learn perfBlockCount, else an array of
// perfBlockCount elements to fill.
typedef struct VkPhysicalDeviceGpaPropertiesAMD {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  VkDeviceSize maxSqttSeBufferSize;
  uint32_t shaderEngineCount;
  uint32_t perfBlockCount;
  VkGpaPerfBlockPropertiesAMD* pPerfBlocks;
} VkPhysicalDeviceGpaPropertiesAMD;

typedef struct VkPhysicalDeviceGpaProperties2AMD {
  VkStructureType sType;
  const void* pNext;
  uint32_t revisionId;
} VkPhysicalDeviceGpaProperties2AMD;

typedef struct VkGpaPerfCounterAMD {
  VkGpaPerfBlockAMD blockType;
  uint32_t blockInstance;
  uint32_t eventID;
} VkGpaPerfCounterAMD;

typedef struct VkGpaSampleBeginInfoAMD {
  VkStructureType sType;
  const void* pNext;
  VkGpaSampleTypeAMD sampleType;
  VkBool32 sampleInternalOperations;
  VkBool32 cacheFlushOnCounterCollection;
  VkBool32 sqShaderMaskEnable;
  VkGpaSqShaderStageFlagsAMD sqShaderMask;
  uint32_t perfCounterCount;
  const VkGpaPerfCounterAMD* pPerfCounters;
  uint32_t streamingPerfTraceSampleInterval;
  VkDeviceSize perfCounterDeviceMemoryLimit;
  VkBool32 sqThreadTraceEnable;
  VkBool32 sqThreadTraceSuppressInstructionTokens;
  VkDeviceSize sqThreadTraceDeviceMemoryLimit;
  VkPipelineStageFlags timingPreSample;
  VkPipelineStageFlags timingPostSample;
} VkGpaSampleBeginInfoAMD;

typedef struct VkGpaSessionCreateInfoAMD {
  VkStructureType sType;
  const void* pNext;
  VkGpaSessionAMD secondaryCopySource;
} VkGpaSessionCreateInfoAMD;

typedef struct VkGpaDeviceClockModeInfoAMD {
  VkStructureType sType;
  const void* pNext;
  VkGpaDeviceClockModeAMD clockMode;
  float memoryClockRatioToPeak;
  float engineClockRatioToPeak;
} VkGpaDeviceClockModeInfoAMD;

typedef struct VkGpaDeviceGetClockInfoAMD {
  VkStructureType sType;
  void* pNext;
  float memoryClockRatioToPeak;
  float engineClockRatioToPeak;
  uint32_t memoryClockFrequency;
  uint32_t engineClockFrequency;
} VkGpaDeviceGetClockInfoAMD;

typedef VkResult(VKAPI_PTR* PFN_vkCreateGpaSessionAMD)(VkDevice device, const VkGpaSessionCreateInfoAMD* pCreateInfo,
                                                       const VkAllocationCallbacks* pAllocator,
                                                       VkGpaSessionAMD* pGpaSession);
typedef void(VKAPI_PTR* PFN_vkDestroyGpaSessionAMD)(VkDevice device, VkGpaSessionAMD gpaSession,
                                                    const VkAllocationCallbacks* pAllocator);
typedef VkResult(VKAPI_PTR* PFN_vkSetGpaDeviceClockModeAMD)(VkDevice device, VkGpaDeviceClockModeInfoAMD* pInfo);
typedef VkResult(VKAPI_PTR* PFN_vkGetGpaDeviceClockInfoAMD)(VkDevice device, VkGpaDeviceGetClockInfoAMD* pInfo);
typedef VkResult(VKAPI_PTR* PFN_vkCmdBeginGpaSessionAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
typedef VkResult(VKAPI_PTR* PFN_vkCmdEndGpaSessionAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
typedef VkResult(VKAPI_PTR* PFN_vkCmdBeginGpaSampleAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                        const VkGpaSampleBeginInfoAMD* pGpaSampleBeginInfo,
                                                        uint32_t* pSampleID);
typedef void(VKAPI_PTR* PFN_vkCmdEndGpaSampleAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                  uint32_t sampleID);
typedef VkResult(VKAPI_PTR* PFN_vkGetGpaSessionStatusAMD)(VkDevice device, VkGpaSessionAMD gpaSession);
typedef VkResult(VKAPI_PTR* PFN_vkGetGpaSessionResultsAMD)(VkDevice device, VkGpaSessionAMD gpaSession,
                                                           uint32_t sampleID, size_t* pSizeInBytes, void* pData);
typedef VkResult(VKAPI_PTR* PFN_vkResetGpaSessionAMD)(VkDevice device, VkGpaSessionAMD gpaSession);
typedef void(VKAPI_PTR* PFN_vkCmdCopyGpaSessionResultsAMD)(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);

#ifdef __cplusplus
}
#endif
#endif  // VK_AMD_gpa_interface

#endif  // OPENGPA_VULKAN_LAYER_VK_AMD_GPA_INTERFACE_H_
