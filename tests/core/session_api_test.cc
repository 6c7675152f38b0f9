// Sessions and counter scheduling: GpaCreateSession ... GpaIsCounterEnabled.
#include <climits>
#include <string>

#include "tests/core/c_enum_callers.h"
#include "tests/core/gpa_api_test_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

using SessionTest = GpaApiTest;

TEST_F(SessionTest, CreateRejectsNullArgumentsAndUnknownContexts) {
  GpaContextId context = OpenContext();
  GpaSessionId session = nullptr;
  EXPECT_EQ(GpaCreateSession(nullptr, kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("session_id"));
  EXPECT_EQ(GpaCreateSession(GarbageId<GpaContextId>(), kGpaSessionSampleTypeDiscreteCounter, &session),
            kGpaStatusErrorContextNotFound);
}

TEST_F(SessionTest, CreateRejectsAnInvalidSampleType) {
  GpaSessionId session = nullptr;
  EXPECT_EQ(GpaCreateSession(OpenContext(), kGpaSessionSampleTypeLast, &session), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("sample_type 1"));
}

TEST_F(SessionTest, CreateRejectsSampleTypesOutsideTheEnumFromC) {
  GpaContextId context = OpenContext();
  for (int bad : {-1, 1000, INT_MIN, INT_MAX}) {
    GpaSessionId session = nullptr;
    EXPECT_EQ(CallCreateSession(context, bad, &session), kGpaStatusErrorInvalidParameter) << bad;
    EXPECT_THAT(ErrorLog::Last(), HasSubstr("sample_type " + std::to_string(bad) + " is not"));
  }
}

TEST_F(SessionTest, CreateRejectsASampleTypeTheContextDoesNotSupport) {
  GpaSessionId session = nullptr;
  EXPECT_EQ(GpaCreateSession(OpenContext(), kGpaSessionSampleTypeSqtt, &session),
            kGpaStatusErrorIncompatibleSampleTypes);
}

TEST_F(SessionTest, DeleteRejectsNullAndUnknownAndAlreadyDeletedSessions) {
  GpaSessionId session = CreateSession(OpenContext());
  EXPECT_EQ(GpaDeleteSession(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaDeleteSession(GarbageId<GpaSessionId>()), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaDeleteSession(session), kGpaStatusOk);
  EXPECT_EQ(GpaDeleteSession(session), kGpaStatusErrorSessionNotFound);
}

TEST_F(SessionTest, DeleteReleasesTheBackendSessionAndItsCommandLists) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  EXPECT_EQ(device_.sessions_alive.load(), 1);
  EXPECT_EQ(device_.command_lists_alive.load(), 1);
  ASSERT_EQ(GpaDeleteSession(session), kGpaStatusOk);
  EXPECT_EQ(device_.sessions_alive.load(), 0);
  EXPECT_EQ(device_.command_lists_alive.load(), 0);
  EXPECT_EQ(GpaBeginSample(0, list), kGpaStatusErrorCommandListNotFound);
}

TEST_F(SessionTest, BeginRejectsNullAndUnknownSessions) {
  EXPECT_EQ(GpaBeginSession(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaBeginSession(GarbageId<GpaSessionId>()), kGpaStatusErrorSessionNotFound);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("session_id 0xdeadbeefcafe"));
}

TEST_F(SessionTest, BeginWithoutCountersReportsNoCountersEnabled) {
  GpaSessionId session = CreateSession(OpenContext());
  EXPECT_EQ(GpaBeginSession(session), kGpaStatusErrorNoCountersEnabled);
}

TEST_F(SessionTest, BeginTwiceReportsAlreadyStarted) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  EXPECT_EQ(GpaBeginSession(session), kGpaStatusErrorSessionAlreadyStarted);
}

TEST_F(SessionTest, OnlyOneSessionPerContextMayBeActive) {
  GpaSessionId first = BegunSession({"FakeTotalWork"});
  GpaSessionId second = CreateSession(context_);
  ASSERT_EQ(GpaEnableCounterByName(second, "FakeTotalWork"), kGpaStatusOk);
  EXPECT_EQ(GpaBeginSession(second), kGpaStatusErrorOtherSessionActive);
  RecordAllPasses(first, {0});
  ASSERT_EQ(GpaEndSession(first), kGpaStatusOk);
  EXPECT_EQ(GpaBeginSession(second), kGpaStatusOk);
}

