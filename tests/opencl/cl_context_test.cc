// GpaOpenContext on a cl_command_queue, and what the context then reports.
#include <gtest/gtest.h>

#include <string>

#include "cl_test_fixture.h"

namespace opengpa::testing {
namespace {

using ClContextTest = ClTest;

TEST_F(ClContextTest, OpensAProfilingQueueAndReportsItsDevice) {
  OpenGpa(kGpaOpenContextDefaultBit);
  const char* name = nullptr;
  ASSERT_EQ(GpaGetDeviceName(sampler_->context(), &name), kGpaStatusOk);
  EXPECT_EQ(std::string(name), env_->device_name());
  // Read as an int: kGpaHwGenerationSoftware (opengpa_ext.h) is outside GpaHwGeneration, and C++ may not load
  // it as the enum (UBSan's enum check, docs/sanitizers.md).
  int generation = kGpaHwGenerationNone;
  ASSERT_EQ(GpaGetDeviceGeneration(sampler_->context(), reinterpret_cast<GpaHwGeneration*>(&generation)), kGpaStatusOk);
  EXPECT_EQ(generation, static_cast<int>(env_->is_cpu() ? kGpaHwGenerationSoftware : kGpaHwGenerationNvidia));
}

TEST_F(ClContextTest, RejectsAQueueCreatedWithoutProfilingAndSaysWhy) {
  cl_command_queue plain = env_->CreateQueue(0);
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(sampler_->Open(plain), kGpaStatusErrorInvalidParameter);
  EXPECT_NE(GpaLog::Text().find("CL_QUEUE_PROFILING_ENABLE"), std::string::npos) << GpaLog::Text();
  clReleaseCommandQueue(plain);
}

TEST_F(ClContextTest, ExposesTheTimingCountersWithDescriptions) {
  OpenGpa(kGpaOpenContextDefaultBit);
  for (const char* name : {"GPUTime", "ExecutionStart", "ExecutionEnd", "ExecutionDuration", "QueueToStartLatency"}) {
    GpaUInt32 index = 0;
    ASSERT_EQ(GpaGetCounterIndex(sampler_->context(), name, &index), kGpaStatusOk) << name;
    const char* group = nullptr;
    const char* description = nullptr;
    GpaUsageType usage = kGpaUsageTypeLast;
    ASSERT_EQ(GpaGetCounterGroup(sampler_->context(), index, &group), kGpaStatusOk);
    ASSERT_EQ(GpaGetCounterDescription(sampler_->context(), index, &description), kGpaStatusOk);
    ASSERT_EQ(GpaGetCounterUsageType(sampler_->context(), index, &usage), kGpaStatusOk);
    EXPECT_EQ(std::string(group), "Timing") << name;
    EXPECT_GT(std::string(description).size(), 20u) << name;
    EXPECT_EQ(usage, kGpaUsageTypeNanoseconds) << name;
  }
}

TEST_F(ClContextTest, CollectsEveryCounterInOnePass) {
  OpenGpa();
  GpaUInt32 passes = 0;
  std::string failed_call;
  ASSERT_EQ(sampler_->CountPassesOfAllCounters(&passes, &failed_call), kGpaStatusOk) << failed_call;
  EXPECT_EQ(passes, 1u);
}

TEST_F(ClContextTest, KeepsWorkingAfterTheApplicationReleasesItsQueue) {
  cl_command_queue queue = env_->CreateQueue(CL_QUEUE_PROFILING_ENABLE);
  ASSERT_NE(queue, nullptr);
  ASSERT_EQ(sampler_->Open(queue), kGpaStatusOk) << GpaLog::Text();
  GpaSessionId session = nullptr;
  std::string failed_call;
  ASSERT_EQ(sampler_->BeginSession({"GPUTime"}, &session, &failed_call), kGpaStatusOk) << failed_call;
  GpaCommandListId list = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  ASSERT_EQ(GpaBeginSample(0, list), kGpaStatusOk);
  env_->EnqueueSpin(queue, 100, nullptr);
  ASSERT_EQ(GpaEndSample(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  clReleaseCommandQueue(queue);  // GPA holds its own reference
  double gpu_time = 0;           // GPUTime is float64, GPA's data type
  ASSERT_EQ(GpaGetSampleResult(session, 0, sizeof gpu_time, &gpu_time), kGpaStatusOk) << GpaLog::Text();
  EXPECT_GT(gpu_time, 0.0);
  GpaDeleteSession(session);
}

}  // namespace
}  // namespace opengpa::testing
