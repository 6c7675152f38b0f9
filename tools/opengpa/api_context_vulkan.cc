// Vulkan bootstrap: an instance and a device on the best physical device (discrete, integrated, virtual,
// then CPU drivers such as lavapipe), created the way gpu_perf_api_vk.h asks (host query reset,
// pipeline statistics, calibrated timestamps when offered).
#define VK_NO_PROTOTYPES
#include <algorithm>
#include <cstring>
#include <vector>

#include "api_context.h"
#include "gpu_performance_api/gpu_perf_api_vk.h"
#include "platform/dynamic_library.h"

namespace opengpa::cli {
namespace {

int DeviceTypeRank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 4;
    default: return 3;
  }
}

const char* DeviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

std::string VkResultText(VkResult result) { return "VkResult " + std::to_string(static_cast<int>(result)); }

class VulkanApiContext : public ApiContext {
 public:
  explicit VulkanApiContext(std::unique_ptr<DynamicLibrary> loader) : loader_(std::move(loader)) {}

  ~VulkanApiContext() override {
    if (device_ != VK_NULL_HANDLE) destroy_device_(device_, nullptr);
    if (instance_ != VK_NULL_HANDLE) destroy_instance_(instance_, nullptr);
  }

  bool Create(const ContextRequest& request, std::string* error) {
    auto get_instance_proc = loader_->Get<PFN_vkGetInstanceProcAddr>("vkGetInstanceProcAddr");
    if (!get_instance_proc) {
      *error = loader_->Name() + " does not export vkGetInstanceProcAddr";
      return false;
    }
    if (!CreateInstance(get_instance_proc, error)) return false;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    if (!ChoosePhysicalDevice(get_instance_proc, request.device, &physical, error)) return false;
    return CreateDevice(get_instance_proc, physical, error);
  }

  void* OpenContextArgument() override { return &open_info_; }
  std::string Description() const override { return description_; }

