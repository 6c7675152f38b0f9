// Command lists and samples: GpaBeginCommandList ... GpaGetSampleId.
#include <climits>
#include <string>

#include "tests/core/c_enum_callers.h"
#include "tests/core/gpa_api_test_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

class SamplingTest : public GpaApiTest {
 protected:
  GpaCommandListId BeginList(GpaSessionId session, GpaUInt32 pass, void* api_list, GpaCommandListType type) {
    GpaCommandListId list = nullptr;
    EXPECT_EQ(GpaBeginCommandList(session, pass, api_list, type, &list), kGpaStatusOk) << ErrorLog::Last();
    return list;
  }
  GpaUInt64 TotalWork(GpaUInt32 slot) {
    return static_cast<GpaUInt64>(fake::FakeHardwareValue(0, slot) + fake::FakeHardwareValue(1, slot));
  }
  int api_lists_[8] = {};  // stand-ins for application command buffers
};

TEST_F(SamplingTest, BeginCommandListRejectsNullArguments) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = nullptr;
  EXPECT_EQ(GpaBeginCommandList(nullptr, 0, nullptr, kGpaCommandListNone, &list), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaBeginCommandList(session, 0, nullptr, kGpaCommandListPrimary, &list), kGpaStatusErrorNullPointer);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("command_list is NULL"));
  EXPECT_EQ(GpaBeginCommandList(session, 0, nullptr, kGpaCommandListNone, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("command_list_id"));
}

TEST_F(SamplingTest, BeginCommandListRejectsUnknownSessions) {
  GpaCommandListId list = nullptr;
  EXPECT_EQ(GpaBeginCommandList(GarbageId<GpaSessionId>(), 0, nullptr, kGpaCommandListNone, &list),
            kGpaStatusErrorSessionNotFound);
}

TEST_F(SamplingTest, BeginCommandListRejectsInvalidTypes) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = nullptr;
  EXPECT_EQ(GpaBeginCommandList(session, 0, &api_lists_[0], kGpaCommandListLast, &list),
            kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("command_list_type 3"));
  EXPECT_EQ(GpaBeginCommandList(session, 0, &api_lists_[0], kGpaCommandListNone, &list),
            kGpaStatusErrorInvalidParameter);
}

TEST_F(SamplingTest, BeginCommandListRejectsTypesOutsideTheEnumFromC) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  for (int bad : {-1, 1000, INT_MIN, INT_MAX}) {
    GpaCommandListId list = nullptr;
    EXPECT_EQ(CallBeginCommandList(session, 0, &api_lists_[0], bad, &list), kGpaStatusErrorInvalidParameter) << bad;
    EXPECT_THAT(ErrorLog::Last(), HasSubstr("command_list_type " + std::to_string(bad) + " is not"));
    EXPECT_EQ(CallBeginCommandList(session, 0, nullptr, bad, &list), kGpaStatusErrorNullPointer) << bad;
  }
}

TEST_F(SamplingTest, BeginCommandListNeedsABegunSession) {
  GpaSessionId session = CreateSession(OpenContext());
  ASSERT_EQ(GpaEnableCounter(session, 0), kGpaStatusOk);
  GpaCommandListId list = nullptr;
  EXPECT_EQ(GpaBeginCommandList(session, 0, nullptr, kGpaCommandListNone, &list), kGpaStatusErrorSessionNotStarted);
  ASSERT_EQ(GpaBeginSession(session), kGpaStatusOk);
  RecordAllPasses(session, {1});
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  EXPECT_EQ(GpaBeginCommandList(session, 0, nullptr, kGpaCommandListNone, &list), kGpaStatusErrorSessionNotStarted);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("already ended"));
}

TEST_F(SamplingTest, BeginCommandListRejectsAPassBeyondThePassCount) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = nullptr;
  EXPECT_EQ(GpaBeginCommandList(session, 1, nullptr, kGpaCommandListNone, &list), kGpaStatusErrorIndexOutOfRange);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("pass_index 1"));
}

TEST_F(SamplingTest, BeginningTheSameCommandListTwiceInAPassReportsAlreadyStarted) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId first = BeginList(session, 0, &api_lists_[0], kGpaCommandListPrimary);
  GpaCommandListId second = nullptr;
  EXPECT_EQ(GpaBeginCommandList(session, 0, &api_lists_[0], kGpaCommandListPrimary, &second),
            kGpaStatusErrorCommandListAlreadyStarted);
  EXPECT_EQ(GpaBeginCommandList(session, 0, &api_lists_[1], kGpaCommandListPrimary, &second), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(first), kGpaStatusOk);
  EXPECT_EQ(GpaBeginCommandList(session, 0, &api_lists_[0], kGpaCommandListPrimary, &second), kGpaStatusOk)
      << "a re-recorded command buffer";
}

