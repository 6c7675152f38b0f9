// Sessions, passes and samples: GPA_BeginSession ... GPA_EndSample, each documented status.
#include "tests/gpa2/gpa2_test_fixture.h"

namespace opengpa::gpa2test {
namespace {

using ::testing::HasSubstr;

TEST_F(Gpa2Test, SamplingCallsWithoutOpenContextAreCountersNotOpen) {
  gpa_uint32 session = 0;
  EXPECT_EQ(GPA_BeginSession(&session), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_BeginPass(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_EndPass(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_EndSample(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
}

TEST_F(Gpa2Test, BeginSessionWithNullIdIsNullPointer) {
  Open();
  ASSERT_EQ(GPA_EnableCounter(0), GPA_STATUS_OK);
  EXPECT_EQ(GPA_BeginSession(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, BeginSessionWithoutEnabledCountersIsNoCountersEnabled) {
  Open();
  gpa_uint32 session = 0;
  EXPECT_EQ(GPA_BeginSession(&session), GPA_STATUS_ERROR_NO_COUNTERS_ENABLED);
}

TEST_F(Gpa2Test, BeginSessionTwiceIsSamplingAlreadyStarted) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  gpa_uint32 session = 0;
  EXPECT_EQ(GPA_BeginSession(&session), GPA_STATUS_ERROR_SAMPLING_ALREADY_STARTED);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("session 1"));
}

TEST_F(Gpa2Test, SessionIdsStartFromOneOnEachNewlyOpenedContext) {
  Open();
  EXPECT_EQ(RecordSession({"FakeTotalWork"}, {0}), 1u);
  EXPECT_EQ(RecordSession({}, {0}), 2u);
  EXPECT_EQ(RecordSession({}, {0}), 3u);
  ASSERT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
  Open();
  EXPECT_EQ(RecordSession({"FakeTotalWork"}, {0}), 1u);
}

TEST_F(Gpa2Test, EndSessionWithoutSessionIsSamplingNotStarted) {
  Open();
  EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_SAMPLING_NOT_STARTED);
}

TEST_F(Gpa2Test, EndSessionInsideAPassIsPassNotEnded) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_PASS_NOT_ENDED);
}

TEST_F(Gpa2Test, EndSessionBeforeEveryPassIsNotEnoughPassesAndDropsTheSession) {
  device_.block_limit = 1;
  Open();
  const gpa_uint32 session = BeginSessionWith({"FakeTotalWork"});  // two passes
  RecordPass({1});
  EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_NOT_ENOUGH_PASSES);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("need 2"));
  bool ready = true;
  EXPECT_EQ(GPA_IsSessionReady(&ready, session), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(RecordSession({}, {1}), session + 1);  // the context samples on
}

TEST_F(Gpa2Test, EndSessionWithSamplesThatDifferBetweenPassesIsVariableNumberOfSamplesInPasses) {
  device_.block_limit = 1;
  Open();
  BeginSessionWith({"FakeTotalWork"});
  RecordPass({1, 2});
  RecordPass({1, 3});  // as many samples, but not the same ones
  EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES);
}

TEST_F(Gpa2Test, EndSessionTheBackendCannotEndIsFailed) {
  device_.end_session_status = kGpaStatusErrorFailed;
  Open();
  BeginSessionWith({"FakeTotalWork"});
  RecordPass({1});
  EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_FAILED);
  gpa_uint32 session = 0;
  device_.end_session_status = kGpaStatusOk;
  EXPECT_EQ(GPA_BeginSession(&session), GPA_STATUS_OK);  // not stuck in the failed session
}

TEST_F(Gpa2Test, BeginPassWithoutSessionIsSamplingNotStarted) {
  Open();
  EXPECT_EQ(GPA_BeginPass(), GPA_STATUS_ERROR_SAMPLING_NOT_STARTED);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("GPA_BeginSession"));
}

TEST_F(Gpa2Test, BeginPassInsideAPassIsPassAlreadyStarted) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_BeginPass(), GPA_STATUS_ERROR_PASS_ALREADY_STARTED);
}

TEST_F(Gpa2Test, BeginPassThatTheBackendRefusesIsFailed) {
  device_.command_list_status = kGpaStatusErrorFailed;
  Open();
  BeginSessionWith({"FakeTotalWork"});
  EXPECT_EQ(GPA_BeginPass(), GPA_STATUS_ERROR_FAILED);
  EXPECT_EQ(GPA_EndPass(), GPA_STATUS_ERROR_PASS_NOT_STARTED);  // no pass was begun
}

TEST_F(Gpa2Test, BeginPassOnANullCommandListIsNullPointer) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  EXPECT_EQ(OpenGpa2BeginPassOnCommandList(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, EndPassWithoutSessionIsSamplingNotStarted) {
  Open();
  EXPECT_EQ(GPA_EndPass(), GPA_STATUS_ERROR_SAMPLING_NOT_STARTED);
}

TEST_F(Gpa2Test, EndPassWithoutPassIsPassNotStarted) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  EXPECT_EQ(GPA_EndPass(), GPA_STATUS_ERROR_PASS_NOT_STARTED);
}

TEST_F(Gpa2Test, EndPassInsideASampleIsSampleNotEnded) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  ASSERT_EQ(GPA_BeginSample(4), GPA_STATUS_OK);
  EXPECT_EQ(GPA_EndPass(), GPA_STATUS_ERROR_SAMPLE_NOT_ENDED);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("sample 4"));
}

