// The application side of the Vulkan samples and tests: an instance and device created the way
// gpu_perf_api_vk.h asks (its extensions, pipelineStatisticsQuery and hostQueryReset enabled), one
// graphics+compute queue, and a command pool.
#ifndef OPENGPA_SAMPLES_VULKAN_WORKLOAD_VULKAN_DEVICE_H_
#define OPENGPA_SAMPLES_VULKAN_WORKLOAD_VULKAN_DEVICE_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_vk.h"

namespace opengpa::vkwork {

enum class DevicePreference {
  kFastest,   // discrete GPU, then integrated, then virtual, then CPU (what the sample profiles)
  kSoftware,  // a CPU implementation such as lavapipe if there is one, else as kFastest (what CI tests run on)
};

struct PhysicalDeviceSummary {
  std::string name;
  VkPhysicalDeviceType type;
  std::uint32_t api_version;
};

class VulkanDevice {
 public:
  // OPENGPA_VK_DEVICE=<substring of a device name> overrides the preference. nullptr and *error when there
  // is no usable device (no loader, no driver, no graphics+compute queue).
  static std::unique_ptr<VulkanDevice> Create(DevicePreference preference, std::string* error);
  VulkanDevice() = default;  // use Create()
  ~VulkanDevice();
  VulkanDevice(const VulkanDevice&) = delete;
  VulkanDevice& operator=(const VulkanDevice&) = delete;

  // Every physical device the loader reports (for the sample's banner).
  static std::vector<PhysicalDeviceSummary> ListDevices(std::string* error);

  GpaVkContextOpenInfo OpenInfo() const { return {instance_, physical_device_, device_}; }
  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  bool has_geometry_shader() const { return geometry_shader_; }
  bool has_calibrated_timestamps() const { return calibrated_timestamps_; }
  // Whether the device was created with VK_AMD_gpa_interface (AMD's driver, or the layer in between).
  bool has_gpa_interface() const { return gpa_interface_; }
  // Whether the device was created with VK_KHR_performance_query (the driver's own hardware counters).
  bool has_performance_query() const { return performance_query_; }

  // Command buffers come from one pool that lives as long as the device.
  VkCommandBuffer AllocateCommandBuffer(VkCommandBufferLevel level);
  // Submits in order, waits for completion, returns host nanoseconds from submit to the fence signalling.
  double SubmitAndWait(const std::vector<VkCommandBuffer>& command_buffers);
  std::uint32_t FindMemoryType(std::uint32_t type_bits, VkMemoryPropertyFlags properties) const;

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  VkCommandPool command_pool_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  bool geometry_shader_ = false;
  bool calibrated_timestamps_ = false;
  bool gpa_interface_ = false;
  bool performance_query_ = false;
  bool submitted_ = false;  // some work went to the queue (SubmitAndWait)
};

const char* DeviceTypeName(VkPhysicalDeviceType type);

}  // namespace opengpa::vkwork

#endif  // OPENGPA_SAMPLES_VULKAN_WORKLOAD_VULKAN_DEVICE_H_
