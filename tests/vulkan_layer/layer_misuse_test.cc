// Wrong use of VK_AMD_gpa_interface: each is answered with an error VkResult (or, for the commands that
// return nothing, records nothing) and a message on stderr naming the rule; none crashes.
#include <climits>
#include <string>
#include <vector>

#include "layer_fixture.h"

namespace opengpa::layertest {
namespace {

constexpr float kColor[4] = {0.5f, 0.5f, 0.5f, 1.0f};

using LayerMisuseTest = LayerTest;

TEST_F(LayerMisuseTest, TraceSamplesAreRefusedAsTheDeviceHasNoTraceFeature) {
  const VkGpaSessionAMD session = CreateSession();
  const VkCommandBuffer command_buffer = BeginPrimary();
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
  VkGpaSampleBeginInfoAMD trace = TimingInfo();
  trace.sampleType = VK_GPA_SAMPLE_TYPE_TRACE_AMD;
  trace.sqThreadTraceEnable = VK_TRUE;
  std::uint32_t id = 7;
  const std::string messages = LayerMessages(
      [&] { EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &trace, &id), VK_ERROR_FEATURE_NOT_PRESENT); });
  EXPECT_EQ(id, UINT32_MAX);
  EXPECT_NE(messages.find("sqThreadTracing"), std::string::npos) << messages;
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
  End(command_buffer);
}

TEST_F(LayerMisuseTest, BadSampleDescriptionsAreRefused) {
  const VkGpaSessionAMD session = CreateSession();
  const VkCommandBuffer command_buffer = BeginPrimary();
  std::uint32_t id = 0;
  const VkGpaSampleBeginInfoAMD timing = TimingInfo();
  // No session begun yet.
  LayerMessages([&] {
    EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &timing, &id), VK_ERROR_VALIDATION_FAILED_EXT);
  });
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);

  const std::vector<VkGpaPerfCounterAMD> unknown = {{VK_GPA_PERF_BLOCK_TCC_AMD, 0, 3}};
  const std::vector<VkGpaPerfCounterAMD> bad_instance = {{VK_GPA_PERF_BLOCK_IA_AMD, 1, 0}};
  const std::vector<VkGpaPerfCounterAMD> bad_event = {{VK_GPA_PERF_BLOCK_IA_AMD, 0, 99}};
  for (const auto* counters : {&unknown, &bad_instance, &bad_event}) {
    const VkGpaSampleBeginInfoAMD info = CumulativeInfo(*counters);
    const std::string messages = LayerMessages(
        [&] { EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &info, &id), VK_ERROR_FEATURE_NOT_PRESENT); });
    EXPECT_NE(messages.find("not a counter of this device"), std::string::npos) << messages;
  }
  VkGpaSampleBeginInfoAMD empty = CumulativeInfo({});
  LayerMessages([&] {
    EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &empty, &id), VK_ERROR_VALIDATION_FAILED_EXT);
  });
  VkGpaSampleBeginInfoAMD no_stage = TimingInfo(0, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
  LayerMessages([&] {
    EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &no_stage, &id), VK_ERROR_VALIDATION_FAILED_EXT);
  });
  VkGpaSampleBeginInfoAMD bad_type = TimingInfo();
  bad_type.sampleType = static_cast<VkGpaSampleTypeAMD>(9);
  LayerMessages([&] {
    EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &bad_type, &id), VK_ERROR_VALIDATION_FAILED_EXT);
  });
  // Values outside the enums' ranges, as C may store them: read as ints (UBSan fails the sanitizer run otherwise).
  for (int bad : {-1, INT_MIN}) {
    StoreInt(&bad_type.sampleType, bad);
    const std::string messages = LayerMessages([&] {
      EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &bad_type, &id), VK_ERROR_VALIDATION_FAILED_EXT);
    });
    EXPECT_NE(messages.find("sampleType " + std::to_string(bad) + " is not"), std::string::npos) << messages;
    std::vector<VkGpaPerfCounterAMD> bad_block(1);
    StoreInt(&bad_block[0].blockType, bad);
    const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(bad_block);
    const std::string block_messages = LayerMessages([&] {
      EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &id), VK_ERROR_FEATURE_NOT_PRESENT);
    });
    EXPECT_NE(block_messages.find("(block " + std::to_string(bad) + ","), std::string::npos) << block_messages;
    VkGpaSampleBeginInfoAMD negative_stype = TimingInfo();
    StoreInt(&negative_stype.sType, bad);
    LayerMessages([&] {
      EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &negative_stype, &id), VK_ERROR_VALIDATION_FAILED_EXT);
    });
  }
  VkGpaSampleBeginInfoAMD bad_stype = TimingInfo();
  bad_stype.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  LayerMessages([&] {
    EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &bad_stype, &id), VK_ERROR_VALIDATION_FAILED_EXT);
  });
  LayerMessages([&] {
    EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, nullptr, &id), VK_ERROR_VALIDATION_FAILED_EXT);
  });
  LayerMessages([&] {
    EXPECT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &timing, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
  });
  // Ending samples that were never begun records nothing.
  LayerMessages([&] { gpa().CmdEndGpaSample(command_buffer, session, 0); });
  LayerMessages([&] { gpa().CmdEndGpaSample(command_buffer, session, 12345); });
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
  End(command_buffer);
  Submit({command_buffer});
  EXPECT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_SUCCESS) << "a session without samples is complete";
}