 private:
  bool CreateInstance(PFN_vkGetInstanceProcAddr get_proc, std::string* error) {
    auto enumerate_version =
        reinterpret_cast<PFN_vkEnumerateInstanceVersion>(get_proc(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
    auto enumerate_extensions = reinterpret_cast<PFN_vkEnumerateInstanceExtensionProperties>(
        get_proc(VK_NULL_HANDLE, "vkEnumerateInstanceExtensionProperties"));
    auto create_instance = reinterpret_cast<PFN_vkCreateInstance>(get_proc(VK_NULL_HANDLE, "vkCreateInstance"));
    if (!enumerate_extensions || !create_instance) {
      *error = "the Vulkan loader lacks vkCreateInstance";
      return false;
    }
    std::uint32_t version = VK_API_VERSION_1_0;
    if (enumerate_version) enumerate_version(&version);
    api_version_ = std::min<std::uint32_t>(version, VK_API_VERSION_1_2);

    std::uint32_t count = 0;
    enumerate_extensions(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> available(count);
    enumerate_extensions(nullptr, &count, available.data());
    std::vector<const char*> extensions;
    for (const auto& extension : available) {
      if (std::strcmp(extension.extensionName, AMD_GPA_REQUIRED_INSTANCE_EXTENSION_NAME_LIST) == 0) {
        extensions.push_back(AMD_GPA_REQUIRED_INSTANCE_EXTENSION_NAME_LIST);
      }
    }

    VkApplicationInfo app{};

    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "opengpa";
    app.apiVersion = api_version_;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    const VkResult result = create_instance(&info, nullptr, &instance_);
    if (result != VK_SUCCESS) {
      *error = "vkCreateInstance failed: " + VkResultText(result) + " (is a Vulkan driver installed?)";
      instance_ = VK_NULL_HANDLE;
      return false;
    }
    destroy_instance_ = reinterpret_cast<PFN_vkDestroyInstance>(get_proc(instance_, "vkDestroyInstance"));
    return true;
  }

  bool ChoosePhysicalDevice(PFN_vkGetInstanceProcAddr get_proc, int requested, VkPhysicalDevice* out,
                            std::string* error) {
    auto enumerate =
        reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(get_proc(instance_, "vkEnumeratePhysicalDevices"));
    auto properties_of =
        reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(get_proc(instance_, "vkGetPhysicalDeviceProperties"));
    std::uint32_t count = 0;
    enumerate(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    enumerate(instance_, &count, devices.data());
    if (devices.empty()) {
      *error = "no Vulkan physical device (install mesa-vulkan-drivers for lavapipe)";
      return false;
    }
    std::vector<VkPhysicalDeviceProperties> properties(devices.size());
    for (std::size_t i = 0; i < devices.size(); ++i) properties_of(devices[i], &properties[i]);

    std::size_t chosen = 0;
    if (requested >= 0) {
      if (static_cast<std::size_t>(requested) >= devices.size()) {
        *error = "--device " + std::to_string(requested) + " is out of range: this machine has " +
                 std::to_string(devices.size()) + " Vulkan device(s)";
        return false;
      }
      chosen = static_cast<std::size_t>(requested);
    } else {
      for (std::size_t i = 1; i < devices.size(); ++i) {
        if (DeviceTypeRank(properties[i].deviceType) < DeviceTypeRank(properties[chosen].deviceType)) chosen = i;
      }
    }
    *out = devices[chosen];
    const VkPhysicalDeviceProperties& p = properties[chosen];
    description_ = "Vulkan device " + std::to_string(chosen) + " of " + std::to_string(devices.size()) + ": " +
                   p.deviceName + " [" + DeviceTypeName(p.deviceType) + ", Vulkan " +
                   std::to_string(VK_API_VERSION_MAJOR(p.apiVersion)) + "." +
                   std::to_string(VK_API_VERSION_MINOR(p.apiVersion)) + "]";
    device_api_version_ = p.apiVersion;
    return true;
  }

  bool CreateDevice(PFN_vkGetInstanceProcAddr get_proc, VkPhysicalDevice physical, std::string* error) {
    auto queue_families = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(
        get_proc(instance_, "vkGetPhysicalDeviceQueueFamilyProperties"));
    auto enumerate_extensions = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(
        get_proc(instance_, "vkEnumerateDeviceExtensionProperties"));
    auto features_of =
        reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures>(get_proc(instance_, "vkGetPhysicalDeviceFeatures"));
    auto create_device = reinterpret_cast<PFN_vkCreateDevice>(get_proc(instance_, "vkCreateDevice"));

    std::uint32_t family_count = 0;
    queue_families(physical, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    queue_families(physical, &family_count, families.data());
    std::uint32_t family = family_count;
    for (std::uint32_t i = 0; i < family_count; ++i) {
      const VkQueueFlags wanted = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
      if ((families[i].queueFlags & wanted) == wanted) {
        family = i;
        break;
      }
    }
    if (family == family_count) {
      *error = "the chosen Vulkan device has no queue family with both graphics and compute";
      return false;
    }

    std::uint32_t count = 0;
    enumerate_extensions(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> available(count);
    enumerate_extensions(physical, nullptr, &count, available.data());
    auto offered = [&available](const char* name) {
      return std::any_of(available.begin(), available.end(),
                         [name](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
    };
    std::vector<const char*> extensions;
    // AMD's lists (offered under VK_LAYER_OPENGPA_gpa_interface or by AMD's driver), then what OpenGPA's
    // query path uses besides them.
    for (const char* name : {AMD_GPA_REQUIRED_DEVICE_EXTENSION_NAME_LIST, AMD_GPA_OPTIONAL_DEVICE_EXTENSION_NAME_LIST,
                             VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME}) {
      if (offered(name)) extensions.push_back(name);
    }

    VkPhysicalDeviceFeatures supported{};
    features_of(physical, &supported);
    VkPhysicalDeviceFeatures enabled{};
    enabled.pipelineStatisticsQuery = supported.pipelineStatisticsQuery;

    // Host query reset: a Vulkan 1.2 core feature, or the EXT extension's feature struct (same layout).
    VkPhysicalDeviceHostQueryResetFeatures host_reset{};
    host_reset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
    host_reset.hostQueryReset = VK_TRUE;

    // The driver's own hardware counters (VK_KHR_performance_query), with the pool features it supports: the GPA
    // context finds them through the enabled extension (docs/vulkan-driver-counters.md).
    VkPhysicalDevicePerformanceQueryFeaturesKHR performance{};
    performance.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
    auto features2_of = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(
        get_proc(instance_, api_version_ >= VK_API_VERSION_1_1 ? "vkGetPhysicalDeviceFeatures2"
                                                               : "vkGetPhysicalDeviceFeatures2KHR"));
    if (offered(VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME) && features2_of != nullptr) {
      VkPhysicalDeviceFeatures2 features2{};
      features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
      features2.pNext = &performance;
      features2_of(physical, &features2);
      performance.pNext = nullptr;
      if (performance.performanceCounterQueryPools == VK_TRUE) {
        extensions.push_back(VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME);
      }
    }

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{};
    queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queue.queueFamilyIndex = family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    const bool host_reset_available =
        offered(VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME) || device_api_version_ >= VK_API_VERSION_1_2;
    if (host_reset_available) info.pNext = &host_reset;
    if (performance.performanceCounterQueryPools == VK_TRUE) {
      performance.pNext = const_cast<void*>(info.pNext);
      info.pNext = &performance;
    }
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    info.pEnabledFeatures = &enabled;
    const VkResult result = create_device(physical, &info, nullptr, &device_);
    if (result != VK_SUCCESS) {
      *error = "vkCreateDevice failed: " + VkResultText(result);
      device_ = VK_NULL_HANDLE;
      return false;
    }
    destroy_device_ = reinterpret_cast<PFN_vkDestroyDevice>(get_proc(instance_, "vkDestroyDevice"));
    open_info_.instance = instance_;
    open_info_.physical_device = physical;
    open_info_.device = device_;
    return true;
  }

  std::unique_ptr<DynamicLibrary> loader_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  PFN_vkDestroyInstance destroy_instance_ = nullptr;
  PFN_vkDestroyDevice destroy_device_ = nullptr;
  std::uint32_t api_version_ = VK_API_VERSION_1_0;
  std::uint32_t device_api_version_ = VK_API_VERSION_1_0;
  GpaVkContextOpenInfo open_info_{};
  std::string description_;
};

}  // namespace

std::unique_ptr<ApiContext> CreateVulkanApiContext(const ContextRequest& request, std::string* error) {
  auto loader = DynamicLibrary::Open({"libvulkan.so.1", "libvulkan.so"}, error);
  if (!loader) {
    *error = "cannot load the Vulkan loader: " + *error;
    return nullptr;
  }
  auto context = std::make_unique<VulkanApiContext>(std::move(loader));
  if (!context->Create(request, error)) return nullptr;
  return context;
}

}  // namespace opengpa::cli
