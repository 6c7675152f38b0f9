// The few GPU objects the Vulkan workloads need, each owning its Vulkan handles: a color render target,
// graphics pipelines (grid of small triangles, full-screen triangle, optional geometry shader) and a
// counting compute pipeline. Shaders are GLSL in samples/vulkan/shaders, compiled to SPIR-V at build time.
#ifndef OPENGPA_SAMPLES_VULKAN_WORKLOAD_GPU_OBJECTS_H_
#define OPENGPA_SAMPLES_VULKAN_WORKLOAD_GPU_OBJECTS_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "vulkan_device.h"

namespace opengpa::vkwork {

// A Vulkan handle destroyed with its device.
template <typename Handle, void (*Destroy)(VkDevice, Handle, const VkAllocationCallbacks*)>
class Owned {
 public:
  Owned() = default;
  Owned(VkDevice device, Handle handle) : device_(device), handle_(handle) {}
  Owned(Owned&& other) noexcept : device_(other.device_), handle_(std::exchange(other.handle_, Handle{})) {}
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) {
      Reset();
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, Handle{});
    }
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() { Reset(); }
  Handle get() const { return handle_; }
  // For vkCreate*: the new handle is owned once written.
  Handle* Receive(VkDevice device) {
    Reset();
    device_ = device;
    return &handle_;
  }

 private:
  void Reset() {
    if (handle_ != Handle{}) Destroy(device_, handle_, nullptr);
    handle_ = Handle{};
  }
  VkDevice device_ = VK_NULL_HANDLE;
  Handle handle_{};
};

// One color attachment (and, when asked, a 32-bit depth attachment) and a render pass that clears them (depth
// to 1.0).
class RenderTarget {
 public:
  static std::unique_ptr<RenderTarget> Create(VulkanDevice& device, std::uint32_t width, std::uint32_t height,
                                              std::string* error, bool depth = false);
  // Begins the render pass (cleared) and sets the viewport and scissor to the whole target.
  void Begin(VkCommandBuffer command_buffer, VkSubpassContents contents) const;
  // Viewport and scissor for a secondary command buffer that continues the render pass.
  void SetViewport(VkCommandBuffer command_buffer) const;
  void End(VkCommandBuffer command_buffer) const { vkCmdEndRenderPass(command_buffer); }
  // Inheritance info for secondary command buffers drawing inside this render pass.
  VkCommandBufferInheritanceInfo Inheritance() const;

  VkRenderPass render_pass() const { return render_pass_.get(); }
  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }
  bool has_depth() const { return depth_view_.get() != VK_NULL_HANDLE; }

 private:
  std::uint32_t width_ = 0, height_ = 0;
  Owned<VkImage, vkDestroyImage> depth_image_;
  Owned<VkDeviceMemory, vkFreeMemory> depth_memory_;
  Owned<VkImageView, vkDestroyImageView> depth_view_;
  Owned<VkImage, vkDestroyImage> image_;
  Owned<VkDeviceMemory, vkFreeMemory> memory_;
  Owned<VkImageView, vkDestroyImageView> view_;
  Owned<VkRenderPass, vkDestroyRenderPass> render_pass_;
  Owned<VkFramebuffer, vkDestroyFramebuffer> framebuffer_;
};

enum class Geometry {
  kGridTriangles,        // triangle t in cell t of a grid: a draw of 3*M vertices is M unclipped triangles
  kGridTrianglesWithGs,  // the same through a pass-through geometry shader
  kFullScreenTriangle,   // one unclipped triangle covering the whole target: one fragment per pixel
};

class GraphicsPipeline {
 public:
  static std::unique_ptr<GraphicsPipeline> Create(VulkanDevice& device, const RenderTarget& target, Geometry geometry,
                                                  std::string* error);
  // Binds the pipeline and draws `vertex_count` vertices `instance_count` times in the given color. Grid
  // triangles from `first_outside` on are placed wholly outside the view volume. `scissor` (default: the whole
  // target) limits the pixels drawn. On a target with depth, the pipeline tests depth with LESS and writes it
  // (every shader writes z = 0.5), so a second identical draw is rejected by the depth test.
  void Draw(VkCommandBuffer command_buffer, std::uint32_t vertex_count, std::uint32_t instance_count,
            const float (&color)[4], std::uint32_t first_outside = UINT32_MAX, const VkRect2D* scissor = nullptr) const;

  static constexpr std::uint32_t kGridColumns = 64;

 private:
  Geometry geometry_ = Geometry::kGridTriangles;
  std::uint32_t width_ = 0, height_ = 0;  // of the render target
  Owned<VkPipelineLayout, vkDestroyPipelineLayout> layout_;
  Owned<VkPipeline, vkDestroyPipeline> pipeline_;
};

// A compute pipeline with workgroup size (local_size, 1, 1) that counts its invocations in a host-visible
// buffer and runs `iterations` FMAs per invocation.
class CountingCompute {
 public:
  static std::unique_ptr<CountingCompute> Create(VulkanDevice& device, std::uint32_t local_size, std::string* error);
  void Dispatch(VkCommandBuffer command_buffer, std::uint32_t x, std::uint32_t y, std::uint32_t z,
                std::uint32_t iterations) const;
  // Makes the shader's writes visible to the host after the submission completes.
  void RecordHostReadBarrier(VkCommandBuffer command_buffer) const;
  void ResetInvocations();
  std::uint32_t Invocations() const;

 private:
  static constexpr std::uint32_t kValues = 1u << 16;
  std::uint32_t* mapped_ = nullptr;
  Owned<VkBuffer, vkDestroyBuffer> buffer_;
  Owned<VkDeviceMemory, vkFreeMemory> memory_;
  Owned<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout> set_layout_;
  Owned<VkDescriptorPool, vkDestroyDescriptorPool> descriptor_pool_;
  VkDescriptorSet set_ = VK_NULL_HANDLE;  // freed with its pool
  Owned<VkPipelineLayout, vkDestroyPipelineLayout> layout_;
  Owned<VkPipeline, vkDestroyPipeline> pipeline_;
};

}  // namespace opengpa::vkwork

#endif  // OPENGPA_SAMPLES_VULKAN_WORKLOAD_GPU_OBJECTS_H_