TEST_F(LayerMisuseTest, SessionOrderRulesAreEnforced) {
  const VkGpaSessionAMD a = CreateSession();
  const VkGpaSessionAMD b = CreateSession();
  const VkCommandBuffer command_buffer = BeginPrimary();
  LayerMessages([&] { EXPECT_EQ(gpa().CmdEndGpaSession(command_buffer, a), VK_ERROR_VALIDATION_FAILED_EXT); });
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, a), VK_SUCCESS);
  std::string messages =
      LayerMessages([&] { EXPECT_EQ(gpa().CmdBeginGpaSession(command_buffer, a), VK_ERROR_VALIDATION_FAILED_EXT); });
  EXPECT_NE(messages.find("12409"), std::string::npos) << messages;
  messages =
      LayerMessages([&] { EXPECT_EQ(gpa().CmdBeginGpaSession(command_buffer, b), VK_ERROR_VALIDATION_FAILED_EXT); });
  EXPECT_NE(messages.find("12410"), std::string::npos) << messages;
  LayerMessages([&] { EXPECT_EQ(gpa().ResetGpaSession(vk(), a), VK_ERROR_VALIDATION_FAILED_EXT); });
  EXPECT_EQ(gpa().GetGpaSessionStatus(vk(), a), VK_NOT_READY) << "still being recorded";
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, a), VK_SUCCESS);
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, b), VK_SUCCESS) << "allowed once the other ended";
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, b), VK_SUCCESS);
  // Copying into a session that has no secondaryCopySource records nothing.
  messages = LayerMessages([&] { gpa().CmdCopyGpaSessionResults(command_buffer, a); });
  EXPECT_NE(messages.find("without a secondaryCopySource"), std::string::npos) << messages;
  End(command_buffer);
  Submit({command_buffer});
}

TEST_F(LayerMisuseTest, UnendedSamplesAreClosedByTheLayerAndHaveNoResult) {
  const VkGpaSessionAMD session = CreateSession();
  const std::vector<VkGpaPerfCounterAMD> counters = {kIaPrimitives};
  const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
  const VkGpaSampleBeginInfoAMD timing = TimingInfo();
  const VkCommandBuffer first = BeginPrimary();
  ASSERT_EQ(gpa().CmdBeginGpaSession(first, session), VK_SUCCESS);
  std::uint32_t left_open = 0, crossed = 0, timed = 0, good = 0;
  ASSERT_EQ(gpa().CmdBeginGpaSample(first, session, &cumulative, &left_open), VK_SUCCESS);
  ASSERT_EQ(gpa().CmdBeginGpaSample(first, session, &timing, &timed), VK_SUCCESS);  // never ended
  // The recording ends with a query still active: the layer ends it, so the command buffer stays valid.
  std::string messages = LayerMessages([&] { End(first); });
  EXPECT_NE(messages.find("still open"), std::string::npos) << messages;

  const VkCommandBuffer second = BeginPrimary();
  target().Begin(second, VK_SUBPASS_CONTENTS_INLINE);
  ASSERT_EQ(gpa().CmdBeginGpaSample(second, session, &cumulative, &good), VK_SUCCESS);
  grid().Draw(second, 3 * 4, 1, kColor);
  gpa().CmdEndGpaSample(second, session, good);
  target().End(second);
  // A cumulative sample must end in the command buffer it began in.
  messages = LayerMessages([&] { gpa().CmdEndGpaSample(second, session, left_open); });
  EXPECT_NE(messages.find("same command buffer"), std::string::npos) << messages;
  (void)crossed;
  messages = LayerMessages([&] { EXPECT_EQ(gpa().CmdEndGpaSession(second, session), VK_SUCCESS); });
  EXPECT_NE(messages.find("never ended"), std::string::npos) << messages;
  End(second);
  Submit({first, second});

  ASSERT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_SUCCESS) << "the ended samples are complete";
  EXPECT_EQ(Results(session, good), std::vector<std::uint64_t>{4});
  std::size_t size = 0;
  ASSERT_EQ(gpa().GetGpaSessionResults(vk(), session, timed, &size, nullptr), VK_SUCCESS);
  std::uint64_t values[2] = {};
  messages = LayerMessages([&] {
    EXPECT_EQ(gpa().GetGpaSessionResults(vk(), session, timed, &size, values), VK_ERROR_VALIDATION_FAILED_EXT);
  });
  EXPECT_NE(messages.find("no result"), std::string::npos) << messages;
  size = sizeof(std::uint64_t);
  LayerMessages([&] {
    EXPECT_EQ(gpa().GetGpaSessionResults(vk(), session, left_open, &size, values), VK_ERROR_VALIDATION_FAILED_EXT);
  });
}

