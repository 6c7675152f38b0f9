// Timing and cumulative samples against known work: timestamps ordered and inside the submission's own
// bounds; pipeline-statistic counts of known draws and dispatches exact.
#include "layer_fixture.h"

namespace opengpa::layertest {
namespace {

constexpr float kColor[4] = {0.2f, 0.4f, 0.8f, 1.0f};

using LayerSamplesTest = LayerTest;

TEST_F(LayerSamplesTest, TimingSampleTimestampsAreOrderedAndInsideTheSubmission) {
  const VkGpaSessionAMD session = CreateSession();
  const VkCommandBuffer command_buffer = BeginPrimary();
  WriteBounds(command_buffer, 0);
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
  const VkGpaSampleBeginInfoAMD timing = TimingInfo();
  std::uint32_t first = UINT32_MAX, second = UINT32_MAX;
  target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &timing, &first), VK_SUCCESS);
  grid().Draw(command_buffer, 3 * 500, 1, kColor);
  gpa().CmdEndGpaSample(command_buffer, session, first);
  target().End(command_buffer);
  // Stage masks of several graphics stages, outside a render pass, around a dispatch.
  const VkGpaSampleBeginInfoAMD staged =
      TimingInfo(VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
  ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &staged, &second), VK_SUCCESS);
  compute().Dispatch(command_buffer, 16, 1, 1, 256);
  gpa().CmdEndGpaSample(command_buffer, session, second);
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
  WriteBounds(command_buffer, 1);
  End(command_buffer);
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(second, 1u);
  EXPECT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_NOT_READY) << "not submitted yet";
  Submit({command_buffer});
  ASSERT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_SUCCESS);

  const std::uint64_t start = ReadBound(0), end = ReadBound(1);
  const std::vector<std::uint64_t> draw = Results(session, first);
  const std::vector<std::uint64_t> dispatch = Results(session, second);
  ASSERT_EQ(draw.size(), 2u);
  ASSERT_EQ(dispatch.size(), 2u);
  EXPECT_LE(start, draw[0]);
  EXPECT_LE(draw[0], draw[1]);
  EXPECT_LE(draw[1], dispatch[0]);
  EXPECT_LE(dispatch[0], dispatch[1]);
  EXPECT_LE(dispatch[1], end);
  EXPECT_LT(start, end);
}

TEST_F(LayerSamplesTest, CumulativeSamplesCountKnownDrawsExactly) {
  const VkGpaSessionAMD session = CreateSession();
  const VkCommandBuffer command_buffer = BeginPrimary();
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
  const std::vector<VkGpaPerfCounterAMD> counters = {kIaVertices, kIaPrimitives, kVsInvocations, kClippingPrimitives};
  const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
  std::uint32_t triangles_100 = 0, triangles_37x3 = 0;
  target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &triangles_100), VK_SUCCESS);
  grid().Draw(command_buffer, 3 * 100, 1, kColor);
  gpa().CmdEndGpaSample(command_buffer, session, triangles_100);
  ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &triangles_37x3), VK_SUCCESS);
  grid().Draw(command_buffer, 3 * 37, 3, kColor);  // instanced: 3 instances of 37 triangles
  gpa().CmdEndGpaSample(command_buffer, session, triangles_37x3);
  target().End(command_buffer);
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
  End(command_buffer);
  Submit({command_buffer});
  ASSERT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_SUCCESS);

  EXPECT_EQ(Results(session, triangles_100), (std::vector<std::uint64_t>{300, 100, 300, 100}));
  EXPECT_EQ(Results(session, triangles_37x3), (std::vector<std::uint64_t>{333, 111, 333, 111}));
}

// Alone in its command buffer: lavapipe shades fragments late (when it rasterizes a scene), and counts them in
// whichever statistics queries are still to be resolved then, so fragment counts are exact only for one draw.
TEST_F(LayerSamplesTest, FullScreenTriangleShadesEachPixelOfTheTargetOnce) {
  const VkGpaSessionAMD session = CreateSession();
  const VkCommandBuffer command_buffer = BeginPrimary();
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
  const std::vector<VkGpaPerfCounterAMD> counters = {kFsInvocations, kIaPrimitives, kClippingPrimitives};
  const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
  std::uint32_t id = UINT32_MAX;
  target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &id), VK_SUCCESS);
  fullscreen().Draw(command_buffer, 3, 1, kColor);
  gpa().CmdEndGpaSample(command_buffer, session, id);
  target().End(command_buffer);
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
  End(command_buffer);
  Submit({command_buffer});
  // 256x192 is a multiple of lavapipe's 4x4 shading blocks: no block straddles the edge.
  EXPECT_EQ(Results(session, id), (std::vector<std::uint64_t>{256 * 192, 1, 1}));
}

// AMD's GPA asks the session's status before it reads each sample; a status check, and any number of reads,
// leave the counts as they are. (lavapipe's own query results are not so: each vkGetQueryPoolResults of a
// pipeline-statistics query adds its fragment count again, so the layer reads each query from the driver once.)
TEST_F(LayerSamplesTest, StatusChecksAndRepeatedReadsLeaveTheFragmentCountUnchanged) {
  const VkGpaSessionAMD session = CreateSession();
  const VkCommandBuffer command_buffer = BeginPrimary();
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
  const std::vector<VkGpaPerfCounterAMD> counters = {kFsInvocations};
  const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
  std::uint32_t id = UINT32_MAX;
  target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &id), VK_SUCCESS);
  fullscreen().Draw(command_buffer, 3, 1, kColor);
  gpa().CmdEndGpaSample(command_buffer, session, id);
  target().End(command_buffer);
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
  End(command_buffer);
  Submit({command_buffer});
  for (int check = 0; check < 3; ++check) EXPECT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_SUCCESS);
  for (int read = 0; read < 3; ++read) {
    EXPECT_EQ(Results(session, id), (std::vector<std::uint64_t>{256 * 192})) << "read " << read;
  }
}

TEST_F(LayerSamplesTest, CumulativeSamplesCountKnownDispatchesExactly) {
  const VkGpaSessionAMD session = CreateSession();
  const VkCommandBuffer command_buffer = BeginPrimary();
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
  const std::vector<VkGpaPerfCounterAMD> counters = {kCsInvocations, kVsInvocations};
  const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
  struct Shape {
    std::uint32_t x, y, z;
  };
  const Shape shapes[] = {{1, 1, 1}, {7, 3, 2}, {64, 1, 1}};
  std::vector<std::uint32_t> ids;
  compute().ResetInvocations();
  for (const Shape& shape : shapes) {
    std::uint32_t id = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &id), VK_SUCCESS);
    compute().Dispatch(command_buffer, shape.x, shape.y, shape.z, 16);
    gpa().CmdEndGpaSample(command_buffer, session, id);
    ids.push_back(id);
  }
  compute().RecordHostReadBarrier(command_buffer);
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
  End(command_buffer);
  Submit({command_buffer});
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::uint64_t expected = 64ull * shapes[i].x * shapes[i].y * shapes[i].z;
    EXPECT_EQ(Results(session, ids[i]), (std::vector<std::uint64_t>{expected, 0})) << "dispatch " << i;
    total += expected;
  }
  EXPECT_EQ(compute().Invocations(), total) << "the shader's own count agrees";
}

}  // namespace
}  // namespace opengpa::layertest
