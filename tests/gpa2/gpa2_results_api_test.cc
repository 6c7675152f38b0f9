// Results: GPA_IsSessionReady, GPA_IsSampleReady, GPA_GetSampleCount, GPA_GetSample*: each documented status,
// the values against the fake backend's ground truth, the same values a v3 client reads, and result buffering.
#include <cmath>
#include <cstring>

#include "gpu_performance_api/gpu_perf_api.h"
#include "tests/gpa2/gpa2_test_fixture.h"

namespace opengpa::gpa2test {
namespace {

using ::testing::HasSubstr;

// Ground truth of the fake catalog for the sample in `slot` (the order in which sample ids were first seen).
gpa_uint64 TotalWork(gpa_uint32 slot) { return fake::FakeHardwareValue(0, slot) + fake::FakeHardwareValue(1, slot); }
double BytesPerItem(gpa_uint32 slot) { return fake::FakeHardwareValue(2, slot) / fake::FakeHardwareValue(1, slot); }
double TimeMs(gpa_uint32 slot) { return fake::FakeHardwareValue(4, slot) / 1e6; }

TEST_F(Gpa2Test, ResultCallsWithoutOpenContextAreCountersNotOpen) {
  bool ready = false;
  gpa_uint32 count = 0;
  gpa_uint64 u64 = 0;
  gpa_uint32 u32 = 0;
  gpa_float64 f64 = 0;
  gpa_float32 f32 = 0;
  EXPECT_EQ(GPA_IsSessionReady(&ready, 1), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_IsSampleReady(&ready, 1, 0), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetSampleCount(1, &count), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetSampleUInt64(1, 0, 0, &u64), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetSampleUInt32(1, 0, 0, &u32), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetSampleFloat64(1, 0, 0, &f64), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
  EXPECT_EQ(GPA_GetSampleFloat32(1, 0, 0, &f32), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
}

TEST_F(Gpa2Test, ReadyQueriesWithNullOutputAreNullPointer) {
  Open();
  const gpa_uint32 session = RecordSession({"FakeTotalWork"}, {0});
  gpa_uint32* no_count = nullptr;
  EXPECT_EQ(GPA_IsSessionReady(nullptr, session), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_EQ(GPA_IsSampleReady(nullptr, session, 0), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_EQ(GPA_GetSampleCount(session, no_count), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, ResultCallsOnAnUnknownSessionAreSessionNotFound) {
  Open();
  RecordSession({"FakeTotalWork", "FakeBytesPerItem"}, {0});
  bool ready = true;
  gpa_uint32 count = 0, u32 = 0;
  gpa_uint64 u64 = 0;
  gpa_float64 f64 = 0;
  gpa_float32 f32 = 0;
  EXPECT_EQ(GPA_IsSessionReady(&ready, 2), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_FALSE(ready);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("sessionID 2"));
  EXPECT_EQ(GPA_IsSampleReady(&ready, 0, 0), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(GPA_GetSampleCount(2, &count), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(GPA_GetSampleUInt64(2, 0, 0, &u64), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(GPA_GetSampleUInt32(2, 0, 0, &u32), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(GPA_GetSampleFloat64(2, 0, 2, &f64), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
  EXPECT_EQ(GPA_GetSampleFloat32(2, 0, 2, &f32), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
}

TEST_F(Gpa2Test, IsSessionReadyIsFalseWhileRecordingOrWhileTheGpuIsBusyAndTrueOnceDone) {
  Open();
  const gpa_uint32 session = BeginSessionWith({"FakeTotalWork"});
  bool ready = true;
  ASSERT_EQ(GPA_IsSessionReady(&ready, session), GPA_STATUS_OK);
  EXPECT_FALSE(ready);
  RecordPass({0});
  ASSERT_EQ(GPA_EndSession(), GPA_STATUS_OK);
  device_.passes_complete = false;
  ASSERT_EQ(GPA_IsSessionReady(&ready, session), GPA_STATUS_OK);
  EXPECT_FALSE(ready);
  ASSERT_EQ(GPA_IsSampleReady(&ready, session, 0), GPA_STATUS_OK);
  EXPECT_FALSE(ready);
  device_.passes_complete = true;
  ASSERT_EQ(GPA_IsSessionReady(&ready, session), GPA_STATUS_OK);
  EXPECT_TRUE(ready);
  ASSERT_EQ(GPA_IsSampleReady(&ready, session, 0), GPA_STATUS_OK);
  EXPECT_TRUE(ready);
}

TEST_F(Gpa2Test, IsSampleReadyOfASampleMissingFromAPassIsSampleNotFoundInAllPasses) {
  device_.block_limit = 1;
  Open();
  const gpa_uint32 session = BeginSessionWith({"FakeTotalWork"});  // two passes
  RecordPass({1});
  bool ready = true;
  EXPECT_EQ(GPA_IsSampleReady(&ready, session, 1), GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES);  // pass 2 to come
  RecordPass({1});
  ASSERT_EQ(GPA_EndSession(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_IsSampleReady(&ready, session, 1), GPA_STATUS_OK);
  EXPECT_EQ(GPA_IsSampleReady(&ready, session, 7), GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES);
  EXPECT_FALSE(ready);
}

TEST_F(Gpa2Test, GetSampleCountCountsTheSamplesOfASession) {
  Open();
  const gpa_uint32 session = RecordSession({"FakeTotalWork"}, {10, 20, 30});
  gpa_uint32 count = 0;
  ASSERT_EQ(GPA_GetSampleCount(session, &count), GPA_STATUS_OK);
  EXPECT_EQ(count, 3u);
}

TEST_F(Gpa2Test, GetSampleOfACounterBeyondTheLastIsIndexOutOfRange) {
  Open();
  const gpa_uint32 session = RecordSession({"FakeTotalWork"}, {0});
  gpa_uint64 u64 = 0;
  gpa_uint32 u32 = 0;
  gpa_float64 f64 = 0;
  gpa_float32 f32 = 0;
  EXPECT_EQ(GPA_GetSampleUInt64(session, 0, 6, &u64), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("counterIndex 6"));
  EXPECT_EQ(GPA_GetSampleUInt32(session, 0, 6, &u32), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
  EXPECT_EQ(GPA_GetSampleFloat64(session, 0, 6, &f64), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
  EXPECT_EQ(GPA_GetSampleFloat32(session, 0, 6, &f32), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
}

TEST_F(Gpa2Test, GetSampleOfACounterNotEnabledInTheSessionIsNotEnabled) {
  Open();
  const gpa_uint32 session = RecordSession({"FakeTotalWork"}, {0});
  ASSERT_EQ(GPA_EnableCounterStr("FakeScaledBytes"), GPA_STATUS_OK);  // enabled after the session: not in it
  gpa_uint64 u64 = 0;
  gpa_uint32 u32 = 0;
  gpa_float64 f64 = 0;
  gpa_float32 f32 = 0;
  EXPECT_EQ(GPA_GetSampleUInt64(session, 0, Index("FakeScaledBytes"), &u64), GPA_STATUS_ERROR_NOT_ENABLED);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("('FakeScaledBytes') was not enabled in session 1"));
  EXPECT_EQ(GPA_GetSampleUInt32(session, 0, Index("FakeScaledBytes"), &u32), GPA_STATUS_ERROR_NOT_ENABLED);
  EXPECT_EQ(GPA_GetSampleFloat64(session, 0, Index("FakeTimeMs"), &f64), GPA_STATUS_ERROR_NOT_ENABLED);
  EXPECT_EQ(GPA_GetSampleFloat32(session, 0, Index("FakeTimeMs"), &f32), GPA_STATUS_ERROR_NOT_ENABLED);
}

TEST_F(Gpa2Test, GetSampleWithNullResultIsNullPointer) {
  Open();
  const gpa_uint32 session = RecordSession({"FakeTotalWork", "FakeTimeMs"}, {0});
  EXPECT_EQ(GPA_GetSampleUInt64(session, 0, 0, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_EQ(GPA_GetSampleUInt32(session, 0, 0, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_EQ(GPA_GetSampleFloat64(session, 0, 3, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
  EXPECT_EQ(GPA_GetSampleFloat32(session, 0, 3, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, GetSampleOfAnotherTypeIsCounterNotOfSpecifiedTypeAndNamesTheRightFunction) {
  Open();
  const gpa_uint32 session = RecordSession({"FakeTotalWork", "FakeTimeMs"}, {0});
  gpa_uint64 u64 = 0;
  gpa_uint32 u32 = 0;
  gpa_float64 f64 = 0;
  gpa_float32 f32 = 0;
  EXPECT_EQ(GPA_GetSampleFloat64(session, 0, Index("FakeTotalWork"), &f64),
            GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("GPA_GetSampleUInt64"));
  EXPECT_EQ(GPA_GetSampleUInt64(session, 0, Index("FakeTimeMs"), &u64), GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE);
  EXPECT_THAT(V2Log::LastError(), HasSubstr("GPA_GetSampleFloat64"));
  // No catalog has 32-bit counters: the 32-bit reads refuse every counter.
  EXPECT_EQ(GPA_GetSampleUInt32(session, 0, Index("FakeTotalWork"), &u32),
            GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE);
  EXPECT_EQ(GPA_GetSampleFloat32(session, 0, Index("FakeTimeMs"), &f32),
            GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE);
}

TEST_F(Gpa2Test, GetSampleOfASessionStillRecordedIsSamplingNotEnded) {
  Open();
  const gpa_uint32 session = BeginSessionWith({"FakeTotalWork"});
  RecordPass({0});
  gpa_uint64 value = 0;
  EXPECT_EQ(GPA_GetSampleUInt64(session, 0, 0, &value), GPA_STATUS_ERROR_SAMPLING_NOT_ENDED);
}

TEST_F(Gpa2Test, GetSampleOfAnUnknownSampleIsSampleNotFound) {
  Open();
  const gpa_uint32 session = RecordSession({"FakeTotalWork"}, {0});
  gpa_uint64 value = 0;
  EXPECT_EQ(GPA_GetSampleUInt64(session, 5, 0, &value), GPA_STATUS_ERROR_SAMPLE_NOT_FOUND);
}

TEST_F(Gpa2Test, GetSampleThatCannotBeReadIsReadingCounterResult) {
  Open();
  const gpa_uint32 session = RecordSession({"FakeTotalWork"}, {0});
  device_.read_status = kGpaStatusErrorFailed;
  gpa_uint64 value = 0;
  EXPECT_EQ(GPA_GetSampleUInt64(session, 0, 0, &value), GPA_STATUS_ERROR_READING_COUNTER_RESULT);
}

TEST_F(Gpa2Test, MultiPassSamplesReadTheFakeBackendsGroundTruth) {
  device_.block_limit = 1;
  Open();
  const gpa_uint32 session = RecordSession({"FakeTotalWork", "FakeBytesPerItem", "FakeTimeMs"}, {40, 50});
  gpa_uint64 work = 0;
  gpa_float64 ratio = 0, time = 0;
  for (gpa_uint32 slot = 0; slot < 2; ++slot) {
    const gpa_uint32 sample = slot == 0 ? 40 : 50;
    ASSERT_EQ(GPA_GetSampleUInt64(session, sample, Index("FakeTotalWork"), &work), GPA_STATUS_OK);
    ASSERT_EQ(GPA_GetSampleFloat64(session, sample, Index("FakeBytesPerItem"), &ratio), GPA_STATUS_OK);
    ASSERT_EQ(GPA_GetSampleFloat64(session, sample, Index("FakeTimeMs"), &time), GPA_STATUS_OK);
    EXPECT_EQ(work, TotalWork(slot));
    EXPECT_DOUBLE_EQ(ratio, BytesPerItem(slot));
    EXPECT_DOUBLE_EQ(time, TimeMs(slot));
  }
}

TEST_F(Gpa2Test, ValuesAreThoseAV3ClientReadsForTheSameWork) {
  device_.block_limit = 1;
  Open();
  gpa_uint32 count = 0;
  ASSERT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_OK);
  const gpa_uint32 v2_session = RecordSession(
      {"FakeTotalWork", "FakeBusyPercent", "FakeBytesPerItem", "FakeTimeMs", "FakeScaledBytes", "FakeNegative"},
      {3, 9});

  // The same samples through the v3 API, on a second fake device of the same library.
  fake::FakeDevice v3_device;
  v3_device.block_limit = 1;
  GpaContextId context = nullptr;
  GpaSessionId session = nullptr;
  ASSERT_EQ(GpaOpenContext(&v3_device, kGpaOpenContextDefaultBit, &context), kGpaStatusOk);
  ASSERT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk);
  for (gpa_uint32 i = 0; i < count; ++i) ASSERT_EQ(GpaEnableCounter(session, i), kGpaStatusOk);
  ASSERT_EQ(GpaBeginSession(session), kGpaStatusOk);
  GpaUInt32 passes = 0;
  ASSERT_EQ(GpaGetPassCount(session, &passes), kGpaStatusOk);
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    GpaCommandListId list = nullptr;
    ASSERT_EQ(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
    for (GpaUInt32 id : {3u, 9u}) {
      ASSERT_EQ(GpaBeginSample(id, list), kGpaStatusOk);
      ASSERT_EQ(GpaEndSample(list), kGpaStatusOk);
    }
    ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  }
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);

  for (GpaUInt32 id : {3u, 9u}) {
    std::vector<GpaUInt64> words(count);
    ASSERT_EQ(GpaGetSampleResult(session, id, count * sizeof(GpaUInt64), words.data()), kGpaStatusOk);
    for (gpa_uint32 i = 0; i < count; ++i) {
      GPA_Type type;
      ASSERT_EQ(GPA_GetCounterDataType(i, &type), GPA_STATUS_OK);
      if (type == GPA_TYPE_UINT64) {
        gpa_uint64 value = 0;
        ASSERT_EQ(GPA_GetSampleUInt64(v2_session, id, i, &value), GPA_STATUS_OK);
        EXPECT_EQ(value, words[i]) << "counter " << i;
      } else {
        gpa_float64 value = 0;
        double v3_value = 0;
        std::memcpy(&v3_value, &words[i], sizeof v3_value);
        ASSERT_EQ(GPA_GetSampleFloat64(v2_session, id, i, &value), GPA_STATUS_OK);
        EXPECT_EQ(value, v3_value) << "counter " << i;  // bit for bit: no unit conversion on these
      }
    }
  }
  EXPECT_EQ(GpaCloseContext(context), kGpaStatusOk);
}

TEST_F(Gpa2Test, AContextKeepsItsLast32SessionsAndForgetsOlderOnes) {
  Open();
  gpa_uint32 last = 0;
  for (int i = 0; i < 33; ++i)
    last = RecordSession(i == 0 ? std::vector<const char*>{"FakeTotalWork"} : std::vector<const char*>{}, {0});
  ASSERT_EQ(last, 33u);
  bool ready = false;
  EXPECT_EQ(GPA_IsSessionReady(&ready, 1), GPA_STATUS_ERROR_SESSION_NOT_FOUND);  // replaced by session 33
  EXPECT_EQ(GPA_IsSessionReady(&ready, 2), GPA_STATUS_OK);
  EXPECT_TRUE(ready);
  EXPECT_EQ(device_.sessions_alive, 32);  // the sessions kept; older ones were deleted from the backend too
  gpa_uint64 value = 0;
  ASSERT_EQ(GPA_GetSampleUInt64(2, 0, 0, &value), GPA_STATUS_OK);
  EXPECT_EQ(value, TotalWork(0));
}

}  // namespace
}  // namespace opengpa::gpa2test