TEST_F(SamplingTest, EndCommandListRejectsNullUnknownAndEndedLists) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = BeginList(session, 0, nullptr, kGpaCommandListNone);
  EXPECT_EQ(GpaEndCommandList(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaEndCommandList(GarbageId<GpaCommandListId>()), kGpaStatusErrorCommandListNotFound);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("command_list_id 0xdeadbeefcafe"));
  EXPECT_EQ(GpaEndCommandList(reinterpret_cast<GpaCommandListId>(session)), kGpaStatusErrorCommandListNotFound);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  EXPECT_EQ(GpaEndCommandList(list), kGpaStatusErrorCommandListAlreadyEnded);
}

TEST_F(SamplingTest, BeginSampleRejectsNullUnknownAndEndedLists) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = BeginList(session, 0, nullptr, kGpaCommandListNone);
  EXPECT_EQ(GpaBeginSample(0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaBeginSample(0, GarbageId<GpaCommandListId>()), kGpaStatusErrorCommandListNotFound);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  EXPECT_EQ(GpaBeginSample(0, list), kGpaStatusErrorCommandListAlreadyEnded);
}

TEST_F(SamplingTest, SamplesDoNotNest) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = BeginList(session, 0, nullptr, kGpaCommandListNone);
  ASSERT_EQ(GpaBeginSample(0, list), kGpaStatusOk);
  EXPECT_EQ(GpaBeginSample(1, list), kGpaStatusErrorSampleAlreadyStarted);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("sample_id 1"));
}

TEST_F(SamplingTest, ASampleIdIsUsedOncePerPass) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = BeginList(session, 0, nullptr, kGpaCommandListNone);
  ASSERT_EQ(GpaBeginSample(5, list), kGpaStatusOk);
  ASSERT_EQ(GpaEndSample(list), kGpaStatusOk);
  EXPECT_EQ(GpaBeginSample(5, list), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("sample_id 5 is already used in pass 0"));
}

TEST_F(SamplingTest, EndSampleRejectsNullUnknownListsAndListsWithoutAnOpenSample) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = BeginList(session, 0, nullptr, kGpaCommandListNone);
  EXPECT_EQ(GpaEndSample(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaEndSample(GarbageId<GpaCommandListId>()), kGpaStatusErrorCommandListNotFound);
  EXPECT_EQ(GpaEndSample(list), kGpaStatusErrorSampleNotStarted);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  EXPECT_EQ(GpaEndSample(list), kGpaStatusErrorCommandListAlreadyEnded);
}

TEST_F(SamplingTest, SampleCountAndIdsFollowFirstUse) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaUInt32 u = 0;
  EXPECT_EQ(GpaGetSampleCount(session, &u), kGpaStatusErrorSessionNotEnded);
  RecordAllPasses(session, {30, 10, 20});
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  ASSERT_EQ(GpaGetSampleCount(session, &u), kGpaStatusOk);
  EXPECT_EQ(u, 3u);
  std::vector<GpaUInt32> ids(3);
  for (GpaUInt32 i = 0; i < 3; ++i) ASSERT_EQ(GpaGetSampleId(session, i, &ids[i]), kGpaStatusOk);
  EXPECT_EQ(ids, (std::vector<GpaUInt32>{30, 10, 20}));
  EXPECT_EQ(GpaGetSampleId(session, 3, &u), kGpaStatusErrorSampleNotFound);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("index 3"));
}

TEST_F(SamplingTest, SampleCountAndIdRejectBadArguments) {
  GpaSessionId session = CreateSession(OpenContext());
  GpaUInt32 u = 0;
  EXPECT_EQ(GpaGetSampleCount(nullptr, &u), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetSampleCount(session, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetSampleCount(GarbageId<GpaSessionId>(), &u), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaGetSampleId(nullptr, 0, &u), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetSampleId(session, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetSampleId(GarbageId<GpaSessionId>(), 0, &u), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaGetSampleId(session, 0, &u), kGpaStatusErrorSessionNotStarted);
}

// ---- Samples spanning command lists ----

TEST_F(SamplingTest, ASampleContinuedOnAnotherPrimaryListIsOneSample) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId first = BeginList(session, 0, &api_lists_[0], kGpaCommandListPrimary);
  ASSERT_EQ(GpaBeginSample(9, first), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(first), kGpaStatusOk);
  GpaCommandListId second = BeginList(session, 0, &api_lists_[1], kGpaCommandListPrimary);
  ASSERT_EQ(GpaContinueSampleOnCommandList(9, second), kGpaStatusOk) << ErrorLog::Last();
  ASSERT_EQ(GpaEndSample(second), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(second), kGpaStatusOk);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk) << ErrorLog::Last();
  EXPECT_EQ(Results(session, 9), std::vector<GpaUInt64>{TotalWork(0)});
}

