#include "vulkan_device.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace opengpa::vkwork {
namespace {

std::string Describe(VkResult result) { return "VkResult " + std::to_string(static_cast<int>(result)); }

int Rank(VkPhysicalDeviceType type, DevicePreference preference) {
  if (preference == DevicePreference::kSoftware && type == VK_PHYSICAL_DEVICE_TYPE_CPU) return 0;
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 4;
    default: return 5;
  }
}

bool HasExtension(const std::vector<VkExtensionProperties>& extensions, const char* name) {
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

std::vector<VkPhysicalDevice> EnumerateDevices(VkInstance instance) {
  std::uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  devices.resize(count);
  return devices;
}

VkResult CreateInstance(VkInstance* instance) {
  std::uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> available(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, available.data());
  std::vector<const char*> extensions;
  for (const char* name : {AMD_GPA_REQUIRED_INSTANCE_EXTENSION_NAME_LIST}) {
    if (HasExtension(available, name)) extensions.push_back(name);  // core since 1.1 anyway
  }
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "OpenGPA Vulkan workload";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  return vkCreateInstance(&info, nullptr, instance);
}

}  // namespace

const char* DeviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

std::vector<PhysicalDeviceSummary> VulkanDevice::ListDevices(std::string* error) {
  std::vector<PhysicalDeviceSummary> summaries;
  VkInstance instance = VK_NULL_HANDLE;
  VkResult result = CreateInstance(&instance);
  if (result != VK_SUCCESS) {
    *error = "vkCreateInstance failed: " + Describe(result);
    return summaries;
  }
  for (VkPhysicalDevice device : EnumerateDevices(instance)) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(device, &properties);
    summaries.push_back({properties.deviceName, properties.deviceType, properties.apiVersion});
  }
  vkDestroyInstance(instance, nullptr);
  return summaries;
}

