// Timing counters: GPU timestamps around each sample, converted with the device's timestamp period.
#include <chrono>
#include <cstdlib>
#include <thread>

#include "vulkan_gpa_fixture.h"

namespace opengpa::vktest {
namespace {

TEST_F(VulkanGpaTest, GpuTimeIsPositiveAndShorterThanTheHostMeasuredSubmission) {
  std::string error;
  auto compute = CountingCompute::Create(device(), 64, &error);
  ASSERT_TRUE(compute) << error;
  GpaSessionId session = BeginSessionWith({"GPUTime", "ExecutionDuration", "ExecutionStart", "ExecutionEnd"});
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  ASSERT_EQ(gpa().GpaBeginSample(0, list), kGpaStatusOk);
  compute->Dispatch(command_buffer, 64, 4, 1, 2000);
  ASSERT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
  SampleGridDraw(list, 1, command_buffer, 500);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  const double host_ns = device().SubmitAndWait({command_buffer});
  ASSERT_GT(host_ns, 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);

  const double tick_ns = device().properties().limits.timestampPeriod;
  for (GpaUInt32 id : {0u, 1u}) {
    SampleValues values = Read(session, id);
    EXPECT_GT(values["GPUTime"], 0) << "sample " << id;
    EXPECT_LT(values["GPUTime"], host_ns) << "sample " << id;
    EXPECT_GT(values["ExecutionDuration"], 0) << "sample " << id;
    EXPECT_LT(values["ExecutionDuration"], host_ns) << "sample " << id;
    // Start and end are on one time line: their difference is the duration, to a tick.
    EXPECT_NEAR(values["ExecutionEnd"] - values["ExecutionStart"], values["ExecutionDuration"], tick_ns + 1e-6)
        << "sample " << id;
    EXPECT_GE(values["ExecutionStart"], 0);
  }
}

// With VK_EXT_calibrated_timestamps enabled the time origin is GpaBeginSession: work submitted after a
// host pause starts at least that long after the origin.
TEST_F(VulkanGpaTest, ExecutionStartCountsFromBeginSessionWithCalibratedTimestamps) {
  if (!device().has_calibrated_timestamps()) GTEST_SKIP() << "the device lacks VK_EXT_calibrated_timestamps";
  GpaSessionId session = BeginSessionWith({"ExecutionStart", "ExecutionEnd"});
  const auto begun = std::chrono::steady_clock::now();
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  SampleGridDraw(list, 0, command_buffer, 10);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const double before_submit_ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - begun).count();
  const double host_ns = device().SubmitAndWait({command_buffer});
  ASSERT_GT(host_ns, 0);
  const double after_wait_ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - begun).count();
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  SampleValues values = Read(session, 0);
  // Clocks differ in rate by far less than 1% over this span; allow 1 ms for the calibration itself.
  EXPECT_GT(values["ExecutionStart"], before_submit_ns * 0.99 - 1e6);
  EXPECT_LT(values["ExecutionEnd"], after_wait_ns * 1.01 + 1e6);
}

TEST_F(VulkanGpaTest, IsPassCompleteIsFalseUntilTheCommandBufferHasRun) {
  GpaSessionId session = BeginSessionWith({"GPUTime", "IAPrimitivesIn"});
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  SampleGridDraw(list, 0, command_buffer, 10);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  // Recorded but never submitted: nothing can be complete, and asking must not block.
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_EQ(gpa().GpaIsPassComplete(session, 0), kGpaStatusResultNotReady);
  EXPECT_EQ(gpa().GpaIsSessionComplete(session), kGpaStatusResultNotReady);
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(1));
  ASSERT_GE(device().SubmitAndWait({command_buffer}), 0);
  EXPECT_EQ(gpa().GpaIsPassComplete(session, 0), kGpaStatusOk);
  EXPECT_EQ(gpa().GpaIsSessionComplete(session), kGpaStatusOk);
  EXPECT_EQ(Read(session, 0)["IAPrimitivesIn"], 10);
}

// A command buffer that is recorded but never submitted can never produce results: reading them fails
// after the timeout (OPENGPA_VK_RESULT_TIMEOUT_MS, 60 s by default) instead of blocking forever.
TEST_F(VulkanGpaTest, ReadingResultsOfAnUnsubmittedCommandBufferFailsAfterTheTimeoutInsteadOfHanging) {
  setenv("OPENGPA_VK_RESULT_TIMEOUT_MS", "300", 1);
  GpaSessionId session = BeginSessionWith({"GPUTime", "IAPrimitivesIn"});
  unsetenv("OPENGPA_VK_RESULT_TIMEOUT_MS");
  VkCommandBuffer command_buffer = BeginPrimary();
  GpaCommandListId list = BeginList(session, command_buffer);
  SampleGridDraw(list, 0, command_buffer, 10);
  ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
  vkEndCommandBuffer(command_buffer);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  std::size_t size = 0;
  ASSERT_EQ(gpa().GpaGetSampleResultSize(session, 0, &size), kGpaStatusOk);
  std::vector<GpaUInt64> raw(size / sizeof(GpaUInt64));
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_EQ(gpa().GpaGetSampleResult(session, 0, size, raw.data()), kGpaStatusErrorReadingSampleResult);
  const auto waited = std::chrono::steady_clock::now() - asked;
  EXPECT_GE(waited, std::chrono::milliseconds(300));
  EXPECT_LT(waited, std::chrono::seconds(10));
  EXPECT_TRUE(ErrorMentions("submitted"));
}

}  // namespace
}  // namespace opengpa::vktest