TEST_F(SamplingTest, ContinueRejectsNullUnknownListsAndUnknownSamples) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = BeginList(session, 0, &api_lists_[0], kGpaCommandListPrimary);
  EXPECT_EQ(GpaContinueSampleOnCommandList(0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("primary_command_list_id"));
  EXPECT_EQ(GpaContinueSampleOnCommandList(0, GarbageId<GpaCommandListId>()), kGpaStatusErrorCommandListNotFound);
  EXPECT_EQ(GpaContinueSampleOnCommandList(77, list), kGpaStatusErrorSampleNotFound);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("src_sample_id 77"));
}

TEST_F(SamplingTest, ContinueIsNotSupportedWithoutCommandLists) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = BeginList(session, 0, nullptr, kGpaCommandListNone);
  ASSERT_EQ(GpaBeginSample(0, list), kGpaStatusOk);
  EXPECT_EQ(GpaContinueSampleOnCommandList(0, list), kGpaStatusErrorApiNotSupported);
}

TEST_F(SamplingTest, ContinueIsNotSupportedWhenTheBackendSaysSo) {
  device_.supports_continue = false;
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId first = BeginList(session, 0, &api_lists_[0], kGpaCommandListPrimary);
  ASSERT_EQ(GpaBeginSample(0, first), kGpaStatusOk);
  GpaCommandListId second = BeginList(session, 0, &api_lists_[1], kGpaCommandListPrimary);
  EXPECT_EQ(GpaContinueSampleOnCommandList(0, second), kGpaStatusErrorApiNotSupported);
  EXPECT_EQ(GpaEndSample(first), kGpaStatusOk) << "the sample stays on its first list";
}

TEST_F(SamplingTest, ContinueOntoASecondaryListIsInvalid) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId first = BeginList(session, 0, &api_lists_[0], kGpaCommandListPrimary);
  ASSERT_EQ(GpaBeginSample(0, first), kGpaStatusOk);
  GpaCommandListId secondary = BeginList(session, 0, &api_lists_[1], kGpaCommandListSecondary);
  EXPECT_EQ(GpaContinueSampleOnCommandList(0, secondary), kGpaStatusErrorInvalidParameter);
}

// ---- Secondary command lists ----

class SecondarySamplesTest : public SamplingTest {
 protected:
  // Pass 0: primary sample 1; secondary samples 100, 101 copied to the primary as 200, 201.
  void RecordWithSecondary(GpaSessionId session, GpaUInt32 pass) {
    GpaCommandListId primary = BeginList(session, pass, &api_lists_[0], kGpaCommandListPrimary);
    GpaCommandListId secondary = BeginList(session, pass, &api_lists_[1], kGpaCommandListSecondary);
    ASSERT_EQ(GpaBeginSample(1, primary), kGpaStatusOk);
    ASSERT_EQ(GpaEndSample(primary), kGpaStatusOk);
    for (GpaUInt32 id : {100u, 101u}) {
      ASSERT_EQ(GpaBeginSample(id, secondary), kGpaStatusOk);
      ASSERT_EQ(GpaEndSample(secondary), kGpaStatusOk);
    }
    ASSERT_EQ(GpaEndCommandList(secondary), kGpaStatusOk);
    GpaUInt32 new_ids[] = {200, 201};
    ASSERT_EQ(GpaCopySecondarySamples(secondary, primary, 2, new_ids), kGpaStatusOk) << ErrorLog::Last();
    ASSERT_EQ(GpaEndCommandList(primary), kGpaStatusOk);
  }
};

TEST_F(SecondarySamplesTest, CopiedSamplesCarryTheSecondarySamplesValues) {
  device_.block_limit = 1;  // two passes: the copy must be repeated and is checked per pass
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  ASSERT_EQ(PassCount(session), 2u);
  RecordWithSecondary(session, 0);
  RecordWithSecondary(session, 1);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk) << ErrorLog::Last();
  // Slots in order of first use: 1 -> 0, 100 -> 1, 101 -> 2, 200 -> 3, 201 -> 4.
  EXPECT_EQ(Results(session, 1), std::vector<GpaUInt64>{TotalWork(0)});
  EXPECT_EQ(Results(session, 200), std::vector<GpaUInt64>{TotalWork(1)});
  EXPECT_EQ(Results(session, 201), std::vector<GpaUInt64>{TotalWork(2)});
}

