// Downstream use of an installed OpenGPA: links libGPUPerfAPIVK.so through OpenGPA::GPUPerfAPIVK, takes
// its function table with GpaGetFuncTable, and measures one vkCmdFillBuffer with the C++ layer on the
// first Vulkan device (lavapipe in CI). Prints "counters=<n> passes=<p> GPUTime=<ns> CSThreads...".
// Exits 0 only when a GPUTime result was read back.
#include <vulkan/vulkan.h>

#include <cstdio>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_vk.h"
#include "opengpa/opengpa.hpp"

namespace {

#define CHECK_VK(call)                                                     \
  do {                                                                     \
    if (VkResult result = (call); result != VK_SUCCESS) {                  \
      std::fprintf(stderr, "downstream: %s failed (%d)\n", #call, result); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

}  // namespace

int main() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  CHECK_VK(vkCreateInstance(&instance_info, nullptr, &instance));
  std::uint32_t count = 0;
  CHECK_VK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  if (count == 0) {
    std::fprintf(stderr, "downstream: no Vulkan device\n");
    return 1;
  }
  std::vector<VkPhysicalDevice> physical_devices(count);
  CHECK_VK(vkEnumeratePhysicalDevices(instance, &count, physical_devices.data()));
  VkPhysicalDevice physical = physical_devices[0];

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = 0;  // lavapipe's only family does graphics, compute and transfer
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  features12.hostQueryReset = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.pipelineStatisticsQuery = VK_TRUE;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.pNext = &features12;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.pEnabledFeatures = &features;
  VkDevice device = VK_NULL_HANDLE;
  CHECK_VK(vkCreateDevice(physical, &device_info, nullptr, &device));
  VkQueue queue = VK_NULL_HANDLE;
  vkGetDeviceQueue(device, 0, 0, &queue);

  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = 1 << 20;
  buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  CHECK_VK(vkCreateBuffer(device, &buffer_info, nullptr, &buffer));
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, buffer, &requirements);
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  while (!(requirements.memoryTypeBits & (1u << allocate.memoryTypeIndex))) ++allocate.memoryTypeIndex;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  CHECK_VK(vkAllocateMemory(device, &allocate, nullptr, &memory));
  CHECK_VK(vkBindBufferMemory(device, buffer, memory, 0));
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool = VK_NULL_HANDLE;
  CHECK_VK(vkCreateCommandPool(device, &pool_info, nullptr, &pool));

  int exit_code = 1;
  try {
    GpaFunctionTable table{};
    table.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
    table.minor_version = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
    if (GpaGetFuncTable(&table) != kGpaStatusOk) {
      std::fprintf(stderr, "downstream: GpaGetFuncTable failed\n");
      return 1;
    }
    opengpa::Library gpa(&table);
    GpaVkContextOpenInfo open_info{instance, physical, device};
    opengpa::Context context(gpa, &open_info);
    opengpa::Session session(context);
    session.Enable("GPUTime");
    session.Begin();
    const GpaUInt32 passes = session.PassCount();
    for (GpaUInt32 pass = 0; pass < passes; ++pass) {
      VkCommandBufferAllocateInfo allocate_list{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      allocate_list.commandPool = pool;
      allocate_list.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate_list.commandBufferCount = 1;
      VkCommandBuffer commands = VK_NULL_HANDLE;
      CHECK_VK(vkAllocateCommandBuffers(device, &allocate_list, &commands));
      VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      CHECK_VK(vkBeginCommandBuffer(commands, &begin));
      {
        opengpa::CommandList list(session, pass, commands, kGpaCommandListPrimary);
        {
          opengpa::ScopedSample sample(list, 0);
          vkCmdFillBuffer(commands, buffer, 0, VK_WHOLE_SIZE, 0x01020304u);
        }
        list.End();
      }
      CHECK_VK(vkEndCommandBuffer(commands));
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &commands;
      CHECK_VK(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE));
      CHECK_VK(vkQueueWaitIdle(queue));
    }
    session.End();
    const std::vector<opengpa::CounterValue> values = session.Result(0);
    std::printf("device=%s counters=%u passes=%u GPUTime=%g\n", context.DeviceName().c_str(), context.CounterCount(),
                passes, opengpa::AsDouble(values.at(0)));
    exit_code = opengpa::AsDouble(values.at(0)) >= 0 ? 0 : 1;
  } catch (const opengpa::Error& error) {
    std::fprintf(stderr, "downstream: %s\n", error.what());
  }
  vkDestroyCommandPool(device, pool, nullptr);
  vkDestroyBuffer(device, buffer, nullptr);
  vkFreeMemory(device, memory, nullptr);
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
  return exit_code;
}
