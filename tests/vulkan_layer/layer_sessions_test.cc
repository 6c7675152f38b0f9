// Sessions as the seed describes them: across command buffers, in secondary command buffers whose results
// are copied on the GPU into sessions cloned from theirs, reset and reused.
#include "layer_fixture.h"

namespace opengpa::layertest {
namespace {

constexpr float kColor[4] = {0.9f, 0.1f, 0.3f, 1.0f};

using LayerSessionsTest = LayerTest;

TEST_F(LayerSessionsTest, ASessionSpansCommandBuffersExecutedInOrder) {
  const VkGpaSessionAMD session = CreateSession();
  const std::vector<VkGpaPerfCounterAMD> counters = {kIaPrimitives};
  const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
  const VkGpaSampleBeginInfoAMD timing = TimingInfo();

  const VkCommandBuffer first = BeginPrimary();
  ASSERT_EQ(gpa().CmdBeginGpaSession(first, session), VK_SUCCESS);
  std::uint32_t span = 0, draw_a = 0, draw_b = 0;
  ASSERT_EQ(gpa().CmdBeginGpaSample(first, session, &timing, &span), VK_SUCCESS);  // ends in the second
  target().Begin(first, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().CmdBeginGpaSample(first, session, &cumulative, &draw_a), VK_SUCCESS);
  grid().Draw(first, 3 * 10, 1, kColor);
  gpa().CmdEndGpaSample(first, session, draw_a);
  target().End(first);
  End(first);

  const VkCommandBuffer second = BeginPrimary();
  target().Begin(second, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().CmdBeginGpaSample(second, session, &cumulative, &draw_b), VK_SUCCESS);
  grid().Draw(second, 3 * 20, 1, kColor);
  gpa().CmdEndGpaSample(second, session, draw_b);
  target().End(second);
  gpa().CmdEndGpaSample(second, session, span);
  ASSERT_EQ(gpa().CmdEndGpaSession(second, session), VK_SUCCESS);
  End(second);

  Submit({first, second});
  ASSERT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_SUCCESS);
  EXPECT_EQ(Results(session, draw_a), std::vector<std::uint64_t>{10});
  EXPECT_EQ(Results(session, draw_b), std::vector<std::uint64_t>{20});
  const std::vector<std::uint64_t> times = Results(session, span);
  ASSERT_EQ(times.size(), 2u);
  EXPECT_LE(times[0], times[1]);
}

TEST_F(LayerSessionsTest, SecondaryResultsAreCopiedOnTheGpuBeforeTheNextExecution) {
  // The secondary samples into `source`; each execution's results are copied into a session cloned from it.
  const VkGpaSessionAMD source = CreateSession();
  const VkGpaSessionAMD copy_1 = CreateSession(source);
  const VkGpaSessionAMD copy_2 = CreateSession(source);
  const std::vector<VkGpaPerfCounterAMD> counters = {kIaVertices, kIaPrimitives};
  const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
  const VkGpaSampleBeginInfoAMD timing = TimingInfo();

  const VkCommandBuffer secondary = BeginSecondaryInRenderPass();
  ASSERT_EQ(gpa().CmdBeginGpaSession(secondary, source), VK_SUCCESS);
  std::uint32_t counted = 0, timed = 0;
  ASSERT_EQ(gpa().CmdBeginGpaSample(secondary, source, &cumulative, &counted), VK_SUCCESS);
  ASSERT_EQ(gpa().CmdBeginGpaSample(secondary, source, &timing, &timed), VK_SUCCESS);
  grid().Draw(secondary, 3 * 42, 1, kColor);
  gpa().CmdEndGpaSample(secondary, source, timed);
  gpa().CmdEndGpaSample(secondary, source, counted);
  ASSERT_EQ(gpa().CmdEndGpaSession(secondary, source), VK_SUCCESS);
  End(secondary);

  const VkCommandBuffer primary = BeginPrimary();
  for (VkGpaSessionAMD destination : {copy_1, copy_2}) {
    target().Begin(primary, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
    vkCmdExecuteCommands(primary, 1, &secondary);
    target().End(primary);
    gpa().CmdCopyGpaSessionResults(primary, destination);
  }
  End(primary);
  EXPECT_EQ(gpa().GetGpaSessionStatus(vk(), copy_1), VK_NOT_READY) << "not submitted yet";
  Submit({primary});

  for (VkGpaSessionAMD destination : {copy_1, copy_2}) {
    ASSERT_EQ(gpa().GetGpaSessionStatus(vk(), destination), VK_SUCCESS);
    EXPECT_EQ(Results(destination, counted), (std::vector<std::uint64_t>{126, 42})) << "the same sample ids";
  }
  const std::vector<std::uint64_t> first = Results(copy_1, timed);
  const std::vector<std::uint64_t> second = Results(copy_2, timed);
  ASSERT_EQ(first.size(), 2u);
  ASSERT_EQ(second.size(), 2u);
  EXPECT_LE(first[0], first[1]);
  EXPECT_LE(first[1], second[0]) << "the second execution ran after the first";
  EXPECT_LE(second[0], second[1]);
}

TEST_F(LayerSessionsTest, AResetSessionIsReusedAndAResubmittedCommandBufferReadsAgain) {
  const VkGpaSessionAMD session = CreateSession();
  const std::vector<VkGpaPerfCounterAMD> counters = {kIaPrimitives};
  const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
  auto record = [&](std::uint32_t triangles) {
    const VkCommandBuffer command_buffer = BeginPrimary();
    EXPECT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
    std::uint32_t id = UINT32_MAX;
    target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
    EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &id), VK_SUCCESS);
    grid().Draw(command_buffer, 3 * triangles, 1, kColor);
    gpa().CmdEndGpaSample(command_buffer, session, id);
    target().End(command_buffer);
    EXPECT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
    EXPECT_EQ(vkEndCommandBuffer(command_buffer), VK_SUCCESS);
    EXPECT_EQ(id, 0u) << "sample ids start again after a reset";
    return command_buffer;
  };
  const VkCommandBuffer five = record(5);
  Submit({five});
  EXPECT_EQ(Results(session, 0), std::vector<std::uint64_t>{5});

