// A v2 client of libGPUPerfAPICL.so on PoCL: GPA_OpenContext takes the cl_command_queue, as the v2 guide says.
// The kernels of tests/opencl, bracketed by v2 samples, read the v3 timing counters converted to milliseconds.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "cl_test_fixture.h"
#include "tests/gpa2/gpa2_recorder.h"

namespace opengpa::testing {
namespace {

using gpa2test::RecordV2;

class ClGpa2Test : public ClTest {
 protected:
  static constexpr int kIterations = 20000;
  void SetUp() override {
    ClTest::SetUp();
    if (HasFatalFailure()) return;
    sampler_.reset();  // the v3 sampler of ClTest is not used: this is a v2 client
    ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
    ASSERT_EQ(GPA_OpenContext(env_->queue()), GPA_STATUS_OK);
  }
  void TearDown() override {
    EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
    EXPECT_EQ(GPA_Destroy(), GPA_STATUS_OK);
  }
};

TEST_F(ClGpa2Test, TimingCountersAreMillisecondsThatBracketTheKernelsOfTheSample) {
  cl_event first = nullptr, second = nullptr;
  cl_command_queue queue = env_->queue();
  const auto start = std::chrono::steady_clock::now();
  std::string error;
  auto values = RecordV2(
      {"GPUTime", "ExecutionStart", "ExecutionEnd", "ExecutionDuration", "QueueToStartLatency"}, {[&] {
        env_->EnqueueSpin(queue, kIterations, &first);
        env_->EnqueueSpin(queue, kIterations, &second);
      }},
      [queue] { clFinish(queue); }, &error);
  const double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(values.size(), 1u) << error;
  const double kernels_ms = ProfiledNs(first, CL_PROFILING_COMMAND_START, second, CL_PROFILING_COMMAND_END) / 1e6;
  clReleaseEvent(first);
  clReleaseEvent(second);
  auto& v = values[0];
  EXPECT_GT(kernels_ms, 0);
  EXPECT_GE(v["GPUTime"], kernels_ms);  // the application's own events, in milliseconds
  EXPECT_LE(v["GPUTime"], host_ms);
  // The v3 formulas (GPUTime = ExecutionDuration = ExecutionEnd - ExecutionStart, ns) hold after the scaling.
  EXPECT_EQ(v["GPUTime"], v["ExecutionDuration"]);
  EXPECT_NEAR(v["ExecutionDuration"], v["ExecutionEnd"] - v["ExecutionStart"], 1e-9 * v["ExecutionEnd"]);
  EXPECT_GE(v["QueueToStartLatency"], 0);
}

TEST_F(ClGpa2Test, EveryCounterIsMillisecondsAsAFloat64) {
  gpa_uint32 count = 0;
  ASSERT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_OK);
  ASSERT_EQ(count, 5u);  // catalogs/opencl.json
  for (gpa_uint32 i = 0; i < count; ++i) {
    GPA_Type type;
    GPA_Usage_Type usage;
    ASSERT_EQ(GPA_GetCounterDataType(i, &type), GPA_STATUS_OK);
    ASSERT_EQ(GPA_GetCounterUsageType(i, &usage), GPA_STATUS_OK);
    EXPECT_EQ(type, GPA_TYPE_FLOAT64) << i;
    EXPECT_EQ(usage, GPA_USAGE_TYPE_MILLISECONDS) << i;
  }
}

TEST_F(ClGpa2Test, SamplesAreOrderedInTimeAcrossTheSession) {
  cl_command_queue queue = env_->queue();
  std::string error;
  std::vector<std::function<void()>> work(3, [&] { env_->EnqueueSpin(queue, kIterations / 4, nullptr); });
  auto values = RecordV2(
      {"ExecutionStart", "ExecutionEnd"}, work, [queue] { clFinish(queue); }, &error);
  ASSERT_EQ(values.size(), 3u) << error;
  for (size_t i = 1; i < values.size(); ++i) {
    EXPECT_GE(values[i]["ExecutionStart"], values[i - 1]["ExecutionEnd"]) << "sample " << i;
  }
}

TEST_F(ClGpa2Test, AQueueAlreadyOpenIsCountersAlreadyOpen) {
  EXPECT_EQ(GPA_OpenContext(env_->queue()), GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN);
}

}  // namespace
}  // namespace opengpa::testing
