// Counter interrogation: GpaGetNumCounters ... GpaGetUsageTypeAsStr.
#include <climits>

#include "tests/core/c_enum_callers.h"
#include "tests/core/gpa_api_test_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

using CounterQueryTest = GpaApiTest;

// The fake catalog has 7 derived counters; FakeNeedsMissing names an absent hardware counter.
constexpr GpaUInt32 kVisibleDerivedCounters = 6;

TEST_F(CounterQueryTest, DerivedCountersNamingAbsentHardwareAreHidden) {
  GpaContextId context = OpenContext();
  GpaUInt32 count = 0;
  ASSERT_EQ(GpaGetNumCounters(context, &count), kGpaStatusOk);
  EXPECT_EQ(count, kVisibleDerivedCounters);
  GpaUInt32 index = 0;
  EXPECT_EQ(GpaGetCounterIndex(context, "FakeNeedsMissing", &index), kGpaStatusErrorCounterNotFound);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("'FakeNeedsMissing'"));
}

TEST_F(CounterQueryTest, HardwareCountersAppearAfterDerivedOnesWhenAskedFor) {
  GpaContextId context = OpenContext(device_, kGpaOpenContextEnableHardwareCountersBit);
  GpaUInt32 count = 0;
  ASSERT_EQ(GpaGetNumCounters(context, &count), kGpaStatusOk);
  EXPECT_EQ(count, kVisibleDerivedCounters + fake::kHardwareCounterCount);
  const char* name = nullptr;
  ASSERT_EQ(GpaGetCounterName(context, kVisibleDerivedCounters, &name), kGpaStatusOk);
  EXPECT_STREQ(name, "FakeCycles");
}

TEST_F(CounterQueryTest, DescribeEachCounterAsTheCatalogDoes) {
  GpaContextId context = OpenContext();
  const GpaUInt32 index = CounterIndex(context, "FakeBusyPercent");
  const char* text = nullptr;
  ASSERT_EQ(GpaGetCounterName(context, index, &text), kGpaStatusOk);
  EXPECT_STREQ(text, "FakeBusyPercent");
  ASSERT_EQ(GpaGetCounterGroup(context, index, &text), kGpaStatusOk);
  EXPECT_STREQ(text, "Fake");
  ASSERT_EQ(GpaGetCounterDescription(context, index, &text), kGpaStatusOk);
  EXPECT_STREQ(text, "Busy over cycles.");
  GpaDataType type = kGpaDataTypeLast;
  ASSERT_EQ(GpaGetCounterDataType(context, index, &type), kGpaStatusOk);
  EXPECT_EQ(type, kGpaDataTypeFloat64);
  GpaUsageType usage = kGpaUsageTypeLast;
  ASSERT_EQ(GpaGetCounterUsageType(context, index, &usage), kGpaStatusOk);
  EXPECT_EQ(usage, kGpaUsageTypePercentage);
  GpaCounterSampleType sample_type{};
  ASSERT_EQ(GpaGetCounterSampleType(context, index, &sample_type), kGpaStatusOk);
  EXPECT_EQ(sample_type, kGpaCounterSampleTypeDiscrete);
}

TEST_F(CounterQueryTest, CounterIndexIgnoresCase) {
  GpaContextId context = OpenContext();
  EXPECT_EQ(CounterIndex(context, "fakebusypercent"), CounterIndex(context, "FakeBusyPercent"));
}

TEST_F(CounterQueryTest, UuidsAreDistinctAndStableAcrossContexts) {
  GpaContextId context = OpenContext();
  GpaUuid a{}, b{};
  ASSERT_EQ(GpaGetCounterUuid(context, 0, &a), kGpaStatusOk);
  ASSERT_EQ(GpaGetCounterUuid(context, 1, &b), kGpaStatusOk);
  EXPECT_NE(std::memcmp(&a, &b, sizeof a), 0);
  ASSERT_EQ(GpaCloseContext(context), kGpaStatusOk);
  context = OpenContext();
  GpaUuid again{};
  ASSERT_EQ(GpaGetCounterUuid(context, 0, &again), kGpaStatusOk);
  EXPECT_EQ(std::memcmp(&a, &again, sizeof a), 0);
}