  // Begun again without a reset: refused.
  const VkCommandBuffer refused = BeginPrimary();
  LayerMessages([&] { EXPECT_EQ(gpa().CmdBeginGpaSession(refused, session), VK_ERROR_VALIDATION_FAILED_EXT); });
  End(refused);

  // The same command buffer again after a reset: the results come back once the GPU has run it again.
  ASSERT_EQ(gpa().ResetGpaSession(vk(), session), VK_SUCCESS);
  EXPECT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_NOT_READY);
  Submit({five});
  EXPECT_EQ(Results(session, 0), std::vector<std::uint64_t>{5});

  // Reset and recorded anew with other work.
  ASSERT_EQ(gpa().ResetGpaSession(vk(), session), VK_SUCCESS);
  const VkCommandBuffer eight = record(8);
  Submit({eight});
  EXPECT_EQ(Results(session, 0), std::vector<std::uint64_t>{8});
}

TEST_F(LayerSessionsTest, ManySamplesSpreadOverSeveralQueryPools) {
  const VkGpaSessionAMD session = CreateSession();
  const std::vector<VkGpaPerfCounterAMD> counters = {kIaPrimitives};
  const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
  const VkGpaSampleBeginInfoAMD timing = TimingInfo();
  const VkCommandBuffer command_buffer = BeginPrimary();
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
  target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
  constexpr std::uint32_t kSamples = 300;  // 300 statistics queries, 600 timestamps: pools of 256 each
  for (std::uint32_t i = 0; i < kSamples; ++i) {
    std::uint32_t counted = 0, timed = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &counted), VK_SUCCESS);
    ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &timing, &timed), VK_SUCCESS);
    grid().Draw(command_buffer, 3 * (1 + i % 7), 1, kColor);
    gpa().CmdEndGpaSample(command_buffer, session, timed);
    gpa().CmdEndGpaSample(command_buffer, session, counted);
  }
  target().End(command_buffer);
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
  End(command_buffer);
  Submit({command_buffer});
  ASSERT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_SUCCESS);
  for (std::uint32_t i = 0; i < kSamples; ++i) {
    ASSERT_EQ(Results(session, 2 * i), std::vector<std::uint64_t>{1 + i % 7}) << "sample " << 2 * i;
  }
}

}  // namespace
}  // namespace opengpa::layertest
