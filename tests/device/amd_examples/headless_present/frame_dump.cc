#include "frame_dump.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace opengpa::headless {
namespace {

std::atomic<bool> dumped{false};

// The byte offsets of red, green and blue in a pixel of `format`, or false where the layer does not write it.
bool ChannelOrder(VkFormat format, int order[3]) {
  switch (format) {
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB: order[0] = 2, order[1] = 1, order[2] = 0; return true;
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB: order[0] = 0, order[1] = 1, order[2] = 2; return true;
    default: return false;
  }
}

// The layer's own objects of one read-back, released whatever happens.
struct Readback {
  DeviceState& device;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  explicit Readback(DeviceState& state) : device(state) {}
  ~Readback() {
    if (pool != VK_NULL_HANDLE) device.DestroyCommandPool(device.device, pool, nullptr);
    if (buffer != VK_NULL_HANDLE) device.DestroyBuffer(device.device, buffer, nullptr);
    if (memory != VK_NULL_HANDLE) device.FreeMemory(device.device, memory, nullptr);
  }
};

VkImageMemoryBarrier LayoutChange(VkImage image, VkImageLayout from, VkImageLayout to) {
  VkImageMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  return barrier;
}

// Copies the image (in PRESENT_SRC_KHR, where the program left it to be presented) into a host-visible buffer.
VkResult CopyToBuffer(DeviceState& device, VkQueue queue, std::uint32_t family, VkImage image, VkExtent2D extent,
                      Readback& readback) {
  const VkDeviceSize size = VkDeviceSize{extent.width} * extent.height * 4;
  VkBufferCreateInfo buffer_info{};
  buffer_info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  buffer_info.size = size;
  buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkResult result = device.CreateBuffer(device.device, &buffer_info, nullptr, &readback.buffer);
  if (result != VK_SUCCESS) return result;
  VkMemoryRequirements requirements{};
  device.GetBufferMemoryRequirements(device.device, readback.buffer, &requirements);
  VkPhysicalDeviceMemoryProperties memory_properties{};
  device.instance->GetPhysicalDeviceMemoryProperties(device.physical_device, &memory_properties);
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = FindMemoryType(memory_properties, requirements.memoryTypeBits,
                                            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (allocate.memoryTypeIndex == UINT32_MAX) return VK_ERROR_OUT_OF_HOST_MEMORY;
  result = device.AllocateMemory(device.device, &allocate, nullptr, &readback.memory);
  if (result != VK_SUCCESS) return result;
  result = device.BindBufferMemory(device.device, readback.buffer, readback.memory, 0);
  if (result != VK_SUCCESS) return result;

  VkCommandPoolCreateInfo pool_info{};

  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = family;
  result = device.CreateCommandPool(device.device, &pool_info, nullptr, &readback.pool);
  if (result != VK_SUCCESS) return result;
  VkCommandBufferAllocateInfo command_info{};
  command_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  command_info.commandPool = readback.pool;
  command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  command_info.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  result = device.AllocateCommandBuffers(device.device, &command_info, &commands);
  if (result != VK_SUCCESS) return result;
  // A command buffer the layer makes is dispatchable: the loader must know it before a layer below sees it.
  device.SetDeviceLoaderData(device.device, commands);

  VkCommandBufferBeginInfo begin{};

  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  result = device.BeginCommandBuffer(commands, &begin);
  if (result != VK_SUCCESS) return result;
  VkImageMemoryBarrier to_copy =
      LayoutChange(image, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  device.CmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0,
                            nullptr, 0, nullptr, 1, &to_copy);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  device.CmdCopyImageToBuffer(commands, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
  VkImageMemoryBarrier back =
      LayoutChange(image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
  device.CmdPipelineBarrier(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0,
                            nullptr, 0, nullptr, 1, &back);
  result = device.EndCommandBuffer(commands);
  if (result != VK_SUCCESS) return result;
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  std::lock_guard<std::mutex> lock(device.mutex);
  result = device.QueueSubmit(queue, 1, &submit, VK_NULL_HANDLE);
  return result != VK_SUCCESS ? result : device.QueueWaitIdle(queue);
}

bool WritePpm(const std::string& path, const unsigned char* pixels, VkExtent2D extent, const int order[3]) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return false;
  std::fprintf(file, "P6\n%u %u\n255\n", extent.width, extent.height);
  std::vector<unsigned char> row(std::size_t{extent.width} * 3);
  bool ok = true;
  for (std::uint32_t y = 0; y < extent.height && ok; ++y) {
    const unsigned char* source = pixels + std::size_t{y} * extent.width * 4;
    for (std::uint32_t x = 0; x < extent.width; ++x) {
      for (int c = 0; c < 3; ++c) row[std::size_t{x} * 3 + c] = source[std::size_t{x} * 4 + order[c]];
    }
    ok = std::fwrite(row.data(), 1, row.size(), file) == row.size();
  }
  return std::fclose(file) == 0 && ok;
}

}  // namespace

void DumpFrameIfAsked(DeviceState& device, VkQueue queue, const Swapchain& swapchain, std::uint32_t image_index,
                      std::uint64_t frame) {
  const char* path = std::getenv("OPENGPA_HEADLESS_PRESENT_DUMP");
  if (path == nullptr || *path == '\0' || dumped) return;
  const char* wanted = std::getenv("OPENGPA_HEADLESS_PRESENT_DUMP_FRAME");
  if (frame != (wanted != nullptr ? std::strtoull(wanted, nullptr, 10) : 0)) return;
  dumped = true;
  int order[3];
  if (!ChannelOrder(swapchain.format, order)) {
    Log("frame dump: format " + std::to_string(swapchain.format) + " is not written (B8G8R8A8 and R8G8B8A8 are)");
    return;
  }
  std::uint32_t family = 0;
  {
    std::lock_guard<std::mutex> lock(device.mutex);
    auto it = device.queue_families.find(queue);
    if (it == device.queue_families.end()) {
      Log("frame dump: the presenting queue was not fetched through vkGetDeviceQueue");
      return;
    }
    family = it->second;
  }
  VkResult result = VK_SUCCESS;
  {
    std::lock_guard<std::mutex> lock(device.mutex);
    result = device.QueueWaitIdle(queue);  // the frame's rendering, and the present's wait, are done
  }
  Readback readback(device);
  if (result == VK_SUCCESS) {
    result = CopyToBuffer(device, queue, family, swapchain.images[image_index], swapchain.extent, readback);
  }
  void* mapped = nullptr;
  if (result == VK_SUCCESS) result = device.MapMemory(device.device, readback.memory, 0, VK_WHOLE_SIZE, 0, &mapped);
  if (result != VK_SUCCESS) {
    Log("frame dump: reading the image back failed (VkResult " + std::to_string(result) + ")");
    return;
  }
  const bool written = WritePpm(path, static_cast<const unsigned char*>(mapped), swapchain.extent, order);
  device.UnmapMemory(device.device, readback.memory);
  Log(std::string(written ? "wrote" : "could not write") + " presented frame " + std::to_string(frame) + " (image " +
      std::to_string(image_index) + ") to " + path);
}

}  // namespace opengpa::headless
