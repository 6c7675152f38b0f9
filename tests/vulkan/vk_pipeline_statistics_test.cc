// Pipeline-statistics counters against counts that follow from the workload itself: vertices and triangles
// drawn, pixels of the render target, compute invocations dispatched.
#include "vulkan_gpa_fixture.h"

namespace opengpa::vktest {
namespace {

TEST_F(VulkanGpaTest, DrawOfMTrianglesCountsExactlyThreeMVerticesMPrimitivesAndThreeMVertexShaderRuns) {
  constexpr std::uint32_t kTriangles = 1000;
  GpaSessionId session = BeginSessionWith();
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  SampleGridDraw(list, 7, command_buffer, kTriangles);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  ASSERT_GE(device().SubmitAndWait({command_buffer}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);

  SampleValues values = Read(session, 7);
  EXPECT_EQ(values["IAVerticesIn"], 3 * kTriangles);
  EXPECT_EQ(values["IAPrimitivesIn"], kTriangles);
  EXPECT_EQ(values["VSVerticesIn"], 3 * kTriangles);  // a non-indexed draw reuses no vertex
  EXPECT_EQ(values["VSVertexReuse"], 0);
  // The grid keeps every triangle inside the view volume: all reach and leave the clipper.
  EXPECT_EQ(values["PrimitivesIn"], kTriangles);
  EXPECT_EQ(values["ClipperPrimsOut"], kTriangles);
  EXPECT_EQ(values["ClipperPrimsRejected"], 0);
  EXPECT_GT(values["PSPixelsIn"], 0);
  EXPECT_EQ(values["PSPixelsPerPrimitive"], values["PSPixelsIn"] / kTriangles);
  EXPECT_EQ(values["CSThreads"], 0);
}

// Grid triangles moved wholly outside the view volume reach the clipper and are discarded there.
TEST_F(VulkanGpaTest, TrianglesWhollyOutsideTheViewVolumeAreCountedAsRejectedByTheClipper) {
  struct Draw {
    std::uint32_t inside, outside;
  };
  const Draw draws[] = {{100, 28}, {0, 64}, {100, 0}};
  GpaSessionId session = BeginSessionWith({"IAPrimitivesIn", "PrimitivesIn", "ClipperPrimsOut", "ClipperPrimsRejected",
                                           "PSPixelsIn", "PSPixelsPerPrimitive"});
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  for (GpaUInt32 i = 0; i < 3; ++i) {
    ASSERT_EQ(gpa().GpaBeginSample(i, list), kGpaStatusOk);
    grid().Draw(command_buffer, 3 * (draws[i].inside + draws[i].outside), 1, kColor, draws[i].inside);
    ASSERT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
  }
  target().End(command_buffer);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  ASSERT_GE(device().SubmitAndWait({command_buffer}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);

  std::vector<SampleValues> values;
  for (GpaUInt32 i = 0; i < 3; ++i) values.push_back(Read(session, i));
  for (GpaUInt32 i = 0; i < 3; ++i) {
    EXPECT_EQ(values[i]["IAPrimitivesIn"], draws[i].inside + draws[i].outside) << "sample " << i;
    EXPECT_EQ(values[i]["PrimitivesIn"], draws[i].inside + draws[i].outside) << "sample " << i;
    EXPECT_EQ(values[i]["ClipperPrimsOut"], draws[i].inside) << "sample " << i;
    EXPECT_EQ(values[i]["ClipperPrimsRejected"], draws[i].outside) << "sample " << i;
    // The triangles outside shade nothing: pixels per primitive is that of the triangles inside.
    EXPECT_EQ(values[i]["PSPixelsPerPrimitive"], draws[i].inside == 0 ? 0.0 : values[i]["PSPixelsIn"] / draws[i].inside)
        << "sample " << i;
  }
  EXPECT_EQ(values[0]["PSPixelsIn"], values[2]["PSPixelsIn"]) << "the same 100 triangles are shaded";
  EXPECT_GT(values[0]["PSPixelsIn"], 0);
  EXPECT_EQ(values[1]["PSPixelsIn"], 0);
}

TEST_F(VulkanGpaTest, InstancedDrawCountsEveryInstance) {
  constexpr std::uint32_t kTriangles = 50, kInstances = 4;
  GpaSessionId session = BeginSessionWith({"IAVerticesIn", "IAPrimitivesIn", "VSVerticesIn"});
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().GpaBeginSample(0, list), kGpaStatusOk);
  grid().Draw(command_buffer, 3 * kTriangles, kInstances, kColor);
  ASSERT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
  target().End(command_buffer);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  ASSERT_GE(device().SubmitAndWait({command_buffer}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);

  SampleValues values = Read(session, 0);
  EXPECT_EQ(values.size(), 3u);  // only what was enabled
  EXPECT_EQ(values["IAVerticesIn"], 3 * kTriangles * kInstances);
  EXPECT_EQ(values["IAPrimitivesIn"], kTriangles * kInstances);
  EXPECT_EQ(values["VSVerticesIn"], 3 * kTriangles * kInstances);
}

// One triangle covering the whole target, without multisampling: each pixel is shaded exactly once.

class FullScreenTest : public VulkanGpaTest {
 protected:
  // Draws the full-screen triangle into a width x height target and returns its sample's values.
  SampleValues DrawFullScreen(std::uint32_t width, std::uint32_t height) {
    std::string error;
    auto target = RenderTarget::Create(device(), width, height, &error);
    EXPECT_TRUE(target) << error;
    auto pipeline =
        target ? GraphicsPipeline::Create(device(), *target, Geometry::kFullScreenTriangle, &error) : nullptr;
    EXPECT_TRUE(pipeline) << error;
    if (!pipeline) return {};
    GpaSessionId session = BeginSessionWith({"PSPixelsIn", "PrimitivesIn", "ClipperPrimsOut", "PSPixelsPerPrimitive"});
    VkCommandBuffer command_buffer = BeginPrimary();
    GpaCommandListId list = BeginList(session, command_buffer);
    target->Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
    EXPECT_EQ(gpa().GpaBeginSample(1, list), kGpaStatusOk);
    pipeline->Draw(command_buffer, 3, 1, kColor);
    EXPECT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
    target->End(command_buffer);
    EXPECT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
    vkEndCommandBuffer(command_buffer);
    EXPECT_GE(device().SubmitAndWait({command_buffer}), 0);
    EXPECT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
    SampleValues values = Read(session, 1);
    // One triangle, never clipped (see samples/vulkan/shaders/fullscreen.vert).
    EXPECT_EQ(values["PrimitivesIn"], 1);
    EXPECT_EQ(values["ClipperPrimsOut"], 1);
    EXPECT_EQ(values["PSPixelsPerPrimitive"], values["PSPixelsIn"]);
    return values;
  }
  static double RoundUp(std::uint32_t value, std::uint32_t block) {
    return double((value + block - 1) / block * block);
  }
};

// With sides that are multiples of 4 no shading block straddles the target's edge: the count is exact.
TEST_F(FullScreenTest, FullScreenTriangleShadesEachPixelOfA256x192TargetOnce) {
  EXPECT_EQ(DrawFullScreen(256, 192)["PSPixelsIn"], 256.0 * 192);
}

// At an edge that cuts through a 2x2 quad (or lavapipe's 4x4 block) a driver may count the invocations of
// the pixels outside, which it runs as helpers: at least every pixel, at most whole 4x4 blocks.
TEST_F(FullScreenTest, FullScreenTriangleOnAnOddSizedTargetCountsEveryPixelAndAtMostWholeBlocks) {
  constexpr std::uint32_t kWidth = 101, kHeight = 77;
  const double counted = DrawFullScreen(kWidth, kHeight)["PSPixelsIn"];
  EXPECT_GE(counted, double(kWidth) * kHeight);
  EXPECT_LE(counted, RoundUp(kWidth, 4) * RoundUp(kHeight, 4));
  if (IsLavapipe()) {
    EXPECT_EQ(counted, RoundUp(kWidth, 4) * RoundUp(kHeight, 4)) << "lavapipe counts every 4x4 block it shades";
  }
}

// A pass polled while one of its command buffers has run and another not yet: each query is read from the
// driver once. (lavapipe adds a statistics query's fragment count again on every read of its results.)
TEST_F(FullScreenTest, PollingBetweenTheSubmissionsOfAPassLeavesEachFragmentCountExact) {
  std::string error;
  auto target = RenderTarget::Create(device(), 256, 192, &error);
  ASSERT_TRUE(target) << error;
  auto pipeline = GraphicsPipeline::Create(device(), *target, Geometry::kFullScreenTriangle, &error);
  ASSERT_TRUE(pipeline) << error;
  GpaSessionId session = BeginSessionWith({"PSPixelsIn"});
  VkCommandBuffer command_buffers[2];
  for (GpaUInt32 i = 0; i < 2; ++i) {
    command_buffers[i] = BeginPrimary();
    GpaCommandListId list = BeginList(session, command_buffers[i]);
    target->Begin(command_buffers[i], VK_SUBPASS_CONTENTS_INLINE);
    ASSERT_EQ(gpa().GpaBeginSample(i, list), kGpaStatusOk);
    pipeline->Draw(command_buffers[i], 3, 1, kColor);
    ASSERT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
    target->End(command_buffers[i]);
    ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
    vkEndCommandBuffer(command_buffers[i]);
  }
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  ASSERT_GE(device().SubmitAndWait({command_buffers[0]}), 0);
  for (int poll = 0; poll < 3; ++poll) EXPECT_EQ(gpa().GpaIsPassComplete(session, 0), kGpaStatusResultNotReady);
  ASSERT_GE(device().SubmitAndWait({command_buffers[1]}), 0);
  GpaUInt32 passes = 0;
  EXPECT_EQ(gpa().GpaGetPassCount(session, &passes), kGpaStatusOk);
  EXPECT_EQ(gpa().GpaIsPassComplete(session, 0), kGpaStatusOk)
      << passes << " pass(es); " << (errors().empty() ? "" : errors().back());
  EXPECT_EQ(Read(session, 0)["PSPixelsIn"], 256.0 * 192);
  EXPECT_EQ(Read(session, 1)["PSPixelsIn"], 256.0 * 192);
}

class ComputeTest
    : public VulkanGpaTest,
      public ::testing::WithParamInterface<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>> {};

TEST_P(ComputeTest, DispatchCountsExactlyGroupsTimesWorkgroupSizeInvocations) {
  const auto [x, y, z, local_size] = GetParam();
  std::string error;
  auto compute = CountingCompute::Create(device(), local_size, &error);
  ASSERT_TRUE(compute) << error;
  GpaSessionId session = BeginSessionWith({"CSThreads", "VSVerticesIn", "PSPixelsIn", "GPUTime"});
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  ASSERT_EQ(gpa().GpaBeginSample(3, list), kGpaStatusOk);
  compute->Dispatch(command_buffer, x, y, z, 16);
  ASSERT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
  compute->RecordHostReadBarrier(command_buffer);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  ASSERT_GE(device().SubmitAndWait({command_buffer}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk) << (errors().empty() ? "" : errors().back());

  const double expected = double(x) * y * z * local_size;
  SampleValues values = Read(session, 3);
  EXPECT_EQ(values["CSThreads"], expected);
  EXPECT_EQ(compute->Invocations(), expected);  // the shader's own atomic count agrees
  EXPECT_EQ(values["VSVerticesIn"], 0);
  EXPECT_EQ(values["PSPixelsIn"], 0);
  EXPECT_GT(values["GPUTime"], 0);
}

INSTANTIATE_TEST_SUITE_P(Shapes, ComputeTest,
                         ::testing::Values(std::make_tuple(1u, 1u, 1u, 1u), std::make_tuple(7u, 3u, 2u, 32u),
                                           std::make_tuple(64u, 1u, 1u, 64u), std::make_tuple(5u, 5u, 5u, 100u)));

TEST_F(VulkanGpaTest, GeometryShaderRunsOncePerTriangleAndEmitsOneTriangleEach) {
  if (!device().has_geometry_shader()) GTEST_SKIP() << "the device has no geometry shaders";
  constexpr std::uint32_t kTriangles = 321;
  std::string error;
  auto pipeline = GraphicsPipeline::Create(device(), target(), Geometry::kGridTrianglesWithGs, &error);
  ASSERT_TRUE(pipeline) << error;
  GpaSessionId session = BeginSessionWith({"GSPrimsIn", "GSPrimsOut", "PrimitivesIn", "IAPrimitivesIn"});
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().GpaBeginSample(0, list), kGpaStatusOk);
  pipeline->Draw(command_buffer, 3 * kTriangles, 1, kColor);
  ASSERT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
  target().End(command_buffer);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  ASSERT_GE(device().SubmitAndWait({command_buffer}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  SampleValues values = Read(session, 0);
  EXPECT_EQ(values["IAPrimitivesIn"], kTriangles);
  EXPECT_EQ(values["GSPrimsIn"], kTriangles);
  EXPECT_EQ(values["GSPrimsOut"], kTriangles);
  EXPECT_EQ(values["PrimitivesIn"], kTriangles);
}

// More samples than one chunk of query pools holds (64): pools are added while recording, and each sample
// still counts only its own draw.
TEST_F(VulkanGpaTest, HundredsOfSamplesInOneCommandBufferEachCountTheirOwnDraw) {
  constexpr std::uint32_t kSamples = 150;
  GpaSessionId session = BeginSessionWith({"IAPrimitivesIn", "GPUTime"});
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  for (std::uint32_t i = 0; i < kSamples; ++i) {
    ASSERT_EQ(gpa().GpaBeginSample(1000 + i, list), kGpaStatusOk);
    grid().Draw(command_buffer, 3 * (i + 1), 1, kColor);
    ASSERT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
  }
  target().End(command_buffer);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  ASSERT_GE(device().SubmitAndWait({command_buffer}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  GpaUInt32 count = 0;
  ASSERT_EQ(gpa().GpaGetSampleCount(session, &count), kGpaStatusOk);
  EXPECT_EQ(count, kSamples);
  for (std::uint32_t i = 0; i < kSamples; ++i) {
    SampleValues values = Read(session, 1000 + i);
    EXPECT_EQ(values["IAPrimitivesIn"], i + 1) << "sample " << 1000 + i;
    EXPECT_GE(values["GPUTime"], 0);
  }
}

TEST_F(VulkanGpaTest, DrawsAndADispatchInOneCommandBufferAreCountedSeparately) {
  std::string error;
  auto compute = CountingCompute::Create(device(), 16, &error);
  ASSERT_TRUE(compute) << error;
  GpaSessionId session = BeginSessionWith({"IAPrimitivesIn", "CSThreads"});
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  SampleGridDraw(list, 0, command_buffer, 10);
  ASSERT_EQ(gpa().GpaBeginSample(1, list), kGpaStatusOk);
  compute->Dispatch(command_buffer, 3, 1, 1, 0);
  ASSERT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
  SampleGridDraw(list, 2, command_buffer, 20);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  ASSERT_GE(device().SubmitAndWait({command_buffer}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  EXPECT_EQ(Read(session, 0), (SampleValues{{"IAPrimitivesIn", 10}, {"CSThreads", 0}}));
  EXPECT_EQ(Read(session, 1), (SampleValues{{"IAPrimitivesIn", 0}, {"CSThreads", 48}}));
  EXPECT_EQ(Read(session, 2), (SampleValues{{"IAPrimitivesIn", 20}, {"CSThreads", 0}}));
}

}  // namespace
}  // namespace opengpa::vktest
