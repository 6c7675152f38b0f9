// Tests of libGPUPerfAPIVK.so through GPA's public C API (dlopen + GpaGetFuncTable) on a real Vulkan
// driver: Mesa's lavapipe in CI (the CPU device is preferred when several are present), the NVIDIA driver
// through tests/device/vulkan/run.sh.
//
// Without any Vulkan device every test fails, naming what is missing: building the Vulkan backend
// (OPENGPA_WITH_VULKAN) means these tests must run.
#ifndef OPENGPA_TESTS_VULKAN_VULKAN_GPA_FIXTURE_H_
#define OPENGPA_TESTS_VULKAN_VULKAN_GPA_FIXTURE_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/loaded_gpa_library.h"
#include "gpu_objects.h"
#include "gpu_performance_api/gpu_perf_api_vk.h"
#include "gpu_performance_api/opengpa_ext.h"
#include "vulkan_device.h"

namespace opengpa::vktest {

using vkwork::CountingCompute;
using vkwork::Geometry;
using vkwork::GraphicsPipeline;
using vkwork::RenderTarget;
using vkwork::VulkanDevice;

// Counter values of one sample, by counter name.
using SampleValues = std::map<std::string, double>;

class VulkanGpaTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;
  void TearDown() override;

  static const GpaFunctionTable& gpa() { return shared_->library->Table(); }
  static VulkanDevice& device() { return *shared_->device; }
  static bool IsLavapipe() { return std::string(device().properties().deviceName).rfind("llvmpipe", 0) == 0; }
  GpaContextId context() const { return context_; }
  // For tests that close the fixture's context themselves.
  void ForgetContext() { context_ = nullptr; }

  // Shared GPU objects (built once per test program): a render target and pipelines drawing into it.
  static const RenderTarget& target() { return *shared_->target; }
  static const GraphicsPipeline& grid() { return *shared_->grid; }
  static const GraphicsPipeline& fullscreen() { return *shared_->fullscreen; }

  // A session with the named counters enabled (all counters when `counters` is empty), begun.
  GpaSessionId BeginSessionWith(const std::vector<std::string>& counters = {});
  // A primary command buffer, begun.
  VkCommandBuffer BeginPrimary();
  // A secondary command buffer, begun to continue target()'s render pass.
  VkCommandBuffer BeginSecondaryInRenderPass();
  GpaCommandListId BeginList(GpaSessionId session, VkCommandBuffer command_buffer,
                             GpaCommandListType type = kGpaCommandListPrimary, GpaUInt32 pass = 0);
  // Draws `triangles` grid triangles inside target()'s render pass between GpaBeginSample/GpaEndSample.
  void SampleGridDraw(GpaCommandListId list, GpaUInt32 sample_id, VkCommandBuffer command_buffer,
                      std::uint32_t triangles);
  // One sample's values through GpaGetSampleResult (the session must be ended, its work submitted).
  SampleValues Read(GpaSessionId session, GpaUInt32 sample_id);
  // The last error messages the library logged (cleared by SetUp).
  static const std::vector<std::string>& errors();
  static bool ErrorMentions(const std::string& text);

  static constexpr float kColor[4] = {0.9f, 0.6f, 0.2f, 1.0f};

 private:
  struct Shared {
    std::unique_ptr<VulkanDevice> device;
    std::unique_ptr<client::LoadedGpaLibrary> library;
    std::unique_ptr<RenderTarget> target;
    std::unique_ptr<GraphicsPipeline> grid;
    std::unique_ptr<GraphicsPipeline> fullscreen;
    std::string problem;  // why the suite cannot run
  };
  // Built by each suite's SetUpTestSuite and torn down by its TearDownTestSuite, never at exit: some drivers
  // (NVIDIA's) are already unloading when static destructors run, and destroying a device then crashes.
  static std::unique_ptr<Shared> shared_;
  GpaContextId context_ = nullptr;
  std::vector<GpaSessionId> sessions_;
};

}  // namespace opengpa::vktest

#endif  // OPENGPA_TESTS_VULKAN_VULKAN_GPA_FIXTURE_H_