TEST_F(SessionTest, DeletingTheActiveSessionLetsAnotherBegin) {
  GpaSessionId first = BegunSession({"FakeTotalWork"});
  GpaSessionId second = CreateSession(context_);
  ASSERT_EQ(GpaEnableCounterByName(second, "FakeTotalWork"), kGpaStatusOk);
  ASSERT_EQ(GpaDeleteSession(first), kGpaStatusOk);
  EXPECT_EQ(GpaBeginSession(second), kGpaStatusOk);
}

TEST_F(SessionTest, EndRejectsNullUnknownAndNotBegunSessions) {
  GpaSessionId session = CreateSession(OpenContext());
  EXPECT_EQ(GpaEndSession(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaEndSession(GarbageId<GpaSessionId>()), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaEndSession(session), kGpaStatusErrorSessionNotStarted);
}

TEST_F(SessionTest, EndTwiceReportsNotStarted) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  RecordAllPasses(session, {0});
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  EXPECT_EQ(GpaEndSession(session), kGpaStatusErrorSessionNotStarted);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("already ended"));
}

TEST_F(SessionTest, EndWithAnOpenCommandListReportsCommandListNotEnded) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  EXPECT_EQ(GpaEndSession(session), kGpaStatusErrorCommandListNotEnded);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  EXPECT_EQ(GpaEndSession(session), kGpaStatusOk);
}

TEST_F(SessionTest, EndBeforeEveryPassWasRecordedReportsNotEnoughPasses) {
  device_.block_limit = 1;
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  ASSERT_EQ(PassCount(session), 2u);
  RecordPass(session, 0, {0, 1});
  EXPECT_EQ(GpaEndSession(session), kGpaStatusErrorNotEnoughPasses);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("pass 1"));
  RecordPass(session, 1, {0, 1});
  EXPECT_EQ(GpaEndSession(session), kGpaStatusOk);
}

TEST_F(SessionTest, EndWithDifferentSamplesPerPassReportsVariableNumberOfSamples) {
  device_.block_limit = 1;
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  RecordPass(session, 0, {0, 1, 2});
  RecordPass(session, 1, {0, 2});
  EXPECT_EQ(GpaEndSession(session), kGpaStatusErrorVariableNumberOfSamplesInPasses);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("sample_id 1"));
}

TEST_F(SessionTest, EndWithTheSameCountButDifferentIdsPerPassIsAlsoRejected) {
  device_.block_limit = 1;
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  RecordPass(session, 0, {0, 1});
  RecordPass(session, 1, {0, 7});
  EXPECT_EQ(GpaEndSession(session), kGpaStatusErrorVariableNumberOfSamplesInPasses);
}

TEST_F(SessionTest, EndWithASampleNeverEndedReportsSampleNotEnded) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  GpaCommandListId list = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  ASSERT_EQ(GpaBeginSample(3, list), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  EXPECT_EQ(GpaEndSession(session), kGpaStatusErrorSampleNotEnded);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("sample_id 3"));
}

// ---- Enabling counters ----

TEST_F(SessionTest, EnabledCountersAreReportedInEnableOrder) {
  GpaContextId context = OpenContext();
  GpaSessionId session = CreateSession(context);
  const GpaUInt32 a = CounterIndex(context, "FakeTimeMs");
  const GpaUInt32 b = CounterIndex(context, "FakeTotalWork");
  ASSERT_EQ(GpaEnableCounter(session, a), kGpaStatusOk);
  ASSERT_EQ(GpaEnableCounter(session, b), kGpaStatusOk);
  GpaUInt32 count = 0, index = 0;
  ASSERT_EQ(GpaGetNumEnabledCounters(session, &count), kGpaStatusOk);
  EXPECT_EQ(count, 2u);
  ASSERT_EQ(GpaGetEnabledIndex(session, 0, &index), kGpaStatusOk);
  EXPECT_EQ(index, a);
  ASSERT_EQ(GpaGetEnabledIndex(session, 1, &index), kGpaStatusOk);
  EXPECT_EQ(index, b);
  EXPECT_EQ(GpaGetEnabledIndex(session, 2, &index), kGpaStatusErrorIndexOutOfRange);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("enabled_number 2"));
  EXPECT_EQ(GpaIsCounterEnabled(session, a), kGpaStatusOk);
  EXPECT_EQ(GpaIsCounterEnabled(session, CounterIndex(context, "FakeBusyPercent")), kGpaStatusErrorCounterNotFound);
  EXPECT_EQ(GpaIsCounterEnabled(session, 1000), kGpaStatusErrorIndexOutOfRange);
}