TEST_F(CounterQueryTest, IndexPastTheLastCounterIsOutOfRangeForEveryQuery) {
  GpaContextId context = OpenContext();
  const GpaUInt32 bad = kVisibleDerivedCounters;
  const char* text;
  GpaDataType type;
  GpaUsageType usage;
  GpaUuid uuid;
  GpaCounterSampleType sample_type;
  EXPECT_EQ(GpaGetCounterName(context, bad, &text), kGpaStatusErrorIndexOutOfRange);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("index 6"));
  EXPECT_EQ(GpaGetCounterGroup(context, bad, &text), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(GpaGetCounterDescription(context, bad, &text), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(GpaGetCounterDataType(context, bad, &type), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(GpaGetCounterUsageType(context, bad, &usage), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(GpaGetCounterUuid(context, bad, &uuid), kGpaStatusErrorIndexOutOfRange);
  EXPECT_EQ(GpaGetCounterSampleType(context, bad, &sample_type), kGpaStatusErrorIndexOutOfRange);
}

TEST_F(CounterQueryTest, NullOutputsAndNullOrUnknownContextsAreReported) {
  GpaContextId context = OpenContext();
  GpaContextId garbage = GarbageId<GpaContextId>();
  const char* text;
  GpaUInt32 u;
  GpaDataType type;
  GpaUsageType usage;
  GpaUuid uuid;
  GpaCounterSampleType sample_type;
  EXPECT_EQ(GpaGetNumCounters(context, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetNumCounters(nullptr, &u), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetNumCounters(garbage, &u), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(GpaGetCounterName(context, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("counter_name"));
  EXPECT_EQ(GpaGetCounterName(nullptr, 0, &text), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetCounterName(garbage, 0, &text), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(GpaGetCounterIndex(context, nullptr, &u), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetCounterIndex(context, "FakeTotalWork", nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetCounterIndex(nullptr, "FakeTotalWork", &u), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetCounterIndex(garbage, "FakeTotalWork", &u), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(GpaGetCounterGroup(context, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetCounterGroup(garbage, 0, &text), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(GpaGetCounterDescription(context, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetCounterDescription(garbage, 0, &text), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(GpaGetCounterDataType(context, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetCounterDataType(garbage, 0, &type), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(GpaGetCounterUsageType(context, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetCounterUsageType(garbage, 0, &usage), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(GpaGetCounterUuid(context, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetCounterUuid(garbage, 0, &uuid), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(GpaGetCounterSampleType(context, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetCounterSampleType(garbage, 0, &sample_type), kGpaStatusErrorContextNotFound);
}

TEST(TypeStrings, DataAndUsageTypesHaveGpasNames) {
  const char* text = nullptr;
  ASSERT_EQ(GpaGetDataTypeAsStr(kGpaDataTypeUint64, &text), kGpaStatusOk);
  EXPECT_STREQ(text, "gpa_uint64");
  ASSERT_EQ(GpaGetDataTypeAsStr(kGpaDataTypeFloat64, &text), kGpaStatusOk);
  EXPECT_STREQ(text, "gpa_float64");
  ASSERT_EQ(GpaGetUsageTypeAsStr(kGpaUsageTypePercentage, &text), kGpaStatusOk);
  EXPECT_STREQ(text, "percentage");
  ASSERT_EQ(GpaGetUsageTypeAsStr(kGpaUsageTypeNanoseconds, &text), kGpaStatusOk);
  EXPECT_STREQ(text, "nanoseconds");
  for (int usage = kGpaUsageTypeRatio; usage < kGpaUsageTypeLast; ++usage) {
    EXPECT_EQ(GpaGetUsageTypeAsStr(static_cast<GpaUsageType>(usage), &text), kGpaStatusOk) << usage;
  }
}

TEST(TypeStrings, OutOfRangeTypesAreInvalidAndNullOutputsAreReported) {
  const char* text = nullptr;
  EXPECT_EQ(GpaGetDataTypeAsStr(kGpaDataTypeLast, &text), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(GpaGetDataTypeAsStr(kGpaDataTypeUint64, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetUsageTypeAsStr(kGpaUsageTypeLast, &text), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(GpaGetUsageTypeAsStr(kGpaUsageTypeBytes, nullptr), kGpaStatusErrorNullPointer);
  // Values outside the enums come from C (c_enum_callers.c): forming them in C++ would be undefined.
  for (int bad : {-1, 1000, INT_MIN, INT_MAX}) {
    EXPECT_EQ(CallGetDataTypeAsStr(bad, &text), kGpaStatusErrorInvalidParameter) << bad;
    EXPECT_EQ(CallGetUsageTypeAsStr(bad, &text), kGpaStatusErrorInvalidParameter) << bad;
  }
  EXPECT_STREQ(CallGetStatusAsStr(-100000), "GPA Error: Unknown Error.");
  EXPECT_STREQ(CallGetStatusAsStr(100000), "GPA Status: Unknown Status.");
  EXPECT_STREQ(CallGetStatusAsStr(INT_MIN), "GPA Error: Unknown Error.");
}

}  // namespace
}  // namespace opengpa::testing