TEST_F(Gpa2Test, EndPassWithMoreSamplesThanTheFirstPassIsVariableNumberOfSamplesInPassesAndEndsThePass) {
  device_.block_limit = 1;
  Open();
  BeginSessionWith({"FakeTotalWork"});
  RecordPass({1});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  for (gpa_uint32 id : {1u, 2u}) {
    ASSERT_EQ(GPA_BeginSample(id), GPA_STATUS_OK);
    ASSERT_EQ(GPA_EndSample(), GPA_STATUS_OK);
  }
  EXPECT_EQ(GPA_EndPass(), GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("pass 1 has 2 sample(s), the first pass 1"));
  EXPECT_EQ(GPA_EndPass(), GPA_STATUS_ERROR_PASS_NOT_STARTED);  // it did end
}

TEST_F(Gpa2Test, PassesBeyondThoseTheCountersNeedRecordNothingAndSucceed) {
  Open();
  const gpa_uint32 session = BeginSessionWith({"FakeTotalWork"});  // one pass
  RecordPass({1});
  RecordPass({1});
  ASSERT_EQ(GPA_EndSession(), GPA_STATUS_OK);
  gpa_uint64 value = 0;
  ASSERT_EQ(GPA_GetSampleUInt64(session, 1, 0, &value), GPA_STATUS_OK);
  EXPECT_EQ(value, 3006u);  // slot 0: FakeCycles 1003 + FakeItems 2003
}

TEST_F(Gpa2Test, BeginSampleWithoutSessionIsSamplingNotStarted) {
  Open();
  EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_SAMPLING_NOT_STARTED);
}

TEST_F(Gpa2Test, BeginSampleOutsideAPassIsPassNotStarted) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_PASS_NOT_STARTED);
}

TEST_F(Gpa2Test, BeginSampleInsideASampleIsSampleAlreadyStarted) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  ASSERT_EQ(GPA_BeginSample(0), GPA_STATUS_OK);
  EXPECT_EQ(GPA_BeginSample(1), GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED);
}

TEST_F(Gpa2Test, BeginSampleWithAnIdUsedEarlierInThePassIsSampleAlreadyStarted) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  ASSERT_EQ(GPA_BeginSample(8), GPA_STATUS_OK);
  ASSERT_EQ(GPA_EndSample(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_BeginSample(8), GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("sampleID 8 was already used"));
}

TEST_F(Gpa2Test, BeginSampleThatTheBackendRefusesIsFailed) {
  device_.sample_status = kGpaStatusErrorFailed;
  Open();
  BeginSessionWith({"FakeTotalWork"});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_FAILED);
  EXPECT_EQ(GPA_EndSample(), GPA_STATUS_ERROR_SAMPLE_NOT_STARTED);  // it was not begun
}

TEST_F(Gpa2Test, BeginSampleWhoseLibraryThrowsIsFailed) {
  device_.throw_in_samples = true;
  Open();
  BeginSessionWith({"FakeTotalWork"});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_FAILED);
}

TEST_F(Gpa2Test, EndSampleWithoutSampleIsSampleNotStarted) {
  Open();
  EXPECT_EQ(GPA_EndSample(), GPA_STATUS_ERROR_SAMPLE_NOT_STARTED);
  BeginSessionWith({"FakeTotalWork"});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_EndSample(), GPA_STATUS_ERROR_SAMPLE_NOT_STARTED);
}

TEST_F(Gpa2Test, EndSampleThatTheBackendRefusesIsFailedAndClosesTheSample) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
  ASSERT_EQ(GPA_BeginSample(0), GPA_STATUS_OK);
  device_.sample_status = kGpaStatusErrorFailed;
  EXPECT_EQ(GPA_EndSample(), GPA_STATUS_ERROR_FAILED);
  device_.sample_status = kGpaStatusOk;
  EXPECT_EQ(GPA_EndPass(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_FAILED);  // the core never saw the sample end
}

}  // namespace
}  // namespace opengpa::gpa2test

namespace opengpa::gpa2test {
namespace {

TEST_F(Gpa2Test, BeginPassOnACommandListRecordsThePassIntoIt) {
  Open();
  const gpa_uint32 session = BeginSessionWith({"FakeTotalWork"});
  int application_command_list = 0;
  ASSERT_EQ(OpenGpa2BeginPassOnCommandList(&application_command_list), GPA_STATUS_OK);
  EXPECT_EQ(device_.command_lists_alive, 1);
  EXPECT_EQ(OpenGpa2BeginPassOnCommandList(&application_command_list), GPA_STATUS_ERROR_PASS_ALREADY_STARTED);
  ASSERT_EQ(GPA_BeginSample(2), GPA_STATUS_OK);
  ASSERT_EQ(GPA_EndSample(), GPA_STATUS_OK);
  ASSERT_EQ(GPA_EndPass(), GPA_STATUS_OK);
  ASSERT_EQ(GPA_EndSession(), GPA_STATUS_OK);
  gpa_uint64 value = 0;
  ASSERT_EQ(GPA_GetSampleUInt64(session, 2, 0, &value), GPA_STATUS_OK);
  EXPECT_EQ(value, 3006u);
}

TEST_F(Gpa2Test, BeginPassOnACommandListWithoutSessionIsSamplingNotStarted) {
  Open();
  int application_command_list = 0;
  EXPECT_EQ(OpenGpa2BeginPassOnCommandList(&application_command_list), GPA_STATUS_ERROR_SAMPLING_NOT_STARTED);
}

}  // namespace
}  // namespace opengpa::gpa2test
