// Counter queries and selection: GPA_GetNumCounters ... GPA_GetPassCount, each documented status, and the
// counters as v2 sees them (the v3 context's counters, v2 types and units).
#include "tests/gpa2/gpa2_test_fixture.h"

namespace opengpa::gpa2test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST_F(Gpa2Test, EveryCounterQueryWithoutOpenContextIsCountersNotOpen) {
  gpa_uint32 value = 0;
  const char* text = nullptr;
  GPA_Type type;
  GPA_Usage_Type usage;
  EXPECT_EQ(GPA_GetNumCounters(&value), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetCounterName(0, &text), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetCounterDescription(0, &text), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetCounterDataType(0, &type), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetCounterUsageType(0, &usage), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetCounterIndex("FakeTotalWork", &value), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_EnableCounter(0), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_DisableCounter(0), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_EnableCounterStr("FakeTotalWork"), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_DisableCounterStr("FakeTotalWork"), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_EnableAllCounters(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_DisableAllCounters(), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetEnabledCount(&value), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetEnabledIndex(0, &value), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_IsCounterEnabled(0), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetPassCount(&value), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
}

TEST_F(Gpa2Test, GetNumCountersWithNullCountIsNullPointer) {
  Open();
  EXPECT_EQ(GPA_GetNumCounters(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("count is NULL"));
}

TEST_F(Gpa2Test, PerCounterQueriesBeyondTheLastCounterAreIndexOutOfRange) {
  Open();
  gpa_uint32 count = 0;
  ASSERT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_OK);
  const char* text = nullptr;
  GPA_Type type;
  GPA_Usage_Type usage;
  EXPECT_EQ(GPA_GetCounterName(count, &text), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("index 6"));
  EXPECT_EQ(GPA_GetCounterDescription(count, &text), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
  EXPECT_EQ(GPA_GetCounterDataType(count, &type), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
  EXPECT_EQ(GPA_GetCounterUsageType(count, &usage), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
}

TEST_F(Gpa2Test, PerCounterQueriesWithNullOutputAreNullPointer) {
  Open();
  EXPECT_EQ(GPA_GetCounterName(0, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_EQ(GPA_GetCounterDescription(0, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_EQ(GPA_GetCounterDataType(0, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_EQ(GPA_GetCounterUsageType(0, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, CountersAreTheV3ContextsWithTheirV3NamesDescriptionsTypesAndUsages) {
  Open();
  std::vector<std::string> names;
  gpa_uint32 count = 0;
  ASSERT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_OK);
  for (gpa_uint32 i = 0; i < count; ++i) {
    const char* name = nullptr;
    ASSERT_EQ(GPA_GetCounterName(i, &name), GPA_STATUS_OK);
    names.emplace_back(name);
  }
  EXPECT_THAT(names, ElementsAre("FakeTotalWork", "FakeBusyPercent", "FakeBytesPerItem", "FakeTimeMs",
                                 "FakeScaledBytes", "FakeNegative"));
  const char* description = nullptr;
  ASSERT_EQ(GPA_GetCounterDescription(Index("FakeBytesPerItem"), &description), GPA_STATUS_OK);
  EXPECT_STREQ(description, "Bytes per item.");
  GPA_Type type;
  GPA_Usage_Type usage;
  ASSERT_EQ(GPA_GetCounterDataType(Index("FakeTotalWork"), &type), GPA_STATUS_OK);
  EXPECT_EQ(type, GPA_TYPE_UINT64);
  ASSERT_EQ(GPA_GetCounterDataType(Index("FakeBusyPercent"), &type), GPA_STATUS_OK);
  EXPECT_EQ(type, GPA_TYPE_FLOAT64);
  ASSERT_EQ(GPA_GetCounterUsageType(Index("FakeBusyPercent"), &usage), GPA_STATUS_OK);
  EXPECT_EQ(usage, GPA_USAGE_TYPE_PERCENTAGE);
  ASSERT_EQ(GPA_GetCounterUsageType(Index("FakeTimeMs"), &usage), GPA_STATUS_OK);
  EXPECT_EQ(usage, GPA_USAGE_TYPE_MILLISECONDS);
  ASSERT_EQ(GPA_GetCounterUsageType(Index("FakeScaledBytes"), &usage), GPA_STATUS_OK);
  EXPECT_EQ(usage, GPA_USAGE_TYPE_BYTES);
}

TEST_F(Gpa2Test, GetCounterIndexIgnoresCase) {
  Open();
  gpa_uint32 index = 99;
  ASSERT_EQ(GPA_GetCounterIndex("fakescaledBYTES", &index), GPA_STATUS_OK);
  EXPECT_EQ(index, 4u);
}

TEST_F(Gpa2Test, GetCounterIndexWithNullNameOrNullIndexIsNullPointer) {
  Open();
  gpa_uint32 index = 0;
  EXPECT_EQ(GPA_GetCounterIndex(nullptr, &index), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_EQ(GPA_GetCounterIndex("FakeTotalWork", nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, GetCounterIndexOfAnUnknownNameIsNotFound) {
  Open();
  gpa_uint32 index = 0;
  EXPECT_EQ(GPA_GetCounterIndex("FakeNeedsMissing", &index), GPA_STATUS_ERROR_NOT_FOUND);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("'FakeNeedsMissing'"));
}

TEST_F(Gpa2Test, EnableCounterBeyondTheLastCounterIsIndexOutOfRange) {
  Open();
  EXPECT_EQ(GPA_EnableCounter(6), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
  EXPECT_EQ(GPA_DisableCounter(6), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
}

TEST_F(Gpa2Test, ChangingCountersDuringASessionIsCannotChangeCountersWhenSampling) {
  Open();
  BeginSessionWith({"FakeTotalWork"});
  EXPECT_EQ(GPA_EnableCounter(1), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
  EXPECT_EQ(GPA_DisableCounter(0), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
  EXPECT_EQ(GPA_EnableCounterStr("FakeBusyPercent"), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
  EXPECT_EQ(GPA_DisableCounterStr("FakeTotalWork"), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
  EXPECT_EQ(GPA_EnableAllCounters(), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
  EXPECT_EQ(GPA_DisableAllCounters(), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("GPA_EndSession"));
  gpa_uint32 count = 0;
  ASSERT_EQ(GPA_GetEnabledCount(&count), GPA_STATUS_OK);
  EXPECT_EQ(count, 1u);
}

TEST_F(Gpa2Test, EnablingAnEnabledCounterIsAlreadyEnabled) {
  Open();
  ASSERT_EQ(GPA_EnableCounter(2), GPA_STATUS_OK);
  EXPECT_EQ(GPA_EnableCounter(2), GPA_STATUS_ERROR_ALREADY_ENABLED);
  EXPECT_EQ(GPA_EnableCounterStr("FakeBytesPerItem"), GPA_STATUS_ERROR_ALREADY_ENABLED);
}

TEST_F(Gpa2Test, DisablingACounterNotEnabledIsNotEnabled) {
  Open();
  EXPECT_EQ(GPA_DisableCounter(2), GPA_STATUS_ERROR_NOT_ENABLED);
  EXPECT_EQ(GPA_DisableCounterStr("FakeBytesPerItem"), GPA_STATUS_ERROR_NOT_ENABLED);
}

TEST_F(Gpa2Test, EnableAndDisableByNameWithNullNameAreNullPointer) {
  Open();
  EXPECT_EQ(GPA_EnableCounterStr(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_EQ(GPA_DisableCounterStr(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, EnableAndDisableByAnUnknownNameAreNotFound) {
  Open();
  EXPECT_EQ(GPA_EnableCounterStr("NoSuchCounter"), GPA_STATUS_ERROR_NOT_FOUND);
  EXPECT_EQ(GPA_DisableCounterStr("NoSuchCounter"), GPA_STATUS_ERROR_NOT_FOUND);
}

TEST_F(Gpa2Test, EnabledCountersAreListedInEnableOrderAndCanBeDisabled) {
  Open();
  ASSERT_EQ(GPA_EnableCounter(3), GPA_STATUS_OK);
  ASSERT_EQ(GPA_EnableCounterStr("fakeTotalWork"), GPA_STATUS_OK);
  ASSERT_EQ(GPA_EnableCounter(5), GPA_STATUS_OK);
  ASSERT_EQ(GPA_DisableCounterStr("FakeNegative"), GPA_STATUS_OK);
  gpa_uint32 count = 0, first = 0, second = 0;
  ASSERT_EQ(GPA_GetEnabledCount(&count), GPA_STATUS_OK);
  ASSERT_EQ(count, 2u);
  ASSERT_EQ(GPA_GetEnabledIndex(0, &first), GPA_STATUS_OK);
  ASSERT_EQ(GPA_GetEnabledIndex(1, &second), GPA_STATUS_OK);
  EXPECT_EQ(first, 3u);
  EXPECT_EQ(second, 0u);
  EXPECT_EQ(GPA_IsCounterEnabled(3), GPA_STATUS_OK);
  EXPECT_EQ(GPA_IsCounterEnabled(5), GPA_STATUS_ERROR_NOT_FOUND);
  ASSERT_EQ(GPA_DisableCounter(3), GPA_STATUS_OK);
  EXPECT_EQ(GPA_IsCounterEnabled(3), GPA_STATUS_ERROR_NOT_FOUND);
}

TEST_F(Gpa2Test, EnableAllCountersEnablesEachInCounterOrderAndDisableAllNone) {
  Open();
  ASSERT_EQ(GPA_EnableCounter(4), GPA_STATUS_OK);
  ASSERT_EQ(GPA_EnableAllCounters(), GPA_STATUS_OK);
  gpa_uint32 count = 0;
  ASSERT_EQ(GPA_GetEnabledCount(&count), GPA_STATUS_OK);
  ASSERT_EQ(count, 6u);
  for (gpa_uint32 i = 0; i < count; ++i) {
    gpa_uint32 index = 99;
    ASSERT_EQ(GPA_GetEnabledIndex(i, &index), GPA_STATUS_OK);
    EXPECT_EQ(index, i);
  }
  ASSERT_EQ(GPA_DisableAllCounters(), GPA_STATUS_OK);
  ASSERT_EQ(GPA_GetEnabledCount(&count), GPA_STATUS_OK);
  EXPECT_EQ(count, 0u);
}

TEST_F(Gpa2Test, GetEnabledCountWithNullCountIsNullPointer) {
  Open();
  EXPECT_EQ(GPA_GetEnabledCount(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, GetEnabledIndexWithNullOutputIsNullPointer) {
  Open();
  ASSERT_EQ(GPA_EnableCounter(0), GPA_STATUS_OK);
  EXPECT_EQ(GPA_GetEnabledIndex(0, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, GetEnabledIndexBeyondTheEnabledCountIsIndexOutOfRange) {
  Open();
  ASSERT_EQ(GPA_EnableCounter(0), GPA_STATUS_OK);
  gpa_uint32 index = 0;
  EXPECT_EQ(GPA_GetEnabledIndex(1, &index), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("enabledNumber 1"));
}

TEST_F(Gpa2Test, IsCounterEnabledBeyondTheLastCounterIsIndexOutOfRange) {
  Open();
  EXPECT_EQ(GPA_IsCounterEnabled(6), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
}

TEST_F(Gpa2Test, IsCounterEnabledOfADisabledCounterIsNotFoundWithoutLoggingAnError) {
  Open();
  V2Log::Clear();
  EXPECT_EQ(GPA_IsCounterEnabled(1), GPA_STATUS_ERROR_NOT_FOUND);
  EXPECT_EQ(V2Log::LastError(), "");
}

TEST_F(Gpa2Test, GetPassCountWithNullOutputIsNullPointer) {
  Open();
  EXPECT_EQ(GPA_GetPassCount(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, GetPassCountIsTheCorePassCountOfTheEnabledCounters) {
  device_.block_limit = 1;  // FakeCycles and FakeItems (one block) then take a pass each
  Open();
  gpa_uint32 passes = 99;
  ASSERT_EQ(GPA_GetPassCount(&passes), GPA_STATUS_OK);
  EXPECT_EQ(passes, 0u);  // nothing enabled
  ASSERT_EQ(GPA_EnableCounterStr("FakeScaledBytes"), GPA_STATUS_OK);
  ASSERT_EQ(GPA_GetPassCount(&passes), GPA_STATUS_OK);
  EXPECT_EQ(passes, 1u);
  ASSERT_EQ(GPA_EnableCounterStr("FakeTotalWork"), GPA_STATUS_OK);
  ASSERT_EQ(GPA_GetPassCount(&passes), GPA_STATUS_OK);
  EXPECT_EQ(passes, 2u);
}

}  // namespace
}  // namespace opengpa::gpa2test
