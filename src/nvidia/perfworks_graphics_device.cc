#include "nvidia/perfworks_graphics_device.h"

#include <fmt/format.h>

#include "platform/dynamic_library.h"

namespace opengpa::nvidia::perfworks {

bool LoadVulkanDriver(const PerfWorksLibrary& library, void* instance, std::string* why) {
  auto load = MakeParams<VkLoadDriverParams>();
  load.instance = instance;
  if (Status s = library.Target().vk_load_driver(&load); s != kSuccess) {
    *why = fmt::format("NVPW_VK_LoadDriver failed: {}", StatusName(s));
    return false;
  }
  // NVIDIA's Linux Vulkan driver is libGLX_nvidia.so.0 (its ICD manifest names it); pinned only if loaded.
  static_cast<void>(DynamicLibrary::OpenIfLoaded("libGLX_nvidia.so.0", DynamicLibrary::Unload::kNever));
  return true;
}

bool VulkanDeviceIndex(const PerfWorksLibrary& library, const VulkanDeviceHandles& handles, std::size_t* index,
                       std::string* why) {
  const TargetFunctions& target = library.Target();
  if (!LoadVulkanDriver(library, handles.instance, why)) return false;
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

namespace {

// PerfWorks' EGL and OpenGL interfaces find the current context's GPU alike: load NVIDIA's GL driver into PerfWorks,
// then ask for the current context's device (`api` names the interface in the reason).
bool CurrentContextDeviceIndex(Entry<EglLoadDriverParams> load_driver,
                               Entry<EglContextGetDeviceIndexParams> get_device_index, const char* api,
                               std::size_t* index, std::string* why) {
  auto load = MakeParams<EglLoadDriverParams>();
  if (Status s = load_driver(&load); s != kSuccess) {
    *why = fmt::format("NVPW_{}_LoadDriver failed: {}", api, StatusName(s));
    return false;
  }
  auto params = MakeParams<EglContextGetDeviceIndexParams>();
  params.sli_index = 0;
  if (Status s = get_device_index(&params); s != kSuccess) {
    *why = fmt::format("NVPW_{}_GraphicsContext_GetDeviceIndex failed: {}", api, StatusName(s));
    return false;
  }
  *index = params.device_index;
  return true;
}

}  // namespace

bool CurrentEglDeviceIndex(const PerfWorksLibrary& library, std::size_t* index, std::string* why) {
  const TargetFunctions& target = library.Target();
  return CurrentContextDeviceIndex(target.egl_load_driver, target.egl_context_get_device_index, "EGL", index, why);
}

bool CurrentGlxDeviceIndex(const PerfWorksLibrary& library, std::size_t* index, std::string* why) {
  const TargetFunctions& target = library.Target();
  return CurrentContextDeviceIndex(target.opengl_load_driver, target.opengl_context_get_device_index, "OpenGL", index,
                                   why);
}

Status InsertVulkanTrigger(const PerfWorksLibrary& library, std::size_t device_index, void* command_buffer) {
  auto params = MakeParams<VkInsertTriggerParams>();
  params.device_index = device_index;
  params.command_buffer = command_buffer;
  return library.Target().vk_insert_trigger(&params);
}

}  // namespace opengpa::nvidia::perfworks
