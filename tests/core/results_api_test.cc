// Results: GpaIsPassComplete, GpaIsSessionComplete, GpaGetSampleResultSize, GpaGetSampleResult,
// checked against values computed from the fake backend's hardware values.
#include <cmath>

#include "tests/core/gpa_api_test_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

using fake::FakeHardwareValue;

// What each derived counter of the fake catalog must read for sample slot `s` (hardware values
// FakeCycles=0, FakeItems=1, FakeBytes=2, FakeBusy=3, FakeTime=4).
double ExpectedValue(const std::string& counter, GpaUInt32 s) {
  const auto hw = [s](GpaUInt32 h) { return FakeHardwareValue(h, s); };
  if (counter == "FakeTotalWork") return hw(0) + hw(1);
  if (counter == "FakeBusyPercent") return std::max(std::min(hw(3) / hw(0) * 100, 100.0), 0.0);
  if (counter == "FakeBytesPerItem") return hw(2) / hw(1);
  if (counter == "FakeTimeMs") return hw(4) / 1e6;
  if (counter == "FakeScaledBytes") return hw(2) * 4 * fake::kUnitsConstant;
  if (counter == "FakeNegative") return 0;
  ADD_FAILURE() << "no expectation for " << counter;
  return 0;
}

class ResultsTest : public GpaApiTest {
 protected:
  // Checks every enabled counter of every sample; slot_of(sample id) gives the fake's slot.
  void ExpectAllResults(GpaSessionId session, const std::vector<GpaUInt32>& sample_ids) {
    GpaUInt32 enabled = 0;
    ASSERT_EQ(GpaGetNumEnabledCounters(session, &enabled), kGpaStatusOk);
    for (GpaUInt32 slot = 0; slot < sample_ids.size(); ++slot) {
      const std::vector<GpaUInt64> values = Results(session, sample_ids[slot]);
      ASSERT_EQ(values.size(), enabled);
      for (GpaUInt32 e = 0; e < enabled; ++e) {
        GpaUInt32 index = 0;
        const char* name = nullptr;
        GpaDataType type;
        ASSERT_EQ(GpaGetEnabledIndex(session, e, &index), kGpaStatusOk);
        ASSERT_EQ(GpaGetCounterName(context_, index, &name), kGpaStatusOk);
        ASSERT_EQ(GpaGetCounterDataType(context_, index, &type), kGpaStatusOk);
        const double expected = ExpectedValue(name, slot);
        if (type == kGpaDataTypeUint64) {
          EXPECT_EQ(values[e], static_cast<GpaUInt64>(std::llround(expected)))
              << name << " sample " << sample_ids[slot];
        } else {
          EXPECT_DOUBLE_EQ(AsDouble(values[e]), expected) << name << " sample " << sample_ids[slot];
        }
      }
    }
  }
};

TEST_F(ResultsTest, EveryDerivedCounterIsEvaluatedFromTheHardwareValues) {
  GpaSessionId session = BegunSession(
      {"FakeTotalWork", "FakeBusyPercent", "FakeBytesPerItem", "FakeTimeMs", "FakeScaledBytes", "FakeNegative"});
  ASSERT_EQ(PassCount(session), 1u);
  const std::vector<GpaUInt32> ids = {0, 1, 2, 3};
  RecordAllPasses(session, ids);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  ExpectAllResults(session, ids);
}

TEST_F(ResultsTest, MultiPassResultsCombineEveryPassForTheSameSampleId) {
  device_.block_limit = 1;
  GpaSessionId session = BegunSession({"FakeTotalWork", "FakeBusyPercent", "FakeBytesPerItem", "FakeTimeMs"});
  ASSERT_EQ(PassCount(session), 2u);
  const std::vector<GpaUInt32> ids = {7, 3, 1u << 24, 11};  // sparse, unordered, one beyond the dense table
  RecordAllPasses(session, ids);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk) << ErrorLog::Last();
  ExpectAllResults(session, ids);
}

