// A backend's failure reaches the caller as the backend's status, and leaves GPA's state as it was.
#include "tests/core/gpa_api_test_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

using BackendFailureTest = GpaApiTest;

TEST_F(BackendFailureTest, BeginSessionFailureLeavesTheSessionUnbegunAndTheContextFree) {
  device_.begin_session_status = kGpaStatusErrorFailed;
  context_ = OpenContext();
  GpaSessionId session = CreateSession(context_);
  ASSERT_EQ(GpaEnableCounterByName(session, "FakeTotalWork"), kGpaStatusOk);
  EXPECT_EQ(GpaBeginSession(session), kGpaStatusErrorFailed);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("could not begin a session"));
  EXPECT_EQ(device_.sessions_alive.load(), 0);
  device_.begin_session_status = kGpaStatusOk;
  EXPECT_EQ(GpaBeginSession(session), kGpaStatusOk) << "neither this session nor another is blocked";
}

TEST_F(BackendFailureTest, EndSessionFailureKeepsTheSessionBegun) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  RecordAllPasses(session, {0});
  device_.end_session_status = kGpaStatusErrorFailed;
  EXPECT_EQ(GpaEndSession(session), kGpaStatusErrorFailed);
  GpaUInt64 value = 0;
  EXPECT_EQ(GpaGetSampleResult(session, 0, sizeof value, &value), kGpaStatusErrorSessionNotEnded);
  device_.end_session_status = kGpaStatusOk;
  EXPECT_EQ(GpaEndSession(session), kGpaStatusOk);
}

TEST_F(BackendFailureTest, CommandListFailuresAreReturned) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  device_.command_list_status = kGpaStatusErrorFailed;
  GpaCommandListId list = nullptr;
  EXPECT_EQ(GpaBeginCommandList(session, 0, nullptr, kGpaCommandListNone, &list), kGpaStatusErrorFailed);
  EXPECT_EQ(list, nullptr);
  device_.command_list_status = kGpaStatusOk;
  ASSERT_EQ(GpaBeginCommandList(session, 0, nullptr, kGpaCommandListNone, &list), kGpaStatusOk);
  device_.command_list_status = kGpaStatusErrorFailed;
  EXPECT_EQ(GpaEndCommandList(list), kGpaStatusErrorFailed);
  EXPECT_EQ(GpaEndSession(session), kGpaStatusErrorCommandListNotEnded) << "the list is still open";
}

TEST_F(BackendFailureTest, SampleFailuresAreReturnedAndRecordNothing) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 0, nullptr, kGpaCommandListNone, &list), kGpaStatusOk);
  device_.sample_status = kGpaStatusErrorFailed;
  EXPECT_EQ(GpaBeginSample(4, list), kGpaStatusErrorFailed);
  device_.sample_status = kGpaStatusOk;
  ASSERT_EQ(GpaBeginSample(5, list), kGpaStatusOk);
  device_.sample_status = kGpaStatusErrorFailed;
  EXPECT_EQ(GpaEndSample(list), kGpaStatusErrorFailed);
  device_.sample_status = kGpaStatusOk;
  ASSERT_EQ(GpaEndSample(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  GpaUInt32 count = 0, id = 0;
  ASSERT_EQ(GpaGetSampleCount(session, &count), kGpaStatusOk);
  EXPECT_EQ(count, 1u) << "the failed sample 4 does not exist";
  ASSERT_EQ(GpaGetSampleId(session, 0, &id), kGpaStatusOk);
  EXPECT_EQ(id, 5u);
  // Slot 0 is sample 5's: the failed begin did not take a slot.
  EXPECT_EQ(Results(session, 5), std::vector<GpaUInt64>{static_cast<GpaUInt64>(fake::FakeHardwareValue(0, 0) +
                                                                               fake::FakeHardwareValue(1, 0))});
}

TEST_F(BackendFailureTest, ContinuingAnEndedSampleFails) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  int api_lists[2];
  GpaCommandListId first = nullptr, second = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 0, &api_lists[0], kGpaCommandListPrimary, &first), kGpaStatusOk);
  ASSERT_EQ(GpaBeginSample(1, first), kGpaStatusOk);
  ASSERT_EQ(GpaEndSample(first), kGpaStatusOk);
  ASSERT_EQ(GpaBeginCommandList(session, 0, &api_lists[1], kGpaCommandListPrimary, &second), kGpaStatusOk);
  EXPECT_EQ(GpaContinueSampleOnCommandList(1, second), kGpaStatusErrorFailed);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("already ended"));
}

TEST_F(BackendFailureTest, ABackendExceptionBecomesTheExceptionStatus) {
  device_.throw_in_open = true;
  GpaContextId context = nullptr;
  EXPECT_EQ(GpaOpenContext(&device_, 0, &context), kGpaStatusErrorException);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("fake device exploded"));
  device_.throw_in_open = false;
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  device_.throw_in_samples = true;
  EXPECT_EQ(GpaBeginSample(0, list), kGpaStatusErrorException);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("GpaBeginSample"));
  device_.throw_in_samples = false;
  EXPECT_EQ(GpaBeginSample(0, list), kGpaStatusOk) << "the failed call left no half-made sample";
}

}  // namespace
}  // namespace opengpa::testing
