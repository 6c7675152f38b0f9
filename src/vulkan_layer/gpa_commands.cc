#include "gpa_commands.h"

#include <string>

#include "device_clocks.h"
#include "gpa_session.h"
#include "layer_log.h"
#include "layer_objects.h"
#include "platform/enum_argument.h"

namespace opengpa::vklayer {
namespace {

std::uint64_t HandleValue(VkGpaSessionAMD session) { return reinterpret_cast<std::uint64_t>(session); }

// The layer's data for a device, or nullptr (with a log line) when the layer never saw it.
DeviceData* DeviceOf(const void* dispatchable, const char* function) {
  DeviceData* device = FindDevice(dispatchable);
  if (device == nullptr) {
    LogProblem(std::string(function) + ": the device or command buffer is not one of this layer's");
  }
  return device;
}

// The session, or nullptr (with a log line) when `handle` is no live session of `device`.
GpaSession* SessionOf(DeviceData& device, VkGpaSessionAMD handle, const char* function) {
  auto it = device.sessions.find(HandleValue(handle));
  if (it == device.sessions.end()) {
    LogProblem(std::string(function) + ": gpaSession is not a live VkGpaSessionAMD of this device");
    return nullptr;
  }
  return it->second.get();
}

// The command buffer's record, or nullptr (with a log line) for one the layer did not see allocated.
CommandBufferInfo* CommandBufferOf(DeviceData& device, VkCommandBuffer command_buffer, const char* function) {
  auto it = device.command_buffers.find(command_buffer);
  if (it == device.command_buffers.end()) {
    LogProblem(std::string(function) + ": commandBuffer was not allocated on this device");
    return nullptr;
  }
  return &it->second;
}

bool SupportsComputeOrGraphics(const CommandBufferInfo& info, const char* function) {
  if ((info.queue_flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) != 0) return true;
  LogProblem(std::string(function) + ": the command buffer's pool must support compute or graphics operations");
  return false;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateGpaSessionAMD(VkDevice device, const VkGpaSessionCreateInfoAMD* pCreateInfo,
                                                   const VkAllocationCallbacks* /*pAllocator*/,
                                                   VkGpaSessionAMD* pGpaSession) {
  constexpr const char* kFunction = "vkCreateGpaSessionAMD";
  DeviceData* data = DeviceOf(device, kFunction);
  if (data == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  if (pCreateInfo == nullptr || pGpaSession == nullptr ||
      EnumArgument(pCreateInfo->sType) != VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD) {
    LogProblem(
        "vkCreateGpaSessionAMD: pCreateInfo must point to a VkGpaSessionCreateInfoAMD "
        "(sType VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD) and pGpaSession must not be NULL");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  if (data->ResetQueryPool == nullptr) {
    LogProblem(
        "vkCreateGpaSessionAMD: the device has no host query reset (Vulkan 1.2 or VK_EXT_host_query_reset), "
        "which the layer's sessions need");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  std::lock_guard<std::mutex> lock(data->mutex);
  GpaSession* source = nullptr;
  if (pCreateInfo->secondaryCopySource != VK_NULL_HANDLE) {
    source = SessionOf(*data, pCreateInfo->secondaryCopySource, kFunction);
    if (source == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
    if (source->copy_source() != nullptr) {
      LogProblem("vkCreateGpaSessionAMD: secondaryCopySource is itself a copy destination");
      return VK_ERROR_VALIDATION_FAILED_EXT;
    }
  }
  auto session = std::make_unique<GpaSession>(*data, source);
  const auto handle = reinterpret_cast<VkGpaSessionAMD>(session.get());
  data->sessions[HandleValue(handle)] = std::move(session);
  *pGpaSession = handle;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyGpaSessionAMD(VkDevice device, VkGpaSessionAMD gpaSession,
                                                const VkAllocationCallbacks* /*pAllocator*/) {
  if (gpaSession == VK_NULL_HANDLE) return;
  DeviceData* data = DeviceOf(device, "vkDestroyGpaSessionAMD");
  if (data == nullptr) return;
  std::lock_guard<std::mutex> lock(data->mutex);
  GpaSession* session = SessionOf(*data, gpaSession, "vkDestroyGpaSessionAMD");
  if (session == nullptr) return;
  for (auto& [handle, other] : data->sessions) {
    if (other->copy_source() == session) {
      LogProblem(
          "vkDestroyGpaSessionAMD: the session is the secondaryCopySource of a live session; destroy that "
          "one first");
      return;
    }
  }
  for (auto& [command_buffer, info] : data->command_buffers) {
    if (info.open_session == session) info.open_session = nullptr;
    info.sessions_with_open_samples.erase(session);
  }
  data->sessions.erase(HandleValue(gpaSession));
}

VKAPI_ATTR VkResult VKAPI_CALL CmdBeginGpaSessionAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession) {
  constexpr const char* kFunction = "vkCmdBeginGpaSessionAMD";
  DeviceData* data = DeviceOf(commandBuffer, kFunction);
  if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  std::lock_guard<std::mutex> lock(data->mutex);
  GpaSession* session = SessionOf(*data, gpaSession, kFunction);
  CommandBufferInfo* info = CommandBufferOf(*data, commandBuffer, kFunction);
  if (session == nullptr || info == nullptr || !SupportsComputeOrGraphics(*info, kFunction)) {
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  return session->CmdBegin(commandBuffer, *info);
}

VKAPI_ATTR VkResult VKAPI_CALL CmdEndGpaSessionAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession) {
  constexpr const char* kFunction = "vkCmdEndGpaSessionAMD";
  DeviceData* data = DeviceOf(commandBuffer, kFunction);
  if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  std::lock_guard<std::mutex> lock(data->mutex);
  GpaSession* session = SessionOf(*data, gpaSession, kFunction);
  CommandBufferInfo* info = CommandBufferOf(*data, commandBuffer, kFunction);
  if (session == nullptr || info == nullptr || !SupportsComputeOrGraphics(*info, kFunction)) {
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  return session->CmdEnd(commandBuffer, *info);
}

VKAPI_ATTR VkResult VKAPI_CALL CmdBeginGpaSampleAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                    const VkGpaSampleBeginInfoAMD* pGpaSampleBeginInfo,
                                                    uint32_t* pSampleID) {
  constexpr const char* kFunction = "vkCmdBeginGpaSampleAMD";
  if (pSampleID != nullptr) *pSampleID = UINT32_MAX;  // what AMD's GPA reads as "no sample"
  DeviceData* data = DeviceOf(commandBuffer, kFunction);
  if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  if (pGpaSampleBeginInfo == nullptr || pSampleID == nullptr ||
      EnumArgument(pGpaSampleBeginInfo->sType) != VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD) {
    LogProblem(
        "vkCmdBeginGpaSampleAMD: pGpaSampleBeginInfo must point to a VkGpaSampleBeginInfoAMD (sType "
        "VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD) and pSampleID must not be NULL");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  std::lock_guard<std::mutex> lock(data->mutex);
  GpaSession* session = SessionOf(*data, gpaSession, kFunction);
  CommandBufferInfo* info = CommandBufferOf(*data, commandBuffer, kFunction);
  if (session == nullptr || info == nullptr || !SupportsComputeOrGraphics(*info, kFunction)) {
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  return session->CmdBeginSample(commandBuffer, *info, *pGpaSampleBeginInfo, pSampleID);
}

VKAPI_ATTR void VKAPI_CALL CmdEndGpaSampleAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                              uint32_t sampleID) {
  constexpr const char* kFunction = "vkCmdEndGpaSampleAMD";
  DeviceData* data = DeviceOf(commandBuffer, kFunction);
  if (data == nullptr) return;
  std::lock_guard<std::mutex> lock(data->mutex);
  GpaSession* session = SessionOf(*data, gpaSession, kFunction);
  CommandBufferInfo* info = CommandBufferOf(*data, commandBuffer, kFunction);
  if (session == nullptr || info == nullptr) return;
  session->CmdEndSample(commandBuffer, *info, sampleID);
}

VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionStatusAMD(VkDevice device, VkGpaSessionAMD gpaSession) {
  DeviceData* data = DeviceOf(device, "vkGetGpaSessionStatusAMD");
  if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  std::lock_guard<std::mutex> lock(data->mutex);
  GpaSession* session = SessionOf(*data, gpaSession, "vkGetGpaSessionStatusAMD");
  if (session == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  return session->Status();
}

VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionResultsAMD(VkDevice device, VkGpaSessionAMD gpaSession, uint32_t sampleID,
                                                       size_t* pSizeInBytes, void* pData) {
  constexpr const char* kFunction = "vkGetGpaSessionResultsAMD";
  DeviceData* data = DeviceOf(device, kFunction);
  if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  if (pSizeInBytes == nullptr || (pData != nullptr && *pSizeInBytes == 0)) {
    LogProblem("vkGetGpaSessionResultsAMD: pSizeInBytes must not be NULL, nor 0 when pData is given");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  std::lock_guard<std::mutex> lock(data->mutex);
  GpaSession* session = SessionOf(*data, gpaSession, kFunction);
  if (session == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  return session->Results(sampleID, pSizeInBytes, pData);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetGpaSessionAMD(VkDevice device, VkGpaSessionAMD gpaSession) {
  DeviceData* data = DeviceOf(device, "vkResetGpaSessionAMD");
  if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  std::lock_guard<std::mutex> lock(data->mutex);
  GpaSession* session = SessionOf(*data, gpaSession, "vkResetGpaSessionAMD");
  if (session == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  return session->Reset();
}

VKAPI_ATTR void VKAPI_CALL CmdCopyGpaSessionResultsAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession) {
  constexpr const char* kFunction = "vkCmdCopyGpaSessionResultsAMD";
  DeviceData* data = DeviceOf(commandBuffer, kFunction);
  if (data == nullptr) return;
  std::lock_guard<std::mutex> lock(data->mutex);
  GpaSession* session = SessionOf(*data, gpaSession, kFunction);
  CommandBufferInfo* info = CommandBufferOf(*data, commandBuffer, kFunction);
  if (session == nullptr || info == nullptr) return;
  if ((info->queue_flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT)) == 0) {
    LogProblem("vkCmdCopyGpaSessionResultsAMD: the command buffer's pool supports no graphics, compute or transfer");
    return;
  }
  if (session->copy_source() == nullptr) {
    LogProblem(
        "vkCmdCopyGpaSessionResultsAMD: gpaSession was created without a secondaryCopySource, so there is "
        "nothing to copy into it");
    return;
  }
  session->CmdCopyResults(commandBuffer);
}

VKAPI_ATTR VkResult VKAPI_CALL SetGpaDeviceClockModeAMD(VkDevice device, VkGpaDeviceClockModeInfoAMD* pInfo) {
  DeviceData* data = DeviceOf(device, "vkSetGpaDeviceClockModeAMD");
  if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  if (pInfo == nullptr || EnumArgument(pInfo->sType) != VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD) {
    LogProblem("vkSetGpaDeviceClockModeAMD: pInfo must point to a VkGpaDeviceClockModeInfoAMD");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  // Enum fields are read as ints: a C caller may store any value, and loading it as the enum is undefined.
  const int clock_mode = EnumArgument(pInfo->clockMode);
  switch (clock_mode) {
    case VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD:
      return VK_SUCCESS;  // the clocks are the driver's own already: the layer never changes them
    case VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD: {
      const DeviceClocks clocks = ReadDeviceClocks(*data);
      pInfo->memoryClockRatioToPeak = clocks.memory_ratio;
      pInfo->engineClockRatioToPeak = clocks.engine_ratio;
      return VK_SUCCESS;
    }
    case VK_GPA_DEVICE_CLOCK_MODE_PROFILING_AMD:
    case VK_GPA_DEVICE_CLOCK_MODE_MIN_MEMORY_AMD:
    case VK_GPA_DEVICE_CLOCK_MODE_MIN_ENGINE_AMD:
    case VK_GPA_DEVICE_CLOCK_MODE_PEAK_AMD:
      LogProblem("vkSetGpaDeviceClockModeAMD: clock mode " + std::to_string(clock_mode) +
                 " refused: this layer reports clocks but never changes them "
                 "(VkPhysicalDeviceGpaFeaturesAMD::clockModes is VK_FALSE); only DEFAULT and QUERY are accepted");
      return VK_ERROR_FEATURE_NOT_PRESENT;
    default:
      LogProblem("vkSetGpaDeviceClockModeAMD: clockMode " + std::to_string(clock_mode) +
                 " is not a VkGpaDeviceClockModeAMD");
      return VK_ERROR_VALIDATION_FAILED_EXT;
  }
}

VKAPI_ATTR VkResult VKAPI_CALL GetGpaDeviceClockInfoAMD(VkDevice device, VkGpaDeviceGetClockInfoAMD* pInfo) {
  DeviceData* data = DeviceOf(device, "vkGetGpaDeviceClockInfoAMD");
  if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
  if (pInfo == nullptr || EnumArgument(pInfo->sType) != VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD) {
    LogProblem("vkGetGpaDeviceClockInfoAMD: pInfo must point to a VkGpaDeviceGetClockInfoAMD");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  const DeviceClocks clocks = ReadDeviceClocks(*data);
  pInfo->memoryClockRatioToPeak = clocks.memory_ratio;
  pInfo->engineClockRatioToPeak = clocks.engine_ratio;
  pInfo->memoryClockFrequency = clocks.memory_mhz;
  pInfo->engineClockFrequency = clocks.engine_mhz;
  return VK_SUCCESS;
}

}  // namespace opengpa::vklayer
