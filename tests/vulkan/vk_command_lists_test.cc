// Samples across command buffers: secondaries copied to their primary, samples continued on a second
// primary, and the pass bookkeeping of Vulkan command lists, including misuse.
#include "vulkan_gpa_fixture.h"

namespace opengpa::vktest {
namespace {

TEST_F(VulkanGpaTest, SamplesOfASecondaryAreReadThroughTheIdsTheyWereCopiedTo) {
  GpaSessionId session = BeginSessionWith({"IAPrimitivesIn", "VSVerticesIn", "GPUTime"});
  VkCommandBuffer primary = BeginPrimary();
  GpaCommandListId primary_list = BeginList(session, primary);
  VkCommandBuffer secondary = BeginSecondaryInRenderPass();
  GpaCommandListId secondary_list = BeginList(session, secondary, kGpaCommandListSecondary);
  target().SetViewport(secondary);
  ASSERT_EQ(gpa().GpaBeginSample(0, secondary_list), kGpaStatusOk);
  grid().Draw(secondary, 3 * 5, 1, kColor);
  ASSERT_EQ(gpa().GpaEndSample(secondary_list), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaBeginSample(1, secondary_list), kGpaStatusOk);
  grid().Draw(secondary, 3 * 7, 1, kColor);
  ASSERT_EQ(gpa().GpaEndSample(secondary_list), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaEndCommandList(secondary_list), kGpaStatusOk);
  vkEndCommandBuffer(secondary);

  // A primary sample before the secondary runs, outside the render pass that executes it.
  SampleGridDraw(primary_list, 2, primary, 11);
  target().Begin(primary, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
  vkCmdExecuteCommands(primary, 1, &secondary);
  target().End(primary);
  GpaUInt32 new_ids[] = {100, 101};
  ASSERT_EQ(gpa().GpaCopySecondarySamples(secondary_list, primary_list, 2, new_ids), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaEndCommandList(primary_list), kGpaStatusOk);
  vkEndCommandBuffer(primary);
  ASSERT_GE(device().SubmitAndWait({primary}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);

  SampleValues first = Read(session, 100), second = Read(session, 101), on_primary = Read(session, 2);
  EXPECT_EQ(first["IAPrimitivesIn"], 5);
  EXPECT_EQ(first["VSVerticesIn"], 15);
  EXPECT_EQ(second["IAPrimitivesIn"], 7);
  EXPECT_EQ(second["VSVerticesIn"], 21);
  EXPECT_EQ(on_primary["IAPrimitivesIn"], 11);
  EXPECT_GT(first["GPUTime"], 0);
  EXPECT_GT(second["GPUTime"], 0);
  // The secondary's own ids are not results: GPA reads samples through their primary copies.
  std::size_t size = 0;
  ASSERT_EQ(gpa().GpaGetSampleResultSize(session, 0, &size), kGpaStatusOk);
  std::vector<GpaUInt64> raw(size / sizeof(GpaUInt64));
  EXPECT_EQ(gpa().GpaGetSampleResult(session, 0, size, raw.data()), kGpaStatusErrorSampleInSecondaryCommandList);
}

// Results wait only for work that was submitted: a secondary that is recorded but never executed (and
// whose samples are never copied) does not hold up the primary's samples.
TEST_F(VulkanGpaTest, ASecondaryThatNeverRunsDoesNotHoldUpThePrimarysResults) {
  GpaSessionId session = BeginSessionWith({"IAPrimitivesIn"});
  VkCommandBuffer secondary = BeginSecondaryInRenderPass();
  GpaCommandListId secondary_list = BeginList(session, secondary, kGpaCommandListSecondary);
  target().SetViewport(secondary);
  ASSERT_EQ(gpa().GpaBeginSample(0, secondary_list), kGpaStatusOk);
  grid().Draw(secondary, 3, 1, kColor);
  ASSERT_EQ(gpa().GpaEndSample(secondary_list), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaEndCommandList(secondary_list), kGpaStatusOk);
  vkEndCommandBuffer(secondary);
  VkCommandBuffer primary = BeginPrimary();
  GpaCommandListId primary_list = BeginList(session, primary);
  SampleGridDraw(primary_list, 1, primary, 8);
  ASSERT_EQ(gpa().GpaEndCommandList(primary_list), kGpaStatusOk);
  vkEndCommandBuffer(primary);
  ASSERT_GE(device().SubmitAndWait({primary}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  EXPECT_EQ(gpa().GpaIsSessionComplete(session), kGpaStatusOk);
  EXPECT_EQ(Read(session, 1)["IAPrimitivesIn"], 8);
}

// Begun on A, continued on B after A ended: the sample's statistics are A's part plus B's part and its
// time runs from A's start to B's end.
TEST_F(VulkanGpaTest, ASampleContinuedOnASecondPrimaryCountsTheWorkOfBoth) {
  GpaSessionId session = BeginSessionWith({"IAPrimitivesIn", "GPUTime", "ExecutionDuration"});
  VkCommandBuffer a = BeginPrimary();
  GpaCommandListId list_a = BeginList(session, a);
  target().Begin(a, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().GpaBeginSample(5, list_a), kGpaStatusOk);
  grid().Draw(a, 3 * 10, 1, kColor);
  target().End(a);
  ASSERT_EQ(gpa().GpaEndCommandList(list_a), kGpaStatusOk);
  vkEndCommandBuffer(a);

  VkCommandBuffer b = BeginPrimary();
  GpaCommandListId list_b = BeginList(session, b);
  ASSERT_EQ(gpa().GpaContinueSampleOnCommandList(5, list_b), kGpaStatusOk);
  target().Begin(b, VK_SUBPASS_CONTENTS_INLINE);
  grid().Draw(b, 3 * 20, 1, kColor);
  target().End(b);
  ASSERT_EQ(gpa().GpaEndSample(list_b), kGpaStatusOk);
  SampleGridDraw(list_b, 6, b, 4);  // B can take new samples once the continued one ended
  ASSERT_EQ(gpa().GpaEndCommandList(list_b), kGpaStatusOk);
  vkEndCommandBuffer(b);
  ASSERT_GE(device().SubmitAndWait({a, b}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);

  SampleValues continued = Read(session, 5);
  EXPECT_EQ(continued["IAPrimitivesIn"], 30);
  EXPECT_GT(continued["GPUTime"], 0);
  EXPECT_GT(continued["ExecutionDuration"], 0);  // from A's first timestamp to B's last
  EXPECT_EQ(Read(session, 6)["IAPrimitivesIn"], 4);
}

// Continued while A is still recording: A's part runs to A's end, so work recorded on A after the
// continue call belongs to the sample too.
TEST_F(VulkanGpaTest, ASampleContinuedBeforeItsFirstListEndsAlsoCountsTheRestOfThatList) {
  GpaSessionId session = BeginSessionWith({"IAPrimitivesIn"});
  VkCommandBuffer a = BeginPrimary();
  VkCommandBuffer b = BeginPrimary();
  GpaCommandListId list_a = BeginList(session, a);
  GpaCommandListId list_b = BeginList(session, b);
  target().Begin(a, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().GpaBeginSample(9, list_a), kGpaStatusOk);
  grid().Draw(a, 3 * 10, 1, kColor);
  ASSERT_EQ(gpa().GpaContinueSampleOnCommandList(9, list_b), kGpaStatusOk);
  grid().Draw(a, 3 * 5, 1, kColor);
  target().End(a);
  ASSERT_EQ(gpa().GpaEndCommandList(list_a), kGpaStatusOk);
  vkEndCommandBuffer(a);
  target().Begin(b, VK_SUBPASS_CONTENTS_INLINE);
  grid().Draw(b, 3 * 20, 1, kColor);
  target().End(b);
  ASSERT_EQ(gpa().GpaEndSample(list_b), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaEndCommandList(list_b), kGpaStatusOk);
  vkEndCommandBuffer(b);
  ASSERT_GE(device().SubmitAndWait({a, b}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  EXPECT_EQ(Read(session, 9)["IAPrimitivesIn"], 35);
}

TEST_F(VulkanGpaTest, OnlyPassZeroExistsAndPassOneIsRefused) {
  GpaSessionId session = BeginSessionWith();
  GpaUInt32 passes = 0;
  ASSERT_EQ(gpa().GpaGetPassCount(session, &passes), kGpaStatusOk);
  EXPECT_EQ(passes, 1u);
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = nullptr;
  EXPECT_EQ(gpa().GpaBeginCommandList(session, 1, command_buffer, kGpaCommandListPrimary, &list),
            kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(gpa().GpaIsPassComplete(session, 1), kGpaStatusErrorIndexOutOfRange);
  // Pass 0 with the same sample ids works as usual.
  list = BeginList(session, command_buffer, kGpaCommandListPrimary, 0);
  SampleGridDraw(list, 0, command_buffer, 3);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  ASSERT_GE(device().SubmitAndWait({command_buffer}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  EXPECT_EQ(Read(session, 0)["IAPrimitivesIn"], 3);
}

TEST_F(VulkanGpaTest, VulkanCommandListsNeedACommandBufferAndAPrimaryOrSecondaryType) {
  GpaSessionId session = BeginSessionWith({"GPUTime"});
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = nullptr;
  EXPECT_EQ(gpa().GpaBeginCommandList(session, 0, command_buffer, kGpaCommandListNone, &list),
            kGpaStatusErrorInvalidParameter);
  EXPECT_TRUE(ErrorMentions("kGpaCommandListNone"));
  EXPECT_EQ(gpa().GpaBeginCommandList(session, 0, nullptr, kGpaCommandListPrimary, &list), kGpaStatusErrorNullPointer);
  list = BeginList(session, command_buffer);
  GpaCommandListId again = nullptr;
  EXPECT_EQ(gpa().GpaBeginCommandList(session, 0, command_buffer, kGpaCommandListPrimary, &again),
            kGpaStatusErrorCommandListAlreadyStarted);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
}

TEST_F(VulkanGpaTest, SecondarySamplesCannotBeCopiedBeforeTheSecondaryEndsOrOntoAnotherSecondary) {
  GpaSessionId session = BeginSessionWith({"IAPrimitivesIn"});
  VkCommandBuffer primary = BeginPrimary();
  GpaCommandListId primary_list = BeginList(session, primary);
  VkCommandBuffer secondary = BeginSecondaryInRenderPass();
  GpaCommandListId secondary_list = BeginList(session, secondary, kGpaCommandListSecondary);
  target().SetViewport(secondary);
  ASSERT_EQ(gpa().GpaBeginSample(0, secondary_list), kGpaStatusOk);
  grid().Draw(secondary, 3, 1, kColor);
  ASSERT_EQ(gpa().GpaEndSample(secondary_list), kGpaStatusOk);
  GpaUInt32 new_id[] = {50};
  EXPECT_EQ(gpa().GpaCopySecondarySamples(secondary_list, primary_list, 1, new_id), kGpaStatusErrorCommandListNotEnded);
  ASSERT_EQ(gpa().GpaEndCommandList(secondary_list), kGpaStatusOk);
  vkEndCommandBuffer(secondary);
  EXPECT_EQ(gpa().GpaCopySecondarySamples(primary_list, primary_list, 1, new_id), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa().GpaCopySecondarySamples(secondary_list, secondary_list, 1, new_id), kGpaStatusErrorInvalidParameter);
  // A sample of a secondary cannot be continued on a primary: copying is the way.
  VkCommandBuffer other = BeginSecondaryInRenderPass();
  GpaCommandListId other_list = BeginList(session, other, kGpaCommandListSecondary);
  ASSERT_EQ(gpa().GpaBeginSample(1, other_list), kGpaStatusOk);
  EXPECT_EQ(gpa().GpaContinueSampleOnCommandList(1, primary_list), kGpaStatusErrorInvalidParameter);
  ASSERT_EQ(gpa().GpaEndSample(other_list), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaEndCommandList(other_list), kGpaStatusOk);
  vkEndCommandBuffer(other);
  ASSERT_EQ(gpa().GpaEndCommandList(primary_list), kGpaStatusOk);
  vkEndCommandBuffer(primary);
}

TEST_F(VulkanGpaTest, ASampleCannotBeContinuedOnAListThatHasEnded) {
  GpaSessionId session = BeginSessionWith({"IAPrimitivesIn"});
  VkCommandBuffer a = BeginPrimary(), b = BeginPrimary();
  GpaCommandListId list_a = BeginList(session, a), list_b = BeginList(session, b);
  ASSERT_EQ(gpa().GpaEndCommandList(list_b), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaBeginSample(0, list_a), kGpaStatusOk);
  EXPECT_NE(gpa().GpaContinueSampleOnCommandList(0, list_b), kGpaStatusOk);
  EXPECT_EQ(gpa().GpaContinueSampleOnCommandList(77, list_a), kGpaStatusErrorSampleNotFound);
  ASSERT_EQ(gpa().GpaEndSample(list_a), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaEndCommandList(list_a), kGpaStatusOk);
  vkEndCommandBuffer(a);
  vkEndCommandBuffer(b);
}

}  // namespace
}  // namespace opengpa::vktest