TEST_F(SecondarySamplesTest, ReadingASecondarySampleDirectlyIsAnError) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  RecordWithSecondary(session, 0);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  GpaUInt64 value = 0;
  EXPECT_EQ(GpaGetSampleResult(session, 100, sizeof value, &value), kGpaStatusErrorSampleInSecondaryCommandList);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("sample_id 100"));
}

TEST_F(SecondarySamplesTest, CopyRejectsNullAndUnknownLists) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId primary = BeginList(session, 0, &api_lists_[0], kGpaCommandListPrimary);
  GpaUInt32 ids[1] = {0};
  EXPECT_EQ(GpaCopySecondarySamples(nullptr, primary, 1, ids), kGpaStatusErrorNullPointer);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("secondary_command_list_id"));
  EXPECT_EQ(GpaCopySecondarySamples(primary, nullptr, 1, ids), kGpaStatusErrorNullPointer);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("primary_command_list_id"));
  EXPECT_EQ(GpaCopySecondarySamples(primary, primary, 1, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaCopySecondarySamples(GarbageId<GpaCommandListId>(), primary, 1, ids),
            kGpaStatusErrorCommandListNotFound);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("secondary_command_list_id"));
  EXPECT_EQ(GpaCopySecondarySamples(primary, GarbageId<GpaCommandListId>(), 1, ids),
            kGpaStatusErrorCommandListNotFound);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("primary_command_list_id"));
}

TEST_F(SecondarySamplesTest, CopyIsNotSupportedWithoutCommandLists) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId a = BeginList(session, 0, nullptr, kGpaCommandListNone);
  GpaUInt32 ids[1] = {0};
  EXPECT_EQ(GpaCopySecondarySamples(a, a, 0, ids), kGpaStatusErrorApiNotSupported);
}

TEST_F(SecondarySamplesTest, CopyIsNotSupportedWhenTheBackendSaysSo) {
  device_.supports_secondary = false;
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId primary = BeginList(session, 0, &api_lists_[0], kGpaCommandListPrimary);
  GpaCommandListId secondary = BeginList(session, 0, &api_lists_[1], kGpaCommandListSecondary);
  ASSERT_EQ(GpaBeginSample(100, secondary), kGpaStatusOk);
  ASSERT_EQ(GpaEndSample(secondary), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(secondary), kGpaStatusOk);
  GpaUInt32 ids[1] = {200};
  EXPECT_EQ(GpaCopySecondarySamples(secondary, primary, 1, ids), kGpaStatusErrorApiNotSupported);
}

TEST_F(SecondarySamplesTest, CopyChecksListTypesStateCountsAndNewIds) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId primary = BeginList(session, 0, &api_lists_[0], kGpaCommandListPrimary);
  GpaCommandListId secondary = BeginList(session, 0, &api_lists_[1], kGpaCommandListSecondary);
  ASSERT_EQ(GpaBeginSample(1, primary), kGpaStatusOk);
  ASSERT_EQ(GpaEndSample(primary), kGpaStatusOk);
  ASSERT_EQ(GpaBeginSample(100, secondary), kGpaStatusOk);
  ASSERT_EQ(GpaEndSample(secondary), kGpaStatusOk);
  GpaUInt32 one[1] = {200};
  EXPECT_EQ(GpaCopySecondarySamples(secondary, primary, 1, one), kGpaStatusErrorCommandListNotEnded);
  ASSERT_EQ(GpaEndCommandList(secondary), kGpaStatusOk);
  EXPECT_EQ(GpaCopySecondarySamples(primary, secondary, 1, one), kGpaStatusErrorInvalidParameter);
  GpaUInt32 two[2] = {200, 201};
  EXPECT_EQ(GpaCopySecondarySamples(secondary, primary, 2, two), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("num_samples 2"));
  GpaUInt32 taken[1] = {1};
  EXPECT_EQ(GpaCopySecondarySamples(secondary, primary, 1, taken), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("new_sample_ids[0] = 1"));
  EXPECT_EQ(GpaCopySecondarySamples(secondary, primary, 1, one), kGpaStatusOk);
}

}  // namespace
}  // namespace opengpa::testing