std::unique_ptr<VulkanDevice> VulkanDevice::Create(DevicePreference preference, std::string* error) {
  auto self = std::make_unique<VulkanDevice>();
  VkResult result = CreateInstance(&self->instance_);
  if (result != VK_SUCCESS) {
    *error = "vkCreateInstance failed (" + Describe(result) + "): is a Vulkan driver installed?";
    return nullptr;
  }

  // Pick the device: an explicit name first, then by type; it needs a graphics+compute queue family.
  const char* wanted = std::getenv("OPENGPA_VK_DEVICE");
  struct Candidate {
    VkPhysicalDevice device;
    std::uint32_t family;
    int rank;
  };
  std::vector<Candidate> candidates;
  for (VkPhysicalDevice device : EnumerateDevices(self->instance_)) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(device, &properties);
    if (properties.apiVersion < VK_API_VERSION_1_1) continue;
    if (wanted != nullptr && *wanted != '\0' &&
        std::string_view(properties.deviceName).find(wanted) == std::string_view::npos) {
      continue;
    }
    std::uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    for (std::uint32_t i = 0; i < count; ++i) {
      constexpr VkQueueFlags kNeeded = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
      if ((families[i].queueFlags & kNeeded) == kNeeded) {
        candidates.push_back({device, i, Rank(properties.deviceType, preference)});
        break;
      }
    }
  }
  if (candidates.empty()) {
    *error = wanted != nullptr ? std::string("no Vulkan 1.1 device named like OPENGPA_VK_DEVICE=") + wanted
                               : "no Vulkan 1.1 device with a graphics+compute queue";
    return nullptr;
  }
  const Candidate chosen = *std::min_element(candidates.begin(), candidates.end(),
                                             [](const Candidate& a, const Candidate& b) { return a.rank < b.rank; });
  self->physical_device_ = chosen.device;
  self->queue_family_ = chosen.family;
  vkGetPhysicalDeviceProperties(chosen.device, &self->properties_);
  vkGetPhysicalDeviceMemoryProperties(chosen.device, &self->memory_);

  // Features OpenGPA needs (gpu_perf_api_vk.h): pipeline statistics and host query reset.
  VkPhysicalDeviceHostQueryResetFeatures supported_reset{};
  supported_reset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
  VkPhysicalDevicePerformanceQueryFeaturesKHR supported_performance{};
  supported_performance.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
  supported_reset.pNext = &supported_performance;
  VkPhysicalDeviceFeatures2 supported{};
  supported.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  supported.pNext = &supported_reset;
  vkGetPhysicalDeviceFeatures2(chosen.device, &supported);

  VkPhysicalDeviceHostQueryResetFeatures reset{};
  reset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
  reset.hostQueryReset = supported_reset.hostQueryReset;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &reset;
  features.features.pipelineStatisticsQuery = supported.features.pipelineStatisticsQuery;
  features.features.geometryShader = supported.features.geometryShader;
  self->geometry_shader_ = supported.features.geometryShader == VK_TRUE;

  std::uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(chosen.device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> available(count);
  vkEnumerateDeviceExtensionProperties(chosen.device, nullptr, &count, available.data());
  std::vector<const char*> extensions;
  // AMD's lists (offered under the layer VK_LAYER_OPENGPA_gpa_interface, or by AMD's driver), then what
  // OpenGPA's query path uses besides: host query reset (core in Vulkan 1.2) and calibrated timestamps.
  for (const char* name : {AMD_GPA_REQUIRED_DEVICE_EXTENSION_NAME_LIST, AMD_GPA_OPTIONAL_DEVICE_EXTENSION_NAME_LIST,
                           VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME}) {
    if (HasExtension(available, name)) extensions.push_back(name);
  }
  self->gpa_interface_ = HasExtension(available, VK_AMD_GPA_INTERFACE_EXTENSION_NAME);
  // The driver's own hardware counters, where it offers them (RADV, ANV, Turnip ...): OpenGPA counts them when the
  // device has the extension and its query-pool features.
  VkPhysicalDevicePerformanceQueryFeaturesKHR performance{};
  performance.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
  if (HasExtension(available, VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME) &&
      supported_performance.performanceCounterQueryPools == VK_TRUE) {
    extensions.push_back(VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME);
    performance.performanceCounterQueryPools = VK_TRUE;
    performance.performanceCounterMultipleQueryPools = supported_performance.performanceCounterMultipleQueryPools;
    reset.pNext = &performance;
    self->performance_query_ = true;
  }
  self->calibrated_timestamps_ = HasExtension(available, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{};
  queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue.queueFamilyIndex = chosen.family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  result = vkCreateDevice(chosen.device, &info, nullptr, &self->device_);
  if (result != VK_SUCCESS) {
    *error = std::string("vkCreateDevice on ") + self->properties_.deviceName + " failed: " + Describe(result);
    return nullptr;
  }
  vkGetDeviceQueue(self->device_, chosen.family, 0, &self->queue_);

  VkCommandPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = chosen.family;
  result = vkCreateCommandPool(self->device_, &pool, nullptr, &self->command_pool_);
  if (result != VK_SUCCESS) {
    *error = "vkCreateCommandPool failed: " + Describe(result);
    return nullptr;
  }
  return self;
}

VulkanDevice::~VulkanDevice() {
  if (device_ != VK_NULL_HANDLE) {
    // Only after work was submitted: RADV's null device (RADV_FORCE_FAMILY, no GPU) crashes in vkDeviceWaitIdle.
    if (submitted_) vkDeviceWaitIdle(device_);
    if (command_pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_, command_pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

VkCommandBuffer VulkanDevice::AllocateCommandBuffer(VkCommandBufferLevel level) {
  VkCommandBufferAllocateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  info.commandPool = command_pool_;
  info.level = level;
  info.commandBufferCount = 1;
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  if (vkAllocateCommandBuffers(device_, &info, &command_buffer) != VK_SUCCESS) return VK_NULL_HANDLE;
  return command_buffer;
}

double VulkanDevice::SubmitAndWait(const std::vector<VkCommandBuffer>& command_buffers) {
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkFence fence = VK_NULL_HANDLE;
  vkCreateFence(device_, &fence_info, nullptr, &fence);
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = static_cast<std::uint32_t>(command_buffers.size());
  submit.pCommandBuffers = command_buffers.data();
  const auto start = std::chrono::steady_clock::now();
  submitted_ = true;
  VkResult result = vkQueueSubmit(queue_, 1, &submit, fence);
  if (result == VK_SUCCESS) result = vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX);
  const auto end = std::chrono::steady_clock::now();
  vkDestroyFence(device_, fence, nullptr);
  if (result != VK_SUCCESS) return -1.0;
  return std::chrono::duration<double, std::nano>(end - start).count();
}

std::uint32_t VulkanDevice::FindMemoryType(std::uint32_t type_bits, VkMemoryPropertyFlags properties) const {
  for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & properties) == properties) return i;
  }
  return UINT32_MAX;
}

}  // namespace opengpa::vkwork
