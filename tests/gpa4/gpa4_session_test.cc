// GPA 4's session entry points through the v4 table: counter queries by session, GpaCreateSession's sample
// types, GpaResetSession, GpaAbortSession, and the SQTT and SPM calls, which no session of this library serves.
#include <climits>
#include <cstring>
#include <string>

#include "tests/gpa4/c_enum_callers.h"
#include "tests/gpa4/gpa4_fixture.h"

namespace opengpa::gpa4_test {
namespace {

TEST_F(Gpa4Test, CounterQueriesTakeTheSessionAndAnswerForItsContextsCounters) {
  GpaUInt32 count = 0;
  ASSERT_EQ(gpa_->GpaGetNumCounters(session_, &count), kGpaStatusOk);
  ASSERT_GT(count, 0u);
  for (GpaUInt32 i = 0; i < count; ++i) {
    const char* name = nullptr;
    const char* group = nullptr;
    const char* description = nullptr;
    GpaDataType data_type = kGpaDataTypeLast;
    GpaUsageType usage = kGpaUsageTypeLast;
    GpaUInt32 index = count;
    ASSERT_EQ(gpa_->GpaGetCounterName(session_, i, &name), kGpaStatusOk);
    ASSERT_EQ(gpa_->GpaGetCounterIndex(session_, name, &index), kGpaStatusOk);
    EXPECT_EQ(index, i) << name;
    EXPECT_EQ(gpa_->GpaGetCounterGroup(session_, i, &group), kGpaStatusOk);
    EXPECT_EQ(gpa_->GpaGetCounterDescription(session_, i, &description), kGpaStatusOk);
    EXPECT_EQ(gpa_->GpaGetCounterDataType(session_, i, &data_type), kGpaStatusOk);
    EXPECT_LT(data_type, kGpaDataTypeLast);
    EXPECT_EQ(gpa_->GpaGetCounterUsageType(session_, i, &usage), kGpaStatusOk);
    EXPECT_LT(usage, kGpaUsageTypeLast);
  }
}

TEST_F(Gpa4Test, CounterQueriesReportNullAndUnknownSessionsAndIndexesOutOfRange) {
  GpaUInt32 count = 0;
  const char* text = nullptr;
  GpaDataType data_type{};
  GpaUsageType usage{};
  GpaUuid uuid{};
  GpaCounterSampleType sample_type{};
  ASSERT_EQ(gpa_->GpaGetNumCounters(session_, &count), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaGetNumCounters(nullptr, &count), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetNumCounters(UnknownSession(), &count), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetNumCounters(session_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetCounterName(UnknownSession(), 0, &text), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetCounterName(session_, count, &text), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(gpa_->GpaGetCounterIndex(session_, "NoSuchCounter", &count), kGpaStatusErrorCounterNotFound);
  EXPECT_EQ(gpa_->GpaGetCounterIndex(UnknownSession(), "FakeCycles", &count), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetCounterGroup(session_, count, &text), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(gpa_->GpaGetCounterDescription(UnknownSession(), 0, &text), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetCounterDataType(session_, count, &data_type), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(gpa_->GpaGetCounterUsageType(UnknownSession(), 0, &usage), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetCounterUuid(session_, count, &uuid), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(gpa_->GpaGetCounterUuid(session_, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetCounterSampleType(session_, count, &sample_type), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(gpa_->GpaGetCounterSampleType(UnknownSession(), 0, &sample_type), kGpaStatusErrorSessionNotFound);
}

TEST_F(Gpa4Test, CounterUuidsAreSixteenByteUuidsDistinctPerCounter) {
  static_assert(sizeof(GpaUuid) == 16, "GPA 4's layout");
  GpaUuid first{};
  GpaUuid second{};
  ASSERT_EQ(gpa_->GpaGetCounterUuid(session_, 0, &first), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaGetCounterUuid(session_, 1, &second), kGpaStatusOk);
  EXPECT_FALSE(first == second);
  const GpaUuid zero{};
  EXPECT_FALSE(first == zero);
  // Name-based (RFC 4122 version 5): the version nibble is data_3's top nibble.
  EXPECT_EQ(first.data_3 >> 12, 5);
}

TEST_F(Gpa4Test, CountersOfADiscreteSessionAreDiscrete) {
  GpaCounterSampleType type{};
  ASSERT_EQ(gpa_->GpaGetCounterSampleType(session_, 0, &type), kGpaStatusOk);
  EXPECT_EQ(type, kGpaCounterSampleTypeDiscrete);
}

TEST_F(Gpa4Test, CreateSessionRefusesAValueBeyondGpa4sSampleTypes) {
  GpaSessionId id = nullptr;
  EXPECT_EQ(gpa_->GpaCreateSession(context_, kGpaSessionSampleTypeLast, &id), kGpaStatusErrorInvalidParameter);
}

TEST_F(Gpa4Test, EnumArgumentsOutsideTheirEnumsFromCAreRefusedNamingTheValue) {
  // Read as ints and range-checked (UBSan's enum check, in the sanitizer run, fails the test otherwise).
  for (int bad : {-1, 5, 1000, INT_MIN, INT_MAX}) {
    GpaSessionId id = nullptr;
    EXPECT_EQ(CallV4CreateSession(gpa_, context_, bad, &id), kGpaStatusErrorInvalidParameter) << bad;
    EXPECT_EQ(id, nullptr);
  }
  for (int bad : {-1, 1000, INT_MIN, INT_MAX}) {
    const char* text = nullptr;
    EXPECT_EQ(CallV4GetDataTypeAsStr(gpa_, bad, &text), kGpaStatusErrorInvalidParameter) << bad;
    EXPECT_EQ(CallV4GetUsageTypeAsStr(gpa_, bad, &text), kGpaStatusErrorInvalidParameter) << bad;
  }
  ASSERT_EQ(gpa_->GpaEnableCounter(session_, 0), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(session_), kGpaStatusOk);
  int api_list = 0;  // any non-null pointer: the type is checked first
  for (int bad : {-1, 3, 1000, INT_MIN}) {
    GpaCommandListId list = nullptr;
    EXPECT_EQ(CallV4BeginCommandList(gpa_, session_, 0, &api_list, bad, &list), kGpaStatusErrorInvalidParameter) << bad;
  }
}

TEST_F(Gpa4Test, CreateSessionRefusesStreamingAndSqttOnAContextThatOffersNeither) {
  GpaSessionId id = nullptr;
  EXPECT_EQ(gpa_->GpaCreateSession(context_, kGpaSessionSampleTypeStreamingCounter, &id),
            kGpaStatusErrorIncompatibleSampleTypes);
  EXPECT_EQ(gpa_->GpaCreateSession(context_, kGpaSessionSampleTypeSqtt, &id), kGpaStatusErrorIncompatibleSampleTypes);
  EXPECT_EQ(gpa_->GpaCreateSession(context_, kGpaSessionSampleTypeStreamingCounterAndSqtt, &id),
            kGpaStatusErrorIncompatibleSampleTypes);
}

// FakeTotalWork (the fake's catalog: cycles plus items) of sample `slot`.
GpaUInt64 TotalWork(std::uint32_t slot) {
  return static_cast<GpaUInt64>(fake::FakeHardwareValue(0, slot) + fake::FakeHardwareValue(1, slot));
}

// One discrete pass of samples 0 and 1 through the v4 table; the results are the fake's known values.
void RecordOnePass(const GpaFunctionTable& gpa, GpaSessionId session) {
  GpaCommandListId list = nullptr;
  ASSERT_EQ(gpa.GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  for (GpaUInt32 sample = 0; sample < 2; ++sample) {
    ASSERT_EQ(gpa.GpaBeginSample(sample, list), kGpaStatusOk);
    ASSERT_EQ(gpa.GpaEndSample(list), kGpaStatusOk);
  }
  ASSERT_EQ(gpa.GpaEndCommandList(list), kGpaStatusOk);
}

TEST_F(Gpa4Test, ADiscreteSessionSamplesThroughTheV4TableAsThroughV3s) {
  ASSERT_EQ(gpa_->GpaEnableCounterByName(session_, "FakeTotalWork"), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(session_), kGpaStatusOk);
  RecordOnePass(*gpa_, session_);
  ASSERT_EQ(gpa_->GpaEndSession(session_), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaIsSessionComplete(session_), kGpaStatusOk);
  GpaUInt64 value = 0;
  ASSERT_EQ(gpa_->GpaGetSampleResult(session_, 1, sizeof value, &value), kGpaStatusOk);
  EXPECT_EQ(value, TotalWork(1));
}

TEST_F(Gpa4Test, AbortStopsABegunSessionWhateverItsPassesAndKeepsItsCounters) {
  ASSERT_EQ(gpa_->GpaEnableAllCounters(session_), kGpaStatusOk);
  GpaUInt32 enabled = 0;
  ASSERT_EQ(gpa_->GpaGetNumEnabledCounters(session_, &enabled), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(session_), kGpaStatusOk);
  GpaCommandListId list = nullptr;
  ASSERT_EQ(gpa_->GpaBeginCommandList(session_, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSample(0, list), kGpaStatusOk);  // left open: EndSession would refuse
  ASSERT_EQ(gpa_->GpaAbortSession(session_), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaEndSample(list), kGpaStatusErrorCommandListNotFound);  // the aborted lists are gone
  EXPECT_EQ(device_.command_lists_alive.load(), 0);
  GpaUInt32 after = 0;
  ASSERT_EQ(gpa_->GpaGetNumEnabledCounters(session_, &after), kGpaStatusOk);
  EXPECT_EQ(after, enabled);
  // Not begun now: nothing to abort, and another session of the context may begin.
  EXPECT_EQ(gpa_->GpaAbortSession(session_), kGpaStatusErrorSessionNotStarted);
  GpaSessionId other = nullptr;
  ASSERT_EQ(gpa_->GpaCreateSession(context_, kGpaSessionSampleTypeDiscreteCounter, &other), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaEnableCounter(other, 0), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaBeginSession(other), kGpaStatusOk);
}

TEST_F(Gpa4Test, AnAbortedSessionCanBeBegunAndSampledAgain) {
  ASSERT_EQ(gpa_->GpaEnableCounterByName(session_, "FakeTotalWork"), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(session_), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaAbortSession(session_), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(session_), kGpaStatusOk);
  RecordOnePass(*gpa_, session_);
  ASSERT_EQ(gpa_->GpaEndSession(session_), kGpaStatusOk);
  GpaUInt64 value = 0;
  ASSERT_EQ(gpa_->GpaGetSampleResult(session_, 0, sizeof value, &value), kGpaStatusOk);
  EXPECT_EQ(value, TotalWork(0));
}

TEST_F(Gpa4Test, AbortReportsNullAndUnknownSessionsAndEndedOnes) {
  EXPECT_EQ(gpa_->GpaAbortSession(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaAbortSession(UnknownSession()), kGpaStatusErrorSessionNotFound);
  ASSERT_EQ(gpa_->GpaEnableCounter(session_, 0), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(session_), kGpaStatusOk);
  RecordOnePass(*gpa_, session_);
  ASSERT_EQ(gpa_->GpaEndSession(session_), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaAbortSession(session_), kGpaStatusErrorSessionNotStarted);
}

TEST_F(Gpa4Test, ResetReturnsAnEndedSessionToItsCreatedStateWithNoCountersOrSamples) {
  ASSERT_EQ(gpa_->GpaEnableAllCounters(session_), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(session_), kGpaStatusOk);
  RecordOnePass(*gpa_, session_);
  ASSERT_EQ(gpa_->GpaEndSession(session_), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaResetSession(session_), kGpaStatusOk);
  GpaUInt32 enabled = 1;
  ASSERT_EQ(gpa_->GpaGetNumEnabledCounters(session_, &enabled), kGpaStatusOk);
  EXPECT_EQ(enabled, 0u);
  GpaUInt32 samples = 0;
  EXPECT_EQ(gpa_->GpaGetSampleCount(session_, &samples), kGpaStatusErrorSessionNotEnded);
  EXPECT_EQ(gpa_->GpaBeginSession(session_), kGpaStatusErrorNoCountersEnabled);
  ASSERT_EQ(gpa_->GpaEnableCounterByName(session_, "FakeTotalWork"), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(session_), kGpaStatusOk);
  RecordOnePass(*gpa_, session_);
  ASSERT_EQ(gpa_->GpaEndSession(session_), kGpaStatusOk);
  GpaUInt64 value = 0;
  ASSERT_EQ(gpa_->GpaGetSampleResult(session_, 1, sizeof value, &value), kGpaStatusOk);
  EXPECT_EQ(value, TotalWork(1));
}

TEST_F(Gpa4Test, ResetOfABegunSessionReleasesTheContextForOtherSessions) {
  ASSERT_EQ(gpa_->GpaEnableCounter(session_, 0), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaBeginSession(session_), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaResetSession(session_), kGpaStatusOk);
  GpaSessionId other = nullptr;
  ASSERT_EQ(gpa_->GpaCreateSession(context_, kGpaSessionSampleTypeDiscreteCounter, &other), kGpaStatusOk);
  ASSERT_EQ(gpa_->GpaEnableCounter(other, 0), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaBeginSession(other), kGpaStatusOk);
}

TEST_F(Gpa4Test, ResetReportsNullAndUnknownSessions) {
  EXPECT_EQ(gpa_->GpaResetSession(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaResetSession(UnknownSession()), kGpaStatusErrorSessionNotFound);
}

TEST_F(Gpa4Test, EverySqttCallFindsTheSessionThenRefusesItsSampleType) {
  GpaSqttInstructionFlags mask = 0;
  GpaUInt32 unit = 0;
  size_t size = 0;
  char buffer[8];
  const struct {
    const char* name;
    GpaStatus status;
    GpaStatus unknown_session;
  } calls[] = {
      {"GpaSqttGetInstructionMask", gpa_->GpaSqttGetInstructionMask(session_, &mask),
       gpa_->GpaSqttGetInstructionMask(UnknownSession(), &mask)},
      {"GpaSqttSetInstructionMask", gpa_->GpaSqttSetInstructionMask(session_, kGpaSqttInstructionTypeAll),
       gpa_->GpaSqttSetInstructionMask(UnknownSession(), kGpaSqttInstructionTypeAll)},
      {"GpaSqttGetComputeUnitId", gpa_->GpaSqttGetComputeUnitId(session_, &unit),
       gpa_->GpaSqttGetComputeUnitId(UnknownSession(), &unit)},
      {"GpaSqttSetComputeUnitId", gpa_->GpaSqttSetComputeUnitId(session_, 1),
       gpa_->GpaSqttSetComputeUnitId(UnknownSession(), 1)},
      {"GpaSqttBegin", gpa_->GpaSqttBegin(session_, nullptr), gpa_->GpaSqttBegin(UnknownSession(), nullptr)},
      {"GpaSqttEnd", gpa_->GpaSqttEnd(session_, nullptr), gpa_->GpaSqttEnd(UnknownSession(), nullptr)},
      {"GpaSqttGetSampleResultSize", gpa_->GpaSqttGetSampleResultSize(session_, &size),
       gpa_->GpaSqttGetSampleResultSize(UnknownSession(), &size)},
      {"GpaSqttGetSampleResult", gpa_->GpaSqttGetSampleResult(session_, sizeof buffer, buffer),
       gpa_->GpaSqttGetSampleResult(UnknownSession(), sizeof buffer, buffer)},
      {"GpaSqttSpmBegin", gpa_->GpaSqttSpmBegin(session_, nullptr), gpa_->GpaSqttSpmBegin(UnknownSession(), nullptr)},
      {"GpaSqttSpmEnd", gpa_->GpaSqttSpmEnd(session_, nullptr), gpa_->GpaSqttSpmEnd(UnknownSession(), nullptr)},
  };
  for (const auto& call : calls) {
    EXPECT_EQ(call.status, kGpaStatusErrorIncompatibleSampleTypes) << call.name;
    EXPECT_EQ(call.unknown_session, kGpaStatusErrorSessionNotFound) << call.name;
  }
  EXPECT_EQ(gpa_->GpaSqttBegin(nullptr, nullptr), kGpaStatusErrorNullPointer);
}

TEST_F(Gpa4Test, EverySpmCallFindsTheSessionThenRefusesItsSampleType) {
  size_t size = 0;
  char buffer[8];
  GpaSpmData data{};
  GpaUInt64 results[1] = {};
  const struct {
    const char* name;
    GpaStatus status;
    GpaStatus unknown_session;
  } calls[] = {
      {"GpaSpmSetSampleInterval", gpa_->GpaSpmSetSampleInterval(session_, 4096),
       gpa_->GpaSpmSetSampleInterval(UnknownSession(), 4096)},
      {"GpaSpmSetDuration", gpa_->GpaSpmSetDuration(session_, 1000000),
       gpa_->GpaSpmSetDuration(UnknownSession(), 1000000)},
      {"GpaSpmBegin", gpa_->GpaSpmBegin(session_, nullptr), gpa_->GpaSpmBegin(UnknownSession(), nullptr)},
      {"GpaSpmEnd", gpa_->GpaSpmEnd(session_, nullptr), gpa_->GpaSpmEnd(UnknownSession(), nullptr)},
      {"GpaSpmGetSampleResultSize", gpa_->GpaSpmGetSampleResultSize(session_, &size),
       gpa_->GpaSpmGetSampleResultSize(UnknownSession(), &size)},
      {"GpaSpmGetSampleResult", gpa_->GpaSpmGetSampleResult(session_, sizeof buffer, buffer),
       gpa_->GpaSpmGetSampleResult(UnknownSession(), sizeof buffer, buffer)},
      {"GpaSpmCalculateDerivedCounters", gpa_->GpaSpmCalculateDerivedCounters(session_, &data, 1, results),
       gpa_->GpaSpmCalculateDerivedCounters(UnknownSession(), &data, 1, results)},
  };
  for (const auto& call : calls) {
    EXPECT_EQ(call.status, kGpaStatusErrorIncompatibleSampleTypes) << call.name;
    EXPECT_EQ(call.unknown_session, kGpaStatusErrorSessionNotFound) << call.name;
  }
  EXPECT_EQ(gpa_->GpaSpmBegin(nullptr, nullptr), kGpaStatusErrorNullPointer);
}

}  // namespace
}  // namespace opengpa::gpa4_test
