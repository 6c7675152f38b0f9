// Which PerfWorks device a graphics API's device is, and the one command PerfWorks records into a graphics
// API's stream: the Vulkan engine trigger that closes a periodic-sampler sample where the GPU reaches it.
#ifndef OPENGPA_NVIDIA_PERFWORKS_GRAPHICS_DEVICE_H_
#define OPENGPA_NVIDIA_PERFWORKS_GRAPHICS_DEVICE_H_

#include <cstddef>
#include <string>

#include "nvidia/perfworks_library.h"

namespace opengpa::nvidia::perfworks {

// The Vulkan handles PerfWorks needs, as opaque pointers so this layer needs no Vulkan header.
struct VulkanDeviceHandles {
  void* instance = nullptr;
  void* physical_device = nullptr;
  void* device = nullptr;
  void* get_instance_proc_addr = nullptr;  // the loader's (or the next layer's) vkGetInstanceProcAddr
  void* get_device_proc_addr = nullptr;
};

// Loads NVIDIA's Vulkan driver into PerfWorks for `instance` (NVPW_VK_LoadDriver) and keeps the driver's library
// loaded for the rest of the process: PerfWorks keeps what it took from it, and when the Vulkan loader unloaded the
// driver after the last instance and loaded it again, the next vkEnumerateInstanceExtensionProperties crashed
// inside libEGL_nvidia (H200, driver 580, the layer's device suite). False and *why when PerfWorks refuses.
bool LoadVulkanDriver(const PerfWorksLibrary& library, void* instance, std::string* why);

// PerfWorks' index of the GPU behind a Vulkan device; false and *why when PerfWorks does not know it (not an
// NVIDIA device, a driver PerfWorks cannot load).
bool VulkanDeviceIndex(const PerfWorksLibrary& library, const VulkanDeviceHandles& handles, std::size_t* index,
                       std::string* why);
// PerfWorks' index of the GPU behind the calling thread's current EGL context.
bool CurrentEglDeviceIndex(const PerfWorksLibrary& library, std::size_t* index, std::string* why);
// PerfWorks' index of the GPU behind the calling thread's current GLX context (PerfWorks' OpenGL interface asks
// NVIDIA's GL driver, which serves GLX).
bool CurrentGlxDeviceIndex(const PerfWorksLibrary& library, std::size_t* index, std::string* why);

// Records an engine trigger into `command_buffer` (a VkCommandBuffer being recorded).
Status InsertVulkanTrigger(const PerfWorksLibrary& library, std::size_t device_index, void* command_buffer);

}  // namespace opengpa::nvidia::perfworks

#endif  // OPENGPA_NVIDIA_PERFWORKS_GRAPHICS_DEVICE_H_
