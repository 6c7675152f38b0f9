// The entry points of VK_AMD_gpa_interface as the layer implements them: each finds the layer's data for its
// device or command buffer, checks what the Vulkan valid-usage rules ask of the arguments, and hands the
// call to the GpaSession. Anything wrong is reported (layer_log.h) and answered with an error VkResult, or
// recorded as nothing for the commands that return void.
#ifndef OPENGPA_VULKAN_LAYER_GPA_COMMANDS_H_
#define OPENGPA_VULKAN_LAYER_GPA_COMMANDS_H_

#include "vk_amd_gpa_interface.h"

namespace opengpa::vklayer {

VKAPI_ATTR VkResult VKAPI_CALL CreateGpaSessionAMD(VkDevice device, const VkGpaSessionCreateInfoAMD* pCreateInfo,
                                                   const VkAllocationCallbacks* pAllocator,
                                                   VkGpaSessionAMD* pGpaSession);
VKAPI_ATTR void VKAPI_CALL DestroyGpaSessionAMD(VkDevice device, VkGpaSessionAMD gpaSession,
                                                const VkAllocationCallbacks* pAllocator);
VKAPI_ATTR VkResult VKAPI_CALL CmdBeginGpaSessionAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
VKAPI_ATTR VkResult VKAPI_CALL CmdEndGpaSessionAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
VKAPI_ATTR VkResult VKAPI_CALL CmdBeginGpaSampleAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                    const VkGpaSampleBeginInfoAMD* pGpaSampleBeginInfo,
                                                    uint32_t* pSampleID);
VKAPI_ATTR void VKAPI_CALL CmdEndGpaSampleAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                              uint32_t sampleID);
VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionStatusAMD(VkDevice device, VkGpaSessionAMD gpaSession);
VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionResultsAMD(VkDevice device, VkGpaSessionAMD gpaSession, uint32_t sampleID,
                                                       size_t* pSizeInBytes, void* pData);
VKAPI_ATTR VkResult VKAPI_CALL ResetGpaSessionAMD(VkDevice device, VkGpaSessionAMD gpaSession);
VKAPI_ATTR void VKAPI_CALL CmdCopyGpaSessionResultsAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession);
VKAPI_ATTR VkResult VKAPI_CALL SetGpaDeviceClockModeAMD(VkDevice device, VkGpaDeviceClockModeInfoAMD* pInfo);
VKAPI_ATTR VkResult VKAPI_CALL GetGpaDeviceClockInfoAMD(VkDevice device, VkGpaDeviceGetClockInfoAMD* pInfo);

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_GPA_COMMANDS_H_
