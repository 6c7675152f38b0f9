// libGPUPerfAPIVK.so's hardware counters on an NVIDIA GPU (PerfWorks' GPU periodic sampler), each against the
// truth of the work sampled: pixels covered, vertices drawn, threads and groups dispatched, bytes copied. Run by
// tests/device/graphics/run.sh on the H100; every test prints its values beside the truth.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>

#include "vulkan_gpa_fixture.h"

namespace opengpa::vktest {
namespace {

constexpr std::uint32_t kWidth = 512;
constexpr std::uint32_t kHeight = 384;

class VkHardwareCountersTest : public VulkanGpaTest {
 protected:
  void SetUp() override {
    VulkanGpaTest::SetUp();
    if (HasFatalFailure()) return;
    std::string error;
    depth_target_ = RenderTarget::Create(device(), kWidth, kHeight, &error, /*depth=*/true);
    ASSERT_NE(depth_target_, nullptr) << error;
    full_ = GraphicsPipeline::Create(device(), *depth_target_, Geometry::kFullScreenTriangle, &error);
    ASSERT_NE(full_, nullptr) << error;
    grid_ = GraphicsPipeline::Create(device(), *depth_target_, Geometry::kGridTriangles, &error);
    ASSERT_NE(grid_, nullptr) << error;
    compute_ = CountingCompute::Create(device(), 64, &error);
    ASSERT_NE(compute_, nullptr) << error;
  }
  void TearDown() override {
    full_.reset();
    grid_.reset();
    compute_.reset();
    depth_target_.reset();
    VulkanGpaTest::TearDown();
  }

  // Records `record` in every pass of `session` (one primary per pass, submitted and waited for before the next
  // pass, as an application replaying a frame per pass does), ends the session and reads samples 0..samples-1.
  std::vector<SampleValues> RunPasses(GpaSessionId session, std::uint32_t samples,
                                      const std::function<void(GpaCommandListId, VkCommandBuffer)>& record) {
    GpaUInt32 passes = 0;
    EXPECT_EQ(gpa().GpaGetPassCount(session, &passes), kGpaStatusOk);
    for (GpaUInt32 pass = 0; pass < passes; ++pass) {
      VkCommandBuffer command_buffer = BeginPrimary();
      GpaCommandListId list = BeginList(session, command_buffer, kGpaCommandListPrimary, pass);
      record(list, command_buffer);
      EXPECT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
      EXPECT_EQ(vkEndCommandBuffer(command_buffer), VK_SUCCESS);
      device().SubmitAndWait({command_buffer});
    }
    EXPECT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
    std::vector<SampleValues> values;
    for (std::uint32_t i = 0; i < samples; ++i) values.push_back(Read(session, i));
    for (const std::string& error : errors()) std::printf("  library error: %s\n", error.c_str());
    return values;
  }

  static void Print(const char* what, const SampleValues& values) {
    std::printf("  %-44s", what);
    for (const auto& [name, value] : values) std::printf(" %s=%.6g", name.c_str(), value);
    std::printf("\n");
  }

