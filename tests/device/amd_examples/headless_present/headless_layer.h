// VK_LAYER_OPENGPA_headless_present: a test-only Vulkan layer that gives a program an off-screen presentation
// target. It answers VK_KHR_surface, VK_KHR_xcb_surface, VK_KHR_xlib_surface and VK_KHR_swapchain itself: a
// surface is a layer object that remembers its window; a swapchain is a set of ordinary images with device memory
// that the program renders into as it would into a window's; acquiring hands them out in turn and signals the
// program's semaphore or fence with an empty submit; presenting waits the program's semaphores with an empty
// submit (and can write one presented frame to a file, frame_dump.h). The driver below never sees a WSI call.
//
// Why: the device machine's only X server is Xvfb, to which NVIDIA's Vulkan driver cannot present
// (vkGetPhysicalDeviceSurfacePresentModesKHR fails), so AMD's unchanged vk_color_cube stopped before any GPA call
// (tests/device/amd_examples/run.sh). Nothing of OpenGPA's shipped libraries uses this layer.
//
// Dispatchable handles start with the loader's dispatch-table pointer, shared by an instance and its physical
// devices and by a device and its queues: the layer finds its state by that pointer ("dispatch key").
#ifndef OPENGPA_TESTS_HEADLESS_PRESENT_HEADLESS_LAYER_H_
#define OPENGPA_TESTS_HEADLESS_PRESENT_HEADLESS_LAYER_H_

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace opengpa::headless {

inline constexpr const char* kLayerName = "VK_LAYER_OPENGPA_headless_present";

// One line on stderr, prefixed with the layer's name, for every problem and for what the layer made.
void Log(const std::string& message);

// How many images a swapchain may have (the surface's capabilities say so; a request outside is clamped).
inline constexpr std::uint32_t kMinImages = 2;
inline constexpr std::uint32_t kMaxImages = 8;

inline void* DispatchKey(const void* handle) { return *static_cast<void* const*>(handle); }

struct InstanceState {
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
  PFN_vkDestroyInstance DestroyInstance = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties = nullptr;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties = nullptr;
  PFN_vkGetPhysicalDeviceFormatProperties GetPhysicalDeviceFormatProperties = nullptr;
  PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties = nullptr;
  PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties = nullptr;
};

// Which window a surface stands for; its size is asked of the X server when the program asks for capabilities.
struct Surface {
  enum class Kind { kXcb, kXlib } kind = Kind::kXcb;
  void* connection = nullptr;  // xcb_connection_t* or Display*
  std::uint32_t window = 0;    // xcb_window_t or Window (an XID, 32 bits on the wire)
};

struct Swapchain {
  VkDevice device = VK_NULL_HANDLE;
  VkExtent2D extent{};
  VkFormat format = VK_FORMAT_UNDEFINED;
  std::vector<VkImage> images;
  std::vector<VkDeviceMemory> memory;
  std::uint32_t next_image = 0;  // round-robin: the order a FIFO swapchain of a real window gives
  std::uint64_t presented = 0;   // frames presented so far
};

struct DeviceState {
  VkDevice device = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  InstanceState* instance = nullptr;
  PFN_vkSetDeviceLoaderData SetDeviceLoaderData = nullptr;
  bool swapchain_below = false;    // the driver offers VK_KHR_swapchain (so PRESENT_SRC_KHR is a layout it knows)
  VkQueue queue = VK_NULL_HANDLE;  // for acquire's signal: queue 0 of the first family the program asked for
  std::unordered_map<VkQueue, std::uint32_t> queue_families;  // every queue the program got, by family

  PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
  PFN_vkDestroyDevice DestroyDevice = nullptr;
  PFN_vkGetDeviceQueue GetDeviceQueue = nullptr;
  PFN_vkGetDeviceQueue2 GetDeviceQueue2 = nullptr;
  PFN_vkQueueSubmit QueueSubmit = nullptr;
  PFN_vkQueueWaitIdle QueueWaitIdle = nullptr;
  PFN_vkCreateImage CreateImage = nullptr;
  PFN_vkDestroyImage DestroyImage = nullptr;
  PFN_vkGetImageMemoryRequirements GetImageMemoryRequirements = nullptr;
  PFN_vkAllocateMemory AllocateMemory = nullptr;
  PFN_vkFreeMemory FreeMemory = nullptr;
  PFN_vkBindImageMemory BindImageMemory = nullptr;
  PFN_vkMapMemory MapMemory = nullptr;
  PFN_vkUnmapMemory UnmapMemory = nullptr;
  PFN_vkCreateBuffer CreateBuffer = nullptr;
  PFN_vkDestroyBuffer DestroyBuffer = nullptr;
  PFN_vkGetBufferMemoryRequirements GetBufferMemoryRequirements = nullptr;
  PFN_vkBindBufferMemory BindBufferMemory = nullptr;
  PFN_vkCreateCommandPool CreateCommandPool = nullptr;
  PFN_vkDestroyCommandPool DestroyCommandPool = nullptr;
  PFN_vkAllocateCommandBuffers AllocateCommandBuffers = nullptr;
  PFN_vkBeginCommandBuffer BeginCommandBuffer = nullptr;
  PFN_vkEndCommandBuffer EndCommandBuffer = nullptr;
  PFN_vkCmdPipelineBarrier CmdPipelineBarrier = nullptr;
  PFN_vkCmdCopyImageToBuffer CmdCopyImageToBuffer = nullptr;

  std::mutex mutex;  // guards the layer's own submits on `queue` and the swapchains' counters
};

// Registries keyed by dispatch key; lookups return nullptr for handles the layer never saw.
InstanceState* FindInstance(const void* dispatchable);
DeviceState* FindDevice(const void* dispatchable);
InstanceState* AddInstance(VkInstance instance);
DeviceState* AddDevice(VkDevice device);
void RemoveInstance(VkInstance instance);
void RemoveDevice(VkDevice device);

// The layer's surface behind a handle the program holds, or nullptr for a handle it never made (or destroyed).
Surface* LiveSurface(VkSurfaceKHR handle);

// Non-dispatchable handles the layer makes are its objects' addresses.
template <typename Handle, typename Object>
Handle ToHandle(Object* object) {
  return reinterpret_cast<Handle>(object);
}
template <typename Object, typename Handle>
Object* FromHandle(Handle handle) {
  return reinterpret_cast<Object*>(handle);
}

// The first memory type of `bits` with all of `wanted`, or UINT32_MAX.
std::uint32_t FindMemoryType(const VkPhysicalDeviceMemoryProperties& memory, std::uint32_t bits,
                             VkMemoryPropertyFlags wanted);

}  // namespace opengpa::headless

#endif  // OPENGPA_TESTS_HEADLESS_PRESENT_HEADLESS_LAYER_H_
