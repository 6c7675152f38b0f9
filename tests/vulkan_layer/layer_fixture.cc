#include "layer_fixture.h"

#include <cstdlib>

namespace opengpa::layertest {

std::unique_ptr<LayerTest::Shared> LayerTest::shared_;

namespace {

template <typename T>
bool Resolve(VkDevice device, const char* name, T* slot) {
  *slot = reinterpret_cast<T>(vkGetDeviceProcAddr(device, name));
  return *slot != nullptr;
}

}  // namespace

void LayerTest::SetUpTestSuite() {
  if (shared_ != nullptr) return;
  shared_ = std::make_unique<Shared>();
  Shared& shared = *shared_;
  // The layer as a user enables it; a value already set (tests/device/vulkan/run.sh) is kept.
  setenv("VK_ADD_LAYER_PATH", OPENGPA_VULKAN_LAYER_DIR, 0);
  setenv("VK_INSTANCE_LAYERS", "VK_LAYER_OPENGPA_gpa_interface", 0);
  std::string error;
  shared.device = vkwork::VulkanDevice::Create(vkwork::DevicePreference::kSoftware, &error);
  if (!shared.device) {
    shared.problem = "no Vulkan device: " + error;
    return;
  }
  if (!shared.device->has_gpa_interface()) {
    shared.problem = std::string(shared.device->properties().deviceName) +
                     " offers no VK_AMD_gpa_interface: is VK_LAYER_OPENGPA_gpa_interface enabled "
                     "(VK_ADD_LAYER_PATH, VK_INSTANCE_LAYERS)?";
    return;
  }
  const VkDevice vk = shared.device->device();
  GpaInterface& f = shared.gpa;
  const bool all = Resolve(vk, "vkCreateGpaSessionAMD", &f.CreateGpaSession) &&
                   Resolve(vk, "vkDestroyGpaSessionAMD", &f.DestroyGpaSession) &&
                   Resolve(vk, "vkCmdBeginGpaSessionAMD", &f.CmdBeginGpaSession) &&
                   Resolve(vk, "vkCmdEndGpaSessionAMD", &f.CmdEndGpaSession) &&
                   Resolve(vk, "vkCmdBeginGpaSampleAMD", &f.CmdBeginGpaSample) &&
                   Resolve(vk, "vkCmdEndGpaSampleAMD", &f.CmdEndGpaSample) &&
                   Resolve(vk, "vkGetGpaSessionStatusAMD", &f.GetGpaSessionStatus) &&
                   Resolve(vk, "vkGetGpaSessionResultsAMD", &f.GetGpaSessionResults) &&
                   Resolve(vk, "vkResetGpaSessionAMD", &f.ResetGpaSession) &&
                   Resolve(vk, "vkCmdCopyGpaSessionResultsAMD", &f.CmdCopyGpaSessionResults) &&
                   Resolve(vk, "vkSetGpaDeviceClockModeAMD", &f.SetGpaDeviceClockMode) &&
                   Resolve(vk, "vkGetGpaDeviceClockInfoAMD", &f.GetGpaDeviceClockInfo);
  if (!all) {
    shared.problem = "an entry point of VK_AMD_gpa_interface does not resolve through vkGetDeviceProcAddr";
    return;
  }
  shared.target = vkwork::RenderTarget::Create(*shared.device, 256, 192, &error);
  if (shared.target) {
    shared.grid =
        vkwork::GraphicsPipeline::Create(*shared.device, *shared.target, vkwork::Geometry::kGridTriangles, &error);
  }
  if (shared.grid) {
    shared.fullscreen =
        vkwork::GraphicsPipeline::Create(*shared.device, *shared.target, vkwork::Geometry::kFullScreenTriangle, &error);
  }
  if (shared.fullscreen) shared.compute = vkwork::CountingCompute::Create(*shared.device, 64, &error);
  if (!shared.compute) shared.problem = "GPU objects: " + error;
}

void LayerTest::TearDownTestSuite() {
  if (shared_ == nullptr) return;
  shared_->compute.reset();
  shared_->fullscreen.reset();
  shared_->grid.reset();
  shared_->target.reset();
  shared_->device.reset();
  shared_.reset();
}

void LayerTest::SetUp() {
  if (!shared_->problem.empty()) FAIL() << shared_->problem;
  VkQueryPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2;
  ASSERT_EQ(vkCreateQueryPool(vk(), &info, nullptr, &bounds_), VK_SUCCESS);
}

void LayerTest::TearDown() {
  if (shared_ == nullptr || !shared_->device) return;
  vkDeviceWaitIdle(vk());
  // Copy destinations before their sources.
  for (auto it = sessions_.rbegin(); it != sessions_.rend(); ++it) gpa().DestroyGpaSession(vk(), *it, nullptr);
  if (bounds_ != VK_NULL_HANDLE) vkDestroyQueryPool(vk(), bounds_, nullptr);
}

VkGpaSessionAMD LayerTest::CreateSession(VkGpaSessionAMD copy_source) {
  VkGpaSessionCreateInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
  info.secondaryCopySource = copy_source;
  VkGpaSessionAMD session = VK_NULL_HANDLE;
  EXPECT_EQ(gpa().CreateGpaSession(vk(), &info, nullptr, &session), VK_SUCCESS);
  if (session != VK_NULL_HANDLE) sessions_.push_back(session);
  return session;
}

VkCommandBuffer LayerTest::BeginPrimary() {
  VkCommandBuffer command_buffer = device().AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  EXPECT_EQ(vkBeginCommandBuffer(command_buffer, &begin), VK_SUCCESS);
  return command_buffer;
}

VkCommandBuffer LayerTest::BeginSecondaryInRenderPass() {
  VkCommandBuffer command_buffer = device().AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  const VkCommandBufferInheritanceInfo inheritance = target().Inheritance();
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT | VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
  begin.pInheritanceInfo = &inheritance;
  EXPECT_EQ(vkBeginCommandBuffer(command_buffer, &begin), VK_SUCCESS);
  target().SetViewport(command_buffer);
  return command_buffer;
}

VkGpaSampleBeginInfoAMD LayerTest::TimingInfo(VkPipelineStageFlags pre, VkPipelineStageFlags post) {
  VkGpaSampleBeginInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
  info.sampleType = VK_GPA_SAMPLE_TYPE_TIMING_AMD;
  info.timingPreSample = pre;
  info.timingPostSample = post;
  return info;
}

std::vector<VkGpaPerfBlockPropertiesAMD> LayerTest::Blocks() {
  VkPhysicalDeviceGpaPropertiesAMD gpa_properties{};
  gpa_properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &gpa_properties;
  vkGetPhysicalDeviceProperties2(device().physical_device(), &properties);
  std::vector<VkGpaPerfBlockPropertiesAMD> blocks(gpa_properties.perfBlockCount);
  gpa_properties.pPerfBlocks = blocks.data();
  vkGetPhysicalDeviceProperties2(device().physical_device(), &properties);
  blocks.resize(gpa_properties.perfBlockCount);
  return blocks;
}

VkGpaSampleBeginInfoAMD LayerTest::CumulativeInfo(const std::vector<VkGpaPerfCounterAMD>& counters) {
  VkGpaSampleBeginInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
  info.sampleType = VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD;
  info.perfCounterCount = static_cast<std::uint32_t>(counters.size());
  info.pPerfCounters = counters.data();
  return info;
}

std::vector<std::uint64_t> LayerTest::Results(VkGpaSessionAMD session, std::uint32_t sample_id) {
  std::size_t size = 0;
  EXPECT_EQ(gpa().GetGpaSessionResults(vk(), session, sample_id, &size, nullptr), VK_SUCCESS);
  std::vector<std::uint64_t> values(size / sizeof(std::uint64_t));
  if (values.empty()) {
    ADD_FAILURE() << "sample " << sample_id << " has no result size";
    return values;
  }
  const VkResult result = gpa().GetGpaSessionResults(vk(), session, sample_id, &size, values.data());
  EXPECT_EQ(result, VK_SUCCESS) << "sample " << sample_id;
  if (result != VK_SUCCESS) values.clear();
  return values;
}

void LayerTest::WriteBounds(VkCommandBuffer command_buffer, std::uint32_t query) {
  if (query == 0) vkCmdResetQueryPool(command_buffer, bounds_, 0, 2);
  vkCmdWriteTimestamp(command_buffer,
                      query == 0 ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, bounds_,
                      query);
}

std::uint64_t LayerTest::ReadBound(std::uint32_t query) {
  std::uint64_t value = 0;
  EXPECT_EQ(vkGetQueryPoolResults(vk(), bounds_, query, 1, sizeof value, &value, sizeof value,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  return value;
}

}  // namespace opengpa::layertest