  std::unique_ptr<RenderTarget> depth_target_;
  std::unique_ptr<GraphicsPipeline> full_;
  std::unique_ptr<GraphicsPipeline> grid_;
  std::unique_ptr<CountingCompute> compute_;
};

TEST_F(VkHardwareCountersTest, ShadedPixelsEqualCoveredPixelsForFullPartialAndDepthRejectedDraws) {
  GpaSessionId session = BeginSessionWith({"PSPixelsIn", "PSQuads"});
  const VkRect2D part{{10, 20}, {100, 60}};
  auto values = RunPasses(session, 3, [&](GpaCommandListId list, VkCommandBuffer cb) {
    depth_target_->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
    gpa().GpaBeginSample(0, list);
    full_->Draw(cb, 3, 1, kColor);  // depth 0.5 < 1.0: every pixel shaded, depth written
    gpa().GpaEndSample(list);
    gpa().GpaBeginSample(1, list);
    full_->Draw(cb, 3, 1, kColor);  // same depth, LESS fails: rejected before shading (early z)
    gpa().GpaEndSample(list);
    depth_target_->End(cb);
    depth_target_->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);  // depth cleared again
    gpa().GpaBeginSample(2, list);
    full_->Draw(cb, 3, 1, kColor, UINT32_MAX, &part);
    gpa().GpaEndSample(list);
    depth_target_->End(cb);
  });
  ASSERT_EQ(values.size(), 3u);
  Print("full screen (truth 196608 pixels)", values[0]);
  Print("depth-rejected (truth 0 shaded)", values[1]);
  Print("scissored 100x60 (truth 6000 pixels)", values[2]);
  EXPECT_EQ(values[0]["PSPixelsIn"], double{kWidth} * kHeight);
  EXPECT_EQ(values[0]["PSQuads"], double{kWidth} * kHeight / 4);
  EXPECT_EQ(values[1]["PSPixelsIn"], 0.0);
  EXPECT_EQ(values[2]["PSPixelsIn"], 6000.0);
}

TEST_F(VkHardwareCountersTest, VertexShaderThreadsEqualDrawnVertices) {
  GpaSessionId session = BeginSessionWith({"VSVerticesIn", "VSWarps"});
  auto values = RunPasses(session, 3, [&](GpaCommandListId list, VkCommandBuffer cb) {
    depth_target_->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
    gpa().GpaBeginSample(0, list);
    grid_->Draw(cb, 30000, 1, kColor);
    gpa().GpaEndSample(list);
    gpa().GpaBeginSample(1, list);
    grid_->Draw(cb, 30000, 1, kColor, 5000);  // triangles 5000.. outside the view volume: still shaded
    gpa().GpaEndSample(list);
    gpa().GpaBeginSample(2, list);
    grid_->Draw(cb, 6, 100, kColor);  // 100 instances of 6 vertices; the shader ignores the instance index
    gpa().GpaEndSample(list);
    depth_target_->End(cb);
  });
  ASSERT_EQ(values.size(), 3u);
  Print("30000 vertices (truth 30000)", values[0]);
  Print("30000 vertices, 25000 culled (truth 30000)", values[1]);
  Print("6 vertices x 100 instances (600 API vertices)", values[2]);
  EXPECT_EQ(values[0]["VSVerticesIn"], 30000.0);
  EXPECT_EQ(values[0]["VSWarps"], 1000.0);
  EXPECT_EQ(values[1]["VSVerticesIn"], 30000.0);
  // Instances that shade identical vertices share them within a batch (docs/graphics-counters.md).
  EXPECT_GE(values[2]["VSVerticesIn"], 6.0);
  EXPECT_LE(values[2]["VSVerticesIn"], 600.0);
}

TEST_F(VkHardwareCountersTest, ComputeThreadsGroupsAndWarpsEqualTheDispatch) {
  GpaSessionId session = BeginSessionWith({"CSThreads", "CSThreadGroups", "CSWavefronts"});
  auto values = RunPasses(session, 3, [&](GpaCommandListId list, VkCommandBuffer cb) {
    // Back to back, no barrier between them: the bottom-of-pipe timestamp before each trigger drains the work.
    for (std::uint32_t i = 0; i < 3; ++i) {
      gpa().GpaBeginSample(i, list);
      compute_->Dispatch(cb, 1024 * (i + 1), 1, 1, 500);
      gpa().GpaEndSample(list);
    }
  });
  ASSERT_EQ(values.size(), 3u);
  for (std::uint32_t i = 0; i < 3; ++i) {
    const double groups = 1024.0 * (i + 1);
    Print(("dispatch of " + std::to_string(1024 * (i + 1)) + " x 64").c_str(), values[i]);
    EXPECT_EQ(values[i]["CSThreads"], groups * 64);
    EXPECT_EQ(values[i]["CSThreadGroups"], groups);
    EXPECT_EQ(values[i]["CSWavefronts"], groups * 2);
  }
}

struct DeviceBuffer {
  VkDevice device = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  ~DeviceBuffer() {
    if (buffer != VK_NULL_HANDLE) vkDestroyBuffer(device, buffer, nullptr);
    if (memory != VK_NULL_HANDLE) vkFreeMemory(device, memory, nullptr);
  }
};

void MakeBuffer(VulkanDevice& device, VkDeviceSize size, DeviceBuffer* out) {
  out->device = device.device();
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  ASSERT_EQ(vkCreateBuffer(out->device, &info, nullptr, &out->buffer), VK_SUCCESS);
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(out->device, out->buffer, &requirements);
  VkMemoryAllocateInfo allocation{};
  allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocation.allocationSize = requirements.size;
  allocation.memoryTypeIndex = device.FindMemoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  ASSERT_EQ(vkAllocateMemory(out->device, &allocation, nullptr, &out->memory), VK_SUCCESS);
  ASSERT_EQ(vkBindBufferMemory(out->device, out->buffer, out->memory, 0), VK_SUCCESS);
}

TEST_F(VkHardwareCountersTest, CopiedBytesAreReadFromDramWithinTwoPercent) {
  constexpr VkDeviceSize kBytes = 256ull << 20;  // five times the H100's 50 MB L2
  DeviceBuffer source, destination;
  MakeBuffer(device(), kBytes, &source);
  MakeBuffer(device(), kBytes, &destination);
  {
    VkCommandBuffer fill = BeginPrimary();
    vkCmdFillBuffer(fill, source.buffer, 0, VK_WHOLE_SIZE, 0x3f800000u);
    vkCmdFillBuffer(fill, destination.buffer, 0, VK_WHOLE_SIZE, 0);
    vkEndCommandBuffer(fill);
    device().SubmitAndWait({fill});
  }
  GpaSessionId session = BeginSessionWith({"FetchSize", "WriteSize"});
  auto values = RunPasses(session, 1, [&](GpaCommandListId list, VkCommandBuffer cb) {
    gpa().GpaBeginSample(0, list);
    const VkBufferCopy region{0, 0, kBytes};
    vkCmdCopyBuffer(cb, source.buffer, destination.buffer, 1, &region);
    gpa().GpaEndSample(list);
  });
  ASSERT_EQ(values.size(), 1u);
  Print("copy of 256 MiB (truth 262144 KB read)", values[0]);
  EXPECT_NEAR(values[0]["FetchSize"], 262144.0, 262144.0 * 0.02);
}

// Counts from one multi-pass session equal the same counters collected one per session.
TEST_F(VkHardwareCountersTest, MultiPassSetEqualsCountersOneAtATime) {
  const std::vector<std::string> counters = {"VSVerticesIn",   "PSPixelsIn", "CSThreads",
                                             "CSThreadGroups", "PSQuads",    "VSWarps"};
  auto record = [&](GpaCommandListId list, VkCommandBuffer cb) {
    depth_target_->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
    gpa().GpaBeginSample(0, list);
    grid_->Draw(cb, 3000, 1, kColor);
    full_->Draw(cb, 3, 1, kColor);
    gpa().GpaEndSample(list);
    depth_target_->End(cb);
    gpa().GpaBeginSample(1, list);
    compute_->Dispatch(cb, 256, 1, 1, 100);
    gpa().GpaEndSample(list);
  };
  GpaSessionId together = BeginSessionWith(counters);
  GpaUInt32 passes = 0;
  ASSERT_EQ(gpa().GpaGetPassCount(together, &passes), kGpaStatusOk);
  std::printf("  %zu counters in %u passes\n", counters.size(), passes);
  EXPECT_GT(passes, 1u) << "vertex and pixel shader threads cannot be sampled in one pass on GH100";
  auto multi = RunPasses(together, 2, record);
  for (const std::string& counter : counters) {
    GpaSessionId alone = BeginSessionWith({counter});
    auto single = RunPasses(alone, 2, record);
    for (std::uint32_t i = 0; i < 2; ++i) {
      std::printf("  sample %u %-16s together %.0f alone %.0f\n", i, counter.c_str(), multi[i][counter],
                  single[i][counter]);
      EXPECT_NEAR(multi[i][counter], single[i][counter], single[i][counter] * 0.01) << counter << " sample " << i;
    }
  }
}

// Engine triggers recorded while another pass is being sampled are not counted, so a pass recorded before the
// previous one ran is refused, naming the rule; once the previous pass has run, it records and counts.
TEST_F(VkHardwareCountersTest, APassIsRecordedOnlyAfterThePreviousPassRan) {
  GpaSessionId session = BeginSessionWith({"VSVerticesIn", "PSPixelsIn", "CSThreads"});
  GpaUInt32 passes = 0;
  ASSERT_EQ(gpa().GpaGetPassCount(session, &passes), kGpaStatusOk);
  ASSERT_GT(passes, 1u);
  auto record = [&](GpaUInt32 pass, VkCommandBuffer cb, GpaStatus* begin_status) {
    GpaCommandListId list = nullptr;
    *begin_status = gpa().GpaBeginCommandList(session, pass, cb, kGpaCommandListPrimary, &list);
    if (*begin_status != kGpaStatusOk) return;
    depth_target_->Begin(cb, VK_SUBPASS_CONTENTS_INLINE);
    gpa().GpaBeginSample(0, list);
    grid_->Draw(cb, 3000, 1, kColor);
    full_->Draw(cb, 3, 1, kColor);
    gpa().GpaEndSample(list);
    depth_target_->End(cb);
    gpa().GpaBeginSample(1, list);
    compute_->Dispatch(cb, 100, 1, 1, 100);
    gpa().GpaEndSample(list);
    EXPECT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  };
  VkCommandBuffer first = BeginPrimary();
  GpaStatus status = kGpaStatusOk;
  record(0, first, &status);
  ASSERT_EQ(status, kGpaStatusOk);
  vkEndCommandBuffer(first);
  VkCommandBuffer early = BeginPrimary();
  record(1, early, &status);
  EXPECT_EQ(status, kGpaStatusErrorFailed) << "pass 1 recorded before pass 0 ran";
  EXPECT_TRUE(ErrorMentions("after the previous pass's work has completed"));
  vkEndCommandBuffer(early);
  device().SubmitAndWait({first});
  for (GpaUInt32 pass = 1; pass < passes; ++pass) {
    VkCommandBuffer cb = BeginPrimary();
    record(pass, cb, &status);
    ASSERT_EQ(status, kGpaStatusOk) << "pass " << pass;
    vkEndCommandBuffer(cb);
    device().SubmitAndWait({cb});
  }
  EXPECT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  SampleValues draw = Read(session, 0);
  SampleValues dispatch = Read(session, 1);
  for (const std::string& error : errors()) std::printf("  library error: %s\n", error.c_str());
  Print("draw (truth 3003 vertices: 3000 + 3, 196608 pixels)", draw);
  Print("dispatch (truth 6400 threads)", dispatch);
  EXPECT_EQ(draw["VSVerticesIn"], 3003.0);
  EXPECT_EQ(draw["PSPixelsIn"], double{kWidth} * kHeight);
  EXPECT_EQ(dispatch["CSThreads"], 6400.0);
}

TEST_F(VkHardwareCountersTest, BusyAndSpeedOfLightCountersAreWithinTheirRanges) {
  GpaSessionId session =
      BeginSessionWith({"GPUBusy", "PSBusy", "CSBusy", "SOL_SM", "SOL_DRAM", "GPUBottleneck", "L2CacheHit", "GPUTime"});
  auto values = RunPasses(session, 1, [&](GpaCommandListId list, VkCommandBuffer cb) {
    gpa().GpaBeginSample(0, list);
    compute_->Dispatch(cb, 8192, 1, 1, 4000);  // FMA-bound: long enough for the SM to dominate
    gpa().GpaEndSample(list);
  });
  ASSERT_EQ(values.size(), 1u);
  Print("FMA-bound dispatch", values[0]);
  for (const char* percent : {"GPUBusy", "PSBusy", "CSBusy", "SOL_SM", "SOL_DRAM", "L2CacheHit"}) {
    EXPECT_GE(values[0][percent], 0.0) << percent;
    EXPECT_LE(values[0][percent], 100.0) << percent;
  }
  EXPECT_EQ(values[0]["PSBusy"], 0.0);
  EXPECT_GT(values[0]["CSBusy"], 50.0);
  EXPECT_GT(values[0]["GPUBusy"], 50.0);
}

}  // namespace
}  // namespace opengpa::vktest
