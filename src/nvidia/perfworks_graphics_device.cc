#include "nvidia/perfworks_graphics_device.h"

#include <fmt/format.h>

namespace opengpa::nvidia::perfworks {

bool VulkanDeviceIndex(const PerfWorksLibrary& library, const VulkanDeviceHandles& handles, std::size_t* index,
                       std::string* why) {
  const TargetFunctions& target = library.Target();
  auto load = MakeParams<VkLoadDriverParams>();
  load.instance = handles.instance;
  if (Status s = target.vk_load_driver(&load); s != kSuccess) {
    *why = fmt::format("NVPW_VK_LoadDriver failed: {}", StatusName(s));
    return false;
  }
  auto params = MakeParams<VkDeviceGetIndexParams>();
  params.physical_device = handles.physical_device;
  params.sli_index = 0;
  params.instance = handles.instance;
  params.device = handles.device;
  params.get_instance_proc_addr = handles.get_instance_proc_addr;
  params.get_device_proc_addr = handles.get_device_proc_addr;
  if (Status s = target.vk_device_get_index(&params); s != kSuccess) {
    *why = fmt::format("NVPW_VK_Device_GetDeviceIndex failed: {}", StatusName(s));
    return false;
  }
  *index = params.device_index;
  return true;
}

bool CurrentEglDeviceIndex(const PerfWorksLibrary& library, std::size_t* index, std::string* why) {
  const TargetFunctions& target = library.Target();
  auto load = MakeParams<EglLoadDriverParams>();
  if (Status s = target.egl_load_driver(&load); s != kSuccess) {
    *why = fmt::format("NVPW_EGL_LoadDriver failed: {}", StatusName(s));
    return false;
  }
  auto params = MakeParams<EglContextGetDeviceIndexParams>();
  params.sli_index = 0;
  if (Status s = target.egl_context_get_device_index(&params); s != kSuccess) {
    *why = fmt::format("NVPW_EGL_GraphicsContext_GetDeviceIndex failed: {}", StatusName(s));
    return false;
  }
  *index = params.device_index;
  return true;
}

bool CurrentGlxDeviceIndex(const PerfWorksLibrary& library, std::size_t* index, std::string* why) {
  const TargetFunctions& target = library.Target();
  auto load = MakeParams<OpenGlLoadDriverParams>();
  if (Status s = target.opengl_load_driver(&load); s != kSuccess) {
    *why = fmt::format("NVPW_OpenGL_LoadDriver failed: {}", StatusName(s));
    return false;
  }
  auto params = MakeParams<OpenGlContextGetDeviceIndexParams>();
  params.sli_index = 0;
  if (Status s = target.opengl_context_get_device_index(&params); s != kSuccess) {
    *why = fmt::format("NVPW_OpenGL_GraphicsContext_GetDeviceIndex failed: {}", StatusName(s));
    return false;
  }
  *index = params.device_index;
  return true;
}

Status InsertVulkanTrigger(const PerfWorksLibrary& library, std::size_t device_index, void* command_buffer) {
  auto params = MakeParams<VkInsertTriggerParams>();
  params.device_index = device_index;
  params.command_buffer = command_buffer;
  return library.Target().vk_insert_trigger(&params);
}

}  // namespace opengpa::nvidia::perfworks
