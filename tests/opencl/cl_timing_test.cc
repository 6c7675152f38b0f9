// The timing counters of OpenCL samples against the application's own kernel events and host time.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "cl_test_fixture.h"

namespace opengpa::testing {
namespace {

using Clock = std::chrono::steady_clock;

class ClTimingTest : public ClTest {
 protected:
  // Loop length per work item: milliseconds on PoCL's CPU device, tens of microseconds on the H100.
  static constexpr int kIterations = 20000;
};

TEST_F(ClTimingTest, ASampleBracketsTheKernelsEnqueuedInsideIt) {
  OpenGpa();
  cl_event first = nullptr;
  cl_event second = nullptr;
  const auto start = Clock::now();
  auto values = Collect({"GPUTime", "ExecutionStart", "ExecutionEnd", "ExecutionDuration"}, {[&] {
                          env_->EnqueueSpin(env_->queue(), kIterations, &first);
                          env_->EnqueueSpin(env_->queue(), kIterations, &second);
                        }});
  const double host_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  ASSERT_EQ(values.size(), 1u);
  const double kernels_ns = ProfiledNs(first, CL_PROFILING_COMMAND_START, second, CL_PROFILING_COMMAND_END);
  clReleaseEvent(first);
  clReleaseEvent(second);
  EXPECT_GT(kernels_ns, 0);
  EXPECT_GE(values[0]["GPUTime"], kernels_ns);
  EXPECT_LE(values[0]["GPUTime"], host_ns);
  EXPECT_LT(values[0]["ExecutionStart"], values[0]["ExecutionEnd"]);
  EXPECT_EQ(values[0]["ExecutionDuration"], values[0]["ExecutionEnd"] - values[0]["ExecutionStart"]);
  EXPECT_EQ(values[0]["GPUTime"], values[0]["ExecutionDuration"]);
  EXPECT_LE(values[0]["ExecutionEnd"], host_ns);  // both measured from (before) GpaBeginSession
}

TEST_F(ClTimingTest, TheBracketingCommandsRunBeforeAndAfterTheSamplesKernel) {
  OpenGpa();
  cl_event kernel = nullptr;
  auto values = Collect({"BeginMarkerEnd", "EndMarkerStart", "EndMarkerEnd", "BeginMarkerQueued"},
                        {[&] { env_->EnqueueSpin(env_->queue(), kIterations, &kernel); }});
  ASSERT_EQ(values.size(), 1u);
  const double kernel_ns = ProfiledNs(kernel, CL_PROFILING_COMMAND_START, kernel, CL_PROFILING_COMMAND_END);
  clReleaseEvent(kernel);
  // The kernel ran entirely between the begin marker's end and the end marker's start.
  EXPECT_GE(values[0]["EndMarkerStart"] - values[0]["BeginMarkerEnd"], kernel_ns);
  EXPECT_LE(values[0]["EndMarkerStart"], values[0]["EndMarkerEnd"]);
  EXPECT_GE(values[0]["BeginMarkerQueued"], 0);
}

TEST_F(ClTimingTest, SamplesAreOrderedInTime) {
  OpenGpa();
  std::vector<std::function<void()>> work;
  for (int i = 0; i < 5; ++i) work.push_back([this] { env_->EnqueueSpin(env_->queue(), kIterations / 4, nullptr); });
  auto values = Collect({"ExecutionStart", "ExecutionEnd", "GPUTime"}, work);
  ASSERT_EQ(values.size(), work.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_GT(values[i]["GPUTime"], 0) << "sample " << i;
    EXPECT_LT(values[i]["ExecutionStart"], values[i]["ExecutionEnd"]) << "sample " << i;
    if (i > 0) {
      EXPECT_LE(values[i - 1]["ExecutionEnd"], values[i]["ExecutionStart"]) << "sample " << i;
    }
  }
}

TEST_F(ClTimingTest, TwiceTheWorkTakesLonger) {
  OpenGpa();
  // Each size three times, interleaved; the fastest of each is compared, so a sample the shared CPU (PoCL)
  // was taken away from cannot decide the outcome.
  std::vector<std::function<void()>> work;
  for (int round = 0; round < 3; ++round) {
    work.push_back([this] { env_->EnqueueSpin(env_->queue(), kIterations, nullptr); });
    work.push_back([this] { env_->EnqueueSpin(env_->queue(), 2 * kIterations, nullptr); });
  }
  auto values = Collect({"GPUTime"}, work);
  ASSERT_EQ(values.size(), work.size());
  const double single = FastestOf(values, "GPUTime", 0, 2);
  const double twice = FastestOf(values, "GPUTime", 1, 2);
  EXPECT_GT(single, 0);
  EXPECT_GT(twice, 1.3 * single);  // generous: twice the work must not pass for the same work
}

TEST_F(ClTimingTest, QueueToStartLatencyIncludesWaitingBehindEarlierWork) {
  OpenGpa();
  GpaSessionId session = nullptr;
  std::string failed_call;
  ASSERT_EQ(sampler_->BeginSession({"QueueToStartLatency"}, &session, &failed_call), kGpaStatusOk) << failed_call;
  GpaCommandListId list = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  // Sample 0 begins on an idle queue.
  clFinish(env_->queue());
  ASSERT_EQ(GpaBeginSample(0, list), kGpaStatusOk);
  env_->EnqueueSpin(env_->queue(), 10, nullptr);
  ASSERT_EQ(GpaEndSample(list), kGpaStatusOk);
  clFinish(env_->queue());
  // Sample 1 begins right behind the application's long kernel, which is in no sample.
  cl_event earlier = nullptr;
  env_->EnqueueSpin(env_->queue(), 4 * kIterations, &earlier);
  clFlush(env_->queue());
  ASSERT_EQ(GpaBeginSample(1, list), kGpaStatusOk);
  env_->EnqueueSpin(env_->queue(), 10, nullptr);
  ASSERT_EQ(GpaEndSample(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  GpaUInt64 idle_latency = 0;
  GpaUInt64 busy_latency = 0;
  ASSERT_EQ(GpaGetSampleResult(session, 0, sizeof idle_latency, &idle_latency), kGpaStatusOk) << GpaLog::Text();
  ASSERT_EQ(GpaGetSampleResult(session, 1, sizeof busy_latency, &busy_latency), kGpaStatusOk) << GpaLog::Text();
  GpaDeleteSession(session);
  const double earlier_ns = ProfiledNs(earlier, CL_PROFILING_COMMAND_START, earlier, CL_PROFILING_COMMAND_END);
  clReleaseEvent(earlier);
  EXPECT_GE(static_cast<double>(busy_latency), 0.5 * earlier_ns);
  EXPECT_GT(busy_latency, idle_latency);
}

TEST_F(ClTimingTest, SamplesBracketTheirKernelsOnAnOutOfOrderQueueToo) {
  cl_command_queue queue = env_->CreateQueue(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  if (queue == nullptr) GTEST_SKIP() << "the device offers no out-of-order queues";
  ASSERT_EQ(sampler_->Open(queue, kGpaOpenContextEnableHardwareCountersBit), kGpaStatusOk) << GpaLog::Text();
  cl_event inside = nullptr;
  std::vector<SampleValues> values;
  std::string failed_call;
  GpaStatus status = sampler_->Run(
      {"BeginMarkerEnd", "EndMarkerStart", "GPUTime"}, {[&] { env_->EnqueueSpin(queue, kIterations, &inside); }},
      [queue] { clFinish(queue); }, &values, &failed_call);
  ASSERT_EQ(status, kGpaStatusOk) << failed_call << "\n" << GpaLog::Text();
  const double inside_ns = ProfiledNs(inside, CL_PROFILING_COMMAND_START, inside, CL_PROFILING_COMMAND_END);
  clReleaseEvent(inside);
  ASSERT_EQ(values.size(), 1u);
  EXPECT_GE(values[0]["EndMarkerStart"] - values[0]["BeginMarkerEnd"], inside_ns);
  EXPECT_GE(values[0]["GPUTime"], inside_ns);
  sampler_.reset();  // close GPA's context before the queue goes
  clReleaseCommandQueue(queue);
}

}  // namespace
}  // namespace opengpa::testing