TEST_F(ResultsTest, PassesMayRecordTheSameSamplesInADifferentOrder) {
  device_.block_limit = 1;
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  RecordPass(session, 0, {5, 6, 7});
  RecordPass(session, 1, {7, 5, 6});
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  ExpectAllResults(session, {5, 6, 7});
}

TEST_F(ResultsTest, ResultsAreReadOnceAndKeptUntilTheSessionIsDeleted) {
  GpaSessionId session = BegunSession({"FakeTotalWork", "FakeTimeMs"});
  RecordAllPasses(session, {0, 1, 2});
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  const std::vector<GpaUInt64> first = Results(session, 2);
  EXPECT_EQ(device_.read_results_calls.load(), 1);
  device_.passes_complete = false;  // kept results do not depend on the GPU any more
  EXPECT_EQ(Results(session, 2), first);
  EXPECT_EQ(GpaIsSessionComplete(session), kGpaStatusOk);
  Results(session, 0);
  EXPECT_EQ(device_.read_results_calls.load(), 1);
  ASSERT_EQ(GpaDeleteSession(session), kGpaStatusOk);
  GpaUInt64 values[2];
  EXPECT_EQ(GpaGetSampleResult(session, 2, sizeof values, values), kGpaStatusErrorSessionNotFound);
}

TEST_F(ResultsTest, AFailedReadIsReportedAndRetriedOnTheNextCall) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  RecordAllPasses(session, {0});
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  device_.read_status = kGpaStatusErrorTimeout;
  GpaUInt64 value = 0;
  EXPECT_EQ(GpaGetSampleResult(session, 0, sizeof value, &value), kGpaStatusErrorReadingSampleResult);
  device_.read_status = kGpaStatusOk;
  EXPECT_EQ(GpaGetSampleResult(session, 0, sizeof value, &value), kGpaStatusOk);
  EXPECT_EQ(value, static_cast<GpaUInt64>(FakeHardwareValue(0, 0) + FakeHardwareValue(1, 0)));
}

// A sample the backend measured only in part (NVIDIA's sampler triggers ran ahead of its work) has no result, with
// the reason in the log; the session's other samples keep theirs.
TEST_F(ResultsTest, ASampleMeasuredInPartHasNoResultAndTheOthersKeepTheirs) {
  GpaSessionId session = BegunSession({"FakeTotalWork"});
  RecordAllPasses(session, {0, 1});
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  device_.incomplete_slot = 1;
  GpaUInt64 value = 0;
  EXPECT_EQ(GpaGetSampleResult(session, 1, sizeof value, &value), kGpaStatusErrorReadingSampleResult);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("sample_id 1 has no result: the fake device measured it in part"));
  ASSERT_EQ(GpaGetSampleResult(session, 0, sizeof value, &value), kGpaStatusOk);
  EXPECT_EQ(value, static_cast<GpaUInt64>(FakeHardwareValue(0, 0) + FakeHardwareValue(1, 0)));
  device_.incomplete_slot = -1;
}