TEST_F(LayerMisuseTest, ResultQueriesCheckSizesIdsAndHandles) {
  const VkGpaSessionAMD session = CreateSession();
  const VkGpaSampleBeginInfoAMD timing = TimingInfo();
  const VkCommandBuffer command_buffer = BeginPrimary();
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
  std::uint32_t id = 0;
  ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &timing, &id), VK_SUCCESS);
  gpa().CmdEndGpaSample(command_buffer, session, id);
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
  End(command_buffer);
  std::uint64_t values[2] = {};
  std::size_t size = sizeof values;
  EXPECT_EQ(gpa().GetGpaSessionResults(vk(), session, id, &size, values), VK_NOT_READY) << "not submitted";
  Submit({command_buffer});

  size = sizeof(std::uint64_t);  // room for one of two timestamps
  EXPECT_EQ(gpa().GetGpaSessionResults(vk(), session, id, &size, values), VK_INCOMPLETE);
  EXPECT_EQ(size, 0u) << "nothing written";
  LayerMessages([&] {
    EXPECT_EQ(gpa().GetGpaSessionResults(vk(), session, id + 1, &size, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
  });
  LayerMessages([&] {
    EXPECT_EQ(gpa().GetGpaSessionResults(vk(), session, id, nullptr, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
  });
  size = 0;
  LayerMessages(
      [&] { EXPECT_EQ(gpa().GetGpaSessionResults(vk(), session, id, &size, values), VK_ERROR_VALIDATION_FAILED_EXT); });

  // Handles that are no session of this device.
  const auto bogus = reinterpret_cast<VkGpaSessionAMD>(std::uintptr_t{0xdeadbeef});
  LayerMessages([&] {
    EXPECT_EQ(gpa().GetGpaSessionStatus(vk(), bogus), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(gpa().ResetGpaSession(vk(), bogus), VK_ERROR_VALIDATION_FAILED_EXT);
    gpa().DestroyGpaSession(vk(), bogus, nullptr);
  });
  gpa().DestroyGpaSession(vk(), VK_NULL_HANDLE, nullptr);  // allowed, does nothing
}

TEST_F(LayerMisuseTest, SessionCreationChecksItsArguments) {
  VkGpaSessionAMD session = VK_NULL_HANDLE;
  VkGpaSessionCreateInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
  LayerMessages(
      [&] { EXPECT_EQ(gpa().CreateGpaSession(vk(), nullptr, nullptr, &session), VK_ERROR_VALIDATION_FAILED_EXT); });
  LayerMessages(
      [&] { EXPECT_EQ(gpa().CreateGpaSession(vk(), &info, nullptr, nullptr), VK_ERROR_VALIDATION_FAILED_EXT); });
  info.secondaryCopySource = reinterpret_cast<VkGpaSessionAMD>(std::uintptr_t{0x1234});
  LayerMessages(
      [&] { EXPECT_EQ(gpa().CreateGpaSession(vk(), &info, nullptr, &session), VK_ERROR_VALIDATION_FAILED_EXT); });
  info.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  info.secondaryCopySource = VK_NULL_HANDLE;
  LayerMessages(
      [&] { EXPECT_EQ(gpa().CreateGpaSession(vk(), &info, nullptr, &session), VK_ERROR_VALIDATION_FAILED_EXT); });
  // A copy destination cannot be begun, nor be the source of another copy.
  const VkGpaSessionAMD source = CreateSession();
  const VkGpaSessionAMD destination = CreateSession(source);
  info.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
  info.secondaryCopySource = destination;
  LayerMessages(
      [&] { EXPECT_EQ(gpa().CreateGpaSession(vk(), &info, nullptr, &session), VK_ERROR_VALIDATION_FAILED_EXT); });
  const VkCommandBuffer command_buffer = BeginPrimary();
  LayerMessages(
      [&] { EXPECT_EQ(gpa().CmdBeginGpaSession(command_buffer, destination), VK_ERROR_VALIDATION_FAILED_EXT); });
  // Copying from a source that was never ended records nothing, and the destination stays not ready.
  LayerMessages([&] { gpa().CmdCopyGpaSessionResults(command_buffer, destination); });
  End(command_buffer);
  Submit({command_buffer});
  EXPECT_EQ(gpa().GetGpaSessionStatus(vk(), destination), VK_NOT_READY);
  // The source of a live copy destination is not destroyed from under it.
  LayerMessages([&] { gpa().DestroyGpaSession(vk(), source, nullptr); });
  EXPECT_EQ(gpa().ResetGpaSession(vk(), source), VK_SUCCESS) << "still alive";
}

}  // namespace
}  // namespace opengpa::layertest
