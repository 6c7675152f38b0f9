// Tests of VK_LAYER_OPENGPA_gpa_interface through the real Vulkan loader: the test program creates its
// instance and device the way an application built against AMD's GPA headers does (vulkan_device.h, with
// AMD_GPA_REQUIRED_DEVICE_EXTENSION_NAME_LIST), with the layer enabled by the environment ctest sets
// (VK_ADD_LAYER_PATH, VK_INSTANCE_LAYERS). lavapipe in CI; the NVIDIA driver through tests/device/vulkan/run.sh.
#ifndef OPENGPA_TESTS_VULKAN_LAYER_LAYER_FIXTURE_H_
#define OPENGPA_TESTS_VULKAN_LAYER_LAYER_FIXTURE_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gpu_objects.h"
#include "vk_amd_gpa_interface.h"
#include "vulkan_device.h"

namespace opengpa::layertest {

// The extension's entry points, as the application gets them from vkGetDeviceProcAddr.
struct GpaInterface {
  PFN_vkCreateGpaSessionAMD CreateGpaSession = nullptr;
  PFN_vkDestroyGpaSessionAMD DestroyGpaSession = nullptr;
  PFN_vkCmdBeginGpaSessionAMD CmdBeginGpaSession = nullptr;
  PFN_vkCmdEndGpaSessionAMD CmdEndGpaSession = nullptr;
  PFN_vkCmdBeginGpaSampleAMD CmdBeginGpaSample = nullptr;
  PFN_vkCmdEndGpaSampleAMD CmdEndGpaSample = nullptr;
  PFN_vkGetGpaSessionStatusAMD GetGpaSessionStatus = nullptr;
  PFN_vkGetGpaSessionResultsAMD GetGpaSessionResults = nullptr;
  PFN_vkResetGpaSessionAMD ResetGpaSession = nullptr;
  PFN_vkCmdCopyGpaSessionResultsAMD CmdCopyGpaSessionResults = nullptr;
  PFN_vkSetGpaDeviceClockModeAMD SetGpaDeviceClockMode = nullptr;
  PFN_vkGetGpaDeviceClockInfoAMD GetGpaDeviceClockInfo = nullptr;
};

// The counters of the layer's documented mapping (docs/vulkan-layer.md).
constexpr VkGpaPerfCounterAMD kIaVertices{VK_GPA_PERF_BLOCK_IA_AMD, 0, 0};
constexpr VkGpaPerfCounterAMD kIaPrimitives{VK_GPA_PERF_BLOCK_IA_AMD, 0, 1};
constexpr VkGpaPerfCounterAMD kVsInvocations{VK_GPA_PERF_BLOCK_VGT_AMD, 0, 0};
constexpr VkGpaPerfCounterAMD kClippingPrimitives{VK_GPA_PERF_BLOCK_PA_AMD, 0, 1};
constexpr VkGpaPerfCounterAMD kFsInvocations{VK_GPA_PERF_BLOCK_SPI_AMD, 0, 0};
constexpr VkGpaPerfCounterAMD kCsInvocations{VK_GPA_PERF_BLOCK_SPI_AMD, 0, 1};

class LayerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;
  void TearDown() override;

  static vkwork::VulkanDevice& device() { return *shared_->device; }
  static VkDevice vk() { return shared_->device->device(); }
  static const GpaInterface& gpa() { return shared_->gpa; }
  static const vkwork::RenderTarget& target() { return *shared_->target; }
  static const vkwork::GraphicsPipeline& grid() { return *shared_->grid; }
  static const vkwork::GraphicsPipeline& fullscreen() { return *shared_->fullscreen; }
  static vkwork::CountingCompute& compute() { return *shared_->compute; }

  // A session destroyed by TearDown.
  VkGpaSessionAMD CreateSession(VkGpaSessionAMD copy_source = VK_NULL_HANDLE);
  VkCommandBuffer BeginPrimary();
  // A secondary command buffer (simultaneous use) begun to continue target()'s render pass.
  VkCommandBuffer BeginSecondaryInRenderPass();
  void End(VkCommandBuffer command_buffer) { ASSERT_EQ(vkEndCommandBuffer(command_buffer), VK_SUCCESS); }
  void Submit(const std::vector<VkCommandBuffer>& command_buffers) {
    ASSERT_GE(device().SubmitAndWait(command_buffers), 0.0) << "submission failed";
  }

  static VkGpaSampleBeginInfoAMD TimingInfo(VkPipelineStageFlags pre = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                            VkPipelineStageFlags post = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
  static VkGpaSampleBeginInfoAMD CumulativeInfo(const std::vector<VkGpaPerfCounterAMD>& counters);
  // The perf blocks the layer publishes in VkPhysicalDeviceGpaPropertiesAMD, in its order.
  static std::vector<VkGpaPerfBlockPropertiesAMD> Blocks();

  // A sample's result (its size asked first, as AMD's GPA does), or empty with a failure.
  std::vector<std::uint64_t> Results(VkGpaSessionAMD session, std::uint32_t sample_id);

  // A query pool of two timestamps that brackets the work of a command buffer (the submission's bounds).
  VkQueryPool bounds() const { return bounds_; }
  void WriteBounds(VkCommandBuffer command_buffer, std::uint32_t query);  // resets it first (outside render passes)
  std::uint64_t ReadBound(std::uint32_t query);

  // Stores `value` in an enum field as a C application may (any int), without C++ forming the enum value.
  template <typename Enum>
  static void StoreInt(Enum* field, int value) {
    static_assert(sizeof(Enum) == sizeof(int), "a C enum field");
    std::memcpy(field, &value, sizeof value);
  }

  // stderr of the layer while `action` runs (its misuse reports).
  template <typename Action>
  static std::string LayerMessages(Action&& action) {
    ::testing::internal::CaptureStderr();
    action();
    return ::testing::internal::GetCapturedStderr();
  }

 private:
  struct Shared {
    std::unique_ptr<vkwork::VulkanDevice> device;
    GpaInterface gpa;
    std::unique_ptr<vkwork::RenderTarget> target;
    std::unique_ptr<vkwork::GraphicsPipeline> grid;
    std::unique_ptr<vkwork::GraphicsPipeline> fullscreen;
    std::unique_ptr<vkwork::CountingCompute> compute;
    std::string problem;
  };
  static std::unique_ptr<Shared> shared_;
  std::vector<VkGpaSessionAMD> sessions_;
  VkQueryPool bounds_ = VK_NULL_HANDLE;
};

}  // namespace opengpa::layertest

#endif  // OPENGPA_TESTS_VULKAN_LAYER_LAYER_FIXTURE_H_
