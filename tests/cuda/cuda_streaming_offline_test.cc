// Streaming sessions (CUPTI PM sampling) on offline CUDA contexts: which chips offer them, which counters a
// streaming session accepts (CUPTI's PM-sampling host tables and config image decide, no GPU needed), and the
// statuses of the streaming calls a session that cannot begin answers. Live streams: tests/device/spm.

#include "gpu_performance_api/opengpa_ext.h"
#include "tests/cuda/cuda_test_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

using CudaStreamingOfflineTest = CudaApiTest;

GpaContextSampleTypeFlags SampleTypes(GpaContextId context) {
  GpaContextSampleTypeFlags types = 0;
  EXPECT_EQ(GpaGetSupportedSampleTypes(context, &types), kGpaStatusOk);
  return types;
}

TEST_F(CudaStreamingOfflineTest, HopperAndAdaOfferStreamingCountersAndTuringAndGa100DoNot) {
  for (const char* chip : {"GH100", "AD102"}) {
    GpaContextId context = OpenOffline(chip);
    EXPECT_NE(SampleTypes(context) & kGpaContextSampleTypeStreamingCounter, 0u) << chip;
    GpaCloseContext(context);
  }
  for (const char* chip : {"TU102", "GA100"}) {
    GpaContextId context = OpenOffline(chip);
    EXPECT_EQ(SampleTypes(context) & kGpaContextSampleTypeStreamingCounter, 0u) << chip;
    GpaSessionId session = nullptr;
    EXPECT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &session),
              kGpaStatusErrorIncompatibleSampleTypes)
        << chip;
    GpaCloseContext(context);
  }
}

TEST_F(CudaStreamingOfflineTest, AStreamingSessionTakesDramCountersPmSamplingHas) {
  GpaContextId context = OpenOffline("GH100");
  GpaSessionId session = nullptr;
  ASSERT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &session), kGpaStatusOk);
  EXPECT_EQ(GpaEnableCounterByName(session, "FetchSize"), kGpaStatusOk) << CudaErrorLog::Errors();
  EXPECT_EQ(GpaEnableCounterByName(session, "WriteSize"), kGpaStatusOk) << CudaErrorLog::Errors();
  GpaUInt32 enabled = 0;
  ASSERT_EQ(GpaGetNumEnabledCounters(session, &enabled), kGpaStatusOk);
  EXPECT_EQ(enabled, 2u);
  GpaCloseContext(context);
}

TEST_F(CudaStreamingOfflineTest, ACounterPmSamplingLacksOrCannotFitInOnePassIsRefusedSayingWhy) {
  GpaContextId context = OpenOffline("GH100");
  GpaSessionId session = nullptr;
  ASSERT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &session), kGpaStatusOk);
  // CSThreads is smsp__threads_launched.sum, which PM sampling does not have on GH100.
  CudaErrorLog::Clear();
  EXPECT_EQ(GpaEnableCounterByName(session, "CSThreads"), kGpaStatusErrorIncompatibleSampleTypes);
  EXPECT_THAT(CudaErrorLog::Errors(), HasSubstr("smsp__threads_launched.sum"));
  // FMAPipeUtilization alone needs more than the one pass PM sampling collects.
  CudaErrorLog::Clear();
  EXPECT_EQ(GpaEnableCounterByName(session, "FMAPipeUtilization"), kGpaStatusErrorNotEnabled);
  EXPECT_THAT(CudaErrorLog::Errors(), HasSubstr("one pass"));
  EXPECT_EQ(GpaEnableAllCounters(session), kGpaStatusErrorIncompatibleSampleTypes);
  GpaCloseContext(context);
}

// Every counter of GH100, added one at a time: each is accepted, refused as not streamable, or refused as not
// fitting the one pass with those already accepted; what is accepted always builds a one-pass config image.
TEST_F(CudaStreamingOfflineTest, EnablingCountersOneByOneKeepsTheSetOnePmSamplingPass) {
  GpaContextId context = OpenOffline("GH100");
  GpaSessionId session = nullptr;
  ASSERT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &session), kGpaStatusOk);
  GpaUInt32 count = 0;
  ASSERT_EQ(GpaGetNumCounters(context, &count), kGpaStatusOk);
  int accepted = 0, not_streamable = 0, over_a_pass = 0;
  for (GpaUInt32 index = 0; index < count; ++index) {
    const GpaStatus status = GpaEnableCounter(session, index);
    if (status == kGpaStatusOk)
      ++accepted;
    else if (status == kGpaStatusErrorIncompatibleSampleTypes)
      ++not_streamable;
    else if (status == kGpaStatusErrorNotEnabled)
      ++over_a_pass;
    else
      ADD_FAILURE() << "counter " << index << ": status " << status;
  }
  EXPECT_GT(accepted, 1);
  EXPECT_GT(not_streamable, 0);
  EXPECT_GT(over_a_pass, 0);
  GpaUInt32 enabled = 0;
  ASSERT_EQ(GpaGetNumEnabledCounters(session, &enabled), kGpaStatusOk);
  EXPECT_EQ(static_cast<int>(enabled), accepted);
  GpaCloseContext(context);
}

TEST_F(CudaStreamingOfflineTest, AnOfflineStreamCannotBeginAndItsCallsSaySo) {
  GpaContextId context = OpenOffline("GH100");
  GpaSessionId session = nullptr;
  ASSERT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeStreamingCounter, &session), kGpaStatusOk);
  ASSERT_EQ(GpaEnableCounterByName(session, "FetchSize"), kGpaStatusOk);
  EXPECT_EQ(OpenGpaSetStreamingOptions(session, 0, 0), kGpaStatusOk);  // 0 and 0: nothing changes
  EXPECT_EQ(OpenGpaSetStreamingOptions(session, 200000, 32 << 20), kGpaStatusOk);
  EXPECT_EQ(GpaBeginSession(session), kGpaStatusErrorHardwareNotSupported);
  OpenGpaStreamingInfo info{};
  EXPECT_EQ(OpenGpaGetStreamingInfo(session, &info), kGpaStatusErrorSessionNotEnded);
  EXPECT_EQ(OpenGpaGetStreamingSamples(session, 0, 0, nullptr, nullptr, nullptr), kGpaStatusErrorSessionNotEnded);
  EXPECT_EQ(OpenGpaGetStreamingInfo(nullptr, &info), kGpaStatusErrorNullPointer);
  GpaSessionId discrete = nullptr;
  ASSERT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &discrete), kGpaStatusOk);
  EXPECT_EQ(OpenGpaSetStreamingOptions(discrete, 100000, 0), kGpaStatusErrorIncompatibleSampleTypes);
  GpaCloseContext(context);
}

}  // namespace
}  // namespace opengpa::testing