TEST_F(SessionTest, EnableRejectsOutOfRangeAndAlreadyEnabledCounters) {
  GpaSessionId session = CreateSession(OpenContext());
  EXPECT_EQ(GpaEnableCounter(session, 1000), kGpaStatusErrorIndexOutOfRange);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("index 1000"));
  ASSERT_EQ(GpaEnableCounter(session, 0), kGpaStatusOk);
  EXPECT_EQ(GpaEnableCounter(session, 0), kGpaStatusErrorAlreadyEnabled);
  EXPECT_EQ(GpaEnableCounterByName(session, "FAKETOTALWORK"), kGpaStatusErrorAlreadyEnabled);
}

TEST_F(SessionTest, DisableRejectsOutOfRangeAndNotEnabledCounters) {
  GpaSessionId session = CreateSession(OpenContext());
  EXPECT_EQ(GpaDisableCounter(session, 1000), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(GpaDisableCounter(session, 0), kGpaStatusErrorNotEnabled);
  EXPECT_EQ(GpaDisableCounterByName(session, "FakeTotalWork"), kGpaStatusErrorNotEnabled);
  ASSERT_EQ(GpaEnableCounter(session, 0), kGpaStatusOk);
  EXPECT_EQ(GpaDisableCounter(session, 0), kGpaStatusOk);
  EXPECT_EQ(GpaIsCounterEnabled(session, 0), kGpaStatusErrorCounterNotFound);
}

TEST_F(SessionTest, UnknownCounterNamesAreNotFound) {
  GpaSessionId session = CreateSession(OpenContext());
  EXPECT_EQ(GpaEnableCounterByName(session, "NoSuchCounter"), kGpaStatusErrorCounterNotFound);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("'NoSuchCounter'"));
  EXPECT_EQ(GpaDisableCounterByName(session, "NoSuchCounter"), kGpaStatusErrorCounterNotFound);
  EXPECT_EQ(GpaEnableCounterByName(session, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaDisableCounterByName(session, nullptr), kGpaStatusErrorNullPointer);
}

TEST_F(SessionTest, CountersCannotChangeOnceTheSessionHasBegun) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  EXPECT_EQ(GpaEnableCounter(session, 1), kGpaStatusErrorCannotChangeCountersWhenSampling);
  EXPECT_EQ(GpaDisableCounter(session, 0), kGpaStatusErrorCannotChangeCountersWhenSampling);
  EXPECT_EQ(GpaEnableCounterByName(session, "FakeTimeMs"), kGpaStatusErrorCannotChangeCountersWhenSampling);
  EXPECT_EQ(GpaDisableCounterByName(session, "FakeTotalWork"), kGpaStatusErrorCannotChangeCountersWhenSampling);
  EXPECT_EQ(GpaEnableAllCounters(session), kGpaStatusErrorCannotChangeCountersWhenSampling);
  EXPECT_EQ(GpaDisableAllCounters(session), kGpaStatusErrorCannotChangeCountersWhenSampling);
}