TEST_F(ResultsTest, ResultSizeIsEightBytesPerEnabledCounter) {
  GpaSessionId session = BegunSession({"FakeTotalWork", "FakeTimeMs", "FakeScaledBytes"});
  RecordAllPasses(session, {4});
  std::size_t size = 0;
  EXPECT_EQ(GpaGetSampleResultSize(session, 4, &size), kGpaStatusErrorSessionNotEnded);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  ASSERT_EQ(GpaGetSampleResultSize(session, 4, &size), kGpaStatusOk);
  EXPECT_EQ(size, 24u);
  EXPECT_EQ(GpaGetSampleResultSize(session, 5, &size), kGpaStatusErrorSampleNotFound);
  EXPECT_EQ(GpaGetSampleResultSize(nullptr, 4, &size), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetSampleResultSize(session, 4, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetSampleResultSize(GarbageId<GpaSessionId>(), 4, &size), kGpaStatusErrorSessionNotFound);
}

TEST_F(ResultsTest, GetSampleResultRejectsBadArgumentsAndStates) {
  GpaSessionId session = BegunSession({"FakeTotalWork", "FakeTimeMs"});
  RecordAllPasses(session, {4});
  GpaUInt64 values[2];
  EXPECT_EQ(GpaGetSampleResult(session, 4, sizeof values, values), kGpaStatusErrorSessionNotEnded);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  EXPECT_EQ(GpaGetSampleResult(nullptr, 4, sizeof values, values), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaGetSampleResult(session, 4, sizeof values, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("counter_sample_results"));
  EXPECT_EQ(GpaGetSampleResult(GarbageId<GpaSessionId>(), 4, sizeof values, values), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaGetSampleResult(session, 5, sizeof values, values), kGpaStatusErrorSampleNotFound);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("sample_id 5"));
  EXPECT_EQ(GpaGetSampleResult(session, 4, 8, values), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(ErrorLog::Last(), HasSubstr("sample_result_size_in_bytes 8 differs from the result size 16"));
  EXPECT_EQ(GpaGetSampleResult(session, 4, sizeof values, values), kGpaStatusOk);
}

TEST_F(ResultsTest, CompletionFollowsTheBackendOnceThePassIsRecorded) {
  GpaContextId first_context = OpenContext();
  GpaSessionId unbegun = CreateSession(first_context);
  EXPECT_EQ(GpaIsPassComplete(unbegun, 0), kGpaStatusErrorSessionNotStarted);
  EXPECT_EQ(GpaIsSessionComplete(unbegun), kGpaStatusErrorSessionNotStarted);
  ASSERT_EQ(GpaCloseContext(first_context), kGpaStatusOk);

  GpaSessionId session = BegunSession({"FakeTotalWork"});
  EXPECT_EQ(GpaIsPassComplete(session, 0), kGpaStatusResultNotReady) << "nothing recorded yet";
  EXPECT_EQ(GpaIsSessionComplete(session), kGpaStatusErrorSessionNotEnded);
  RecordAllPasses(session, {0});
  device_.passes_complete = false;
  EXPECT_EQ(GpaIsPassComplete(session, 0), kGpaStatusResultNotReady);
  device_.passes_complete = true;
  EXPECT_EQ(GpaIsPassComplete(session, 0), kGpaStatusOk);
  EXPECT_EQ(GpaIsPassComplete(session, 1), kGpaStatusErrorIndexOutOfRange);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  device_.passes_complete = false;
  EXPECT_EQ(GpaIsSessionComplete(session), kGpaStatusResultNotReady);
  device_.passes_complete = true;
  EXPECT_EQ(GpaIsSessionComplete(session), kGpaStatusOk);
  EXPECT_EQ(GpaIsPassComplete(nullptr, 0), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaIsPassComplete(GarbageId<GpaSessionId>(), 0), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(GpaIsSessionComplete(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(GpaIsSessionComplete(GarbageId<GpaSessionId>()), kGpaStatusErrorSessionNotFound);
}

TEST_F(ResultsTest, HardwareCountersCanBeReadAsThemselves) {
  context_ = OpenContext(device_, kGpaOpenContextEnableHardwareCountersBit);
  GpaSessionId session = CreateSession(context_);
  ASSERT_EQ(GpaEnableCounterByName(session, "FakeTime"), kGpaStatusOk);
  ASSERT_EQ(GpaEnableCounterByName(session, "FakeBytes"), kGpaStatusOk);
  ASSERT_EQ(GpaBeginSession(session), kGpaStatusOk);
  RecordAllPasses(session, {0, 1});
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  const std::vector<GpaUInt64> values = Results(session, 1);
  ASSERT_EQ(values.size(), 2u);
  EXPECT_DOUBLE_EQ(AsDouble(values[0]), FakeHardwareValue(4, 1));
  EXPECT_EQ(values[1], static_cast<GpaUInt64>(FakeHardwareValue(2, 1)));
}

}  // namespace
}  // namespace opengpa::testing