TEST_F(SessionTest, SessionsWithoutCounterSamplingCannotEnableCounters) {
  device_.sample_types = kGpaContextSampleTypeDiscreteCounter | kGpaContextSampleTypeSqtt;
  GpaSessionId session = nullptr;
  ASSERT_EQ(GpaCreateSession(OpenContext(), kGpaSessionSampleTypeSqtt, &session), kGpaStatusOk);
  EXPECT_EQ(GpaEnableCounter(session, 0), kGpaStatusErrorIncompatibleSampleTypes);
  EXPECT_EQ(GpaEnableCounterByName(session, "FakeTotalWork"), kGpaStatusErrorIncompatibleSampleTypes);
  EXPECT_EQ(GpaEnableAllCounters(session), kGpaStatusErrorIncompatibleSampleTypes);
}

TEST_F(SessionTest, EnableAllThenDisableAll) {
  GpaContextId context = OpenContext();
  GpaSessionId session = CreateSession(context);
  ASSERT_EQ(GpaEnableCounter(session, 3), kGpaStatusOk);
  ASSERT_EQ(GpaEnableAllCounters(session), kGpaStatusOk);
  GpaUInt32 enabled = 0, total = 0, first = 0;
  ASSERT_EQ(GpaGetNumEnabledCounters(session, &enabled), kGpaStatusOk);
  ASSERT_EQ(GpaGetNumCounters(context, &total), kGpaStatusOk);
  EXPECT_EQ(enabled, total);
  ASSERT_EQ(GpaGetEnabledIndex(session, 0, &first), kGpaStatusOk);
  EXPECT_EQ(first, 3u) << "the counter enabled first stays first";
  ASSERT_EQ(GpaDisableAllCounters(session), kGpaStatusOk);
  ASSERT_EQ(GpaGetNumEnabledCounters(session, &enabled), kGpaStatusOk);
  EXPECT_EQ(enabled, 0u);
}

TEST_F(SessionTest, PassCountFollowsTheBackendsBlockLimits) {
  device_.block_limit = 1;
  GpaContextId context = OpenContext();
  GpaSessionId session = CreateSession(context);
  EXPECT_EQ(PassCount(session), 0u) << "no counters enabled";
  ASSERT_EQ(GpaEnableCounterByName(session, "FakeTimeMs"), kGpaStatusOk);
  EXPECT_EQ(PassCount(session), 1u);
  ASSERT_EQ(GpaEnableCounterByName(session, "FakeTotalWork"), kGpaStatusOk);  // two block-0 counters
  EXPECT_EQ(PassCount(session), 2u);
  ASSERT_EQ(GpaBeginSession(session), kGpaStatusOk);
  EXPECT_EQ(PassCount(session), 2u);
}

TEST_F(SessionTest, SchedulingQueriesRejectNullAndUnknownSessions) {
  GpaSessionId garbage = GarbageId<GpaSessionId>();
  GpaSessionId session = CreateSession(OpenContext());
  GpaUInt32 u = 0;
  EXPECT_EQ(GpaGetPassCount(nullptr, &u), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetPassCount(session, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetPassCount(garbage, &u), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaGetNumEnabledCounters(nullptr, &u), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetNumEnabledCounters(session, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetNumEnabledCounters(garbage, &u), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaGetEnabledIndex(nullptr, 0, &u), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetEnabledIndex(session, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetEnabledIndex(garbage, 0, &u), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaIsCounterEnabled(nullptr, 0), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaIsCounterEnabled(garbage, 0), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaEnableCounter(nullptr, 0), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaEnableCounter(garbage, 0), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaDisableCounter(nullptr, 0), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaDisableCounter(garbage, 0), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaEnableCounterByName(nullptr, "FakeTotalWork"), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaEnableCounterByName(garbage, "FakeTotalWork"), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaDisableCounterByName(nullptr, "FakeTotalWork"), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaDisableCounterByName(garbage, "FakeTotalWork"), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaEnableAllCounters(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaEnableAllCounters(garbage), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaDisableAllCounters(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaDisableAllCounters(garbage), kGpaStatusErrorSessionNotFound);
}

TEST_F(SessionTest, AContextIdIsNotASessionId) {
  GpaContextId context = OpenContext();
  EXPECT_EQ(GpaBeginSession(reinterpret_cast<GpaSessionId>(context)), kGpaStatusErrorSessionNotFound);
}

}  // namespace
}  // namespace opengpa::testing
