// GPUTime from GL_TIMESTAMP pairs: positive, ordered, bounded by host time, growing with the work, and
// never in the way of the application's own GL_TIME_ELAPSED query.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "gl_test_fixture.h"

namespace opengpa::testing {
namespace {

using Clock = std::chrono::steady_clock;

// Mesa 22.3's llvmpipe returns a garbage GL_TIME_ELAPSED result (about 10^12 ns) when the query spans a
// context's first draw with a program, with or without GPA; the application-query tests warm up first.
void WarmUp(const GlWorkloads& workloads, int iterations) {
  workloads.DrawHeavyFullScreenTriangle(iterations);
  glFinish();
}

class GlTimingTest : public GlTest {
 protected:
  // Fragment-shader loop length that keeps llvmpipe busy for milliseconds and the H100 for tens of microseconds.
  static constexpr int kIterations = 4000;
};

TEST_F(GlTimingTest, GpuTimeIsPositiveAndNoLongerThanTheHostWaitedForTheSample) {
  OpenGpa();
  workloads_.DrawHeavyFullScreenTriangle(kIterations);  // compile and warm up outside the measurement
  glFinish();
  const auto start = Clock::now();
  auto values = Collect({"GPUTime"}, {[this] { workloads_.DrawHeavyFullScreenTriangle(kIterations); }});
  const double host_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  ASSERT_EQ(values.size(), 1u);
  EXPECT_GT(values[0]["GPUTime"], 0);
  EXPECT_LE(values[0]["GPUTime"], host_ns);
}

TEST_F(GlTimingTest, SampleTimestampsAreOrderedAndEachSampleStartsAfterThePreviousEnded) {
  OpenGpa();
  std::vector<std::function<void()>> work;
  for (int i = 0; i < 5; ++i) work.push_back([this] { workloads_.DrawHeavyFullScreenTriangle(kIterations / 4); });
  auto values = Collect({"GL_TIMESTAMP_BEGIN", "GL_TIMESTAMP_END", "GPUTime"}, work);
  ASSERT_EQ(values.size(), work.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_LE(values[i]["GL_TIMESTAMP_BEGIN"], values[i]["GL_TIMESTAMP_END"]) << "sample " << i;
    EXPECT_EQ(values[i]["GPUTime"], values[i]["GL_TIMESTAMP_END"] - values[i]["GL_TIMESTAMP_BEGIN"]) << "sample " << i;
    if (i > 0) {
      EXPECT_LE(values[i - 1]["GL_TIMESTAMP_END"], values[i]["GL_TIMESTAMP_BEGIN"]) << "sample " << i;
    }
  }
}

TEST_F(GlTimingTest, ExecutionStartAndEndAreTheSampleTimestampsSinceTheSessionBeganWithinHostTime) {
  OpenGpa();
  workloads_.DrawHeavyFullScreenTriangle(kIterations);  // compile and warm up outside the measurement
  glFinish();
  std::vector<std::function<void()>> work;
  for (int i = 0; i < 4; ++i) work.push_back([this] { workloads_.DrawHeavyFullScreenTriangle(kIterations / 4); });
  const auto start = Clock::now();  // before GpaBeginSession, which takes the time origin
  auto values = Collect({"ExecutionStart", "ExecutionEnd", "GPUTime"}, work);
  const double host_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  ASSERT_EQ(values.size(), work.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_GE(values[i]["ExecutionStart"], 0) << "sample " << i;
    EXPECT_LT(values[i]["ExecutionStart"], values[i]["ExecutionEnd"]) << "sample " << i;
    EXPECT_EQ(values[i]["ExecutionEnd"] - values[i]["ExecutionStart"], values[i]["GPUTime"]) << "sample " << i;
    EXPECT_LE(values[i]["ExecutionEnd"], host_ns) << "sample " << i << ": ended after the host had its results";
    if (i > 0) EXPECT_LE(values[i - 1]["ExecutionEnd"], values[i]["ExecutionStart"]) << "sample " << i;
  }
}

TEST_F(GlTimingTest, TwiceTheFragmentWorkTakesLonger) {
  OpenGpa();
  workloads_.DrawHeavyFullScreenTriangle(kIterations);
  glFinish();
  // Each size three times, interleaved; the fastest of each is compared, so a sample the (shared, busy)
  // CPU running llvmpipe was taken away from cannot decide the outcome.
  std::vector<std::function<void()>> work;
  for (int round = 0; round < 3; ++round) {
    work.push_back([this] { workloads_.DrawHeavyFullScreenTriangle(kIterations); });
    work.push_back([this] { workloads_.DrawHeavyFullScreenTriangle(2 * kIterations); });
  }
  auto values = Collect({"GPUTime"}, work);
  ASSERT_EQ(values.size(), work.size());
  const double single = FastestOf(values, "GPUTime", 0, 2);
  const double twice = FastestOf(values, "GPUTime", 1, 2);
  EXPECT_GT(single, 0);
  EXPECT_GT(twice, 1.3 * single);  // generous: twice the work must not pass for the same work
}

TEST_F(GlTimingTest, GpuTimesOfBackToBackSamplesAddUpToTheDriversOwnTimeElapsed) {
  OpenGpa();
  WarmUp(workloads_, kIterations);
  GLuint app_query = 0;
  glGenQueries(1, &app_query);
  std::vector<SampleValues> values;
  std::string failed_call;
  glBeginQuery(GL_TIME_ELAPSED, app_query);
  GpaStatus status = sampler_->Run({"GPUTime"},
                                   {[this] { workloads_.DrawHeavyFullScreenTriangle(kIterations); },
                                    [this] { workloads_.DrawHeavyFullScreenTriangle(kIterations / 2); },
                                    [this] { workloads_.DrawSmallTriangles(1000); }},
                                   nullptr, &values, &failed_call);
  glEndQuery(GL_TIME_ELAPSED);
  ASSERT_EQ(status, kGpaStatusOk) << failed_call << "\n" << GpaLog::Text();
  GLuint64 app_elapsed = 0;
  glGetQueryObjectui64v(app_query, GL_QUERY_RESULT, &app_elapsed);
  glDeleteQueries(1, &app_query);
  ASSERT_EQ(values.size(), 3u);
  const double sum = values[0]["GPUTime"] + values[1]["GPUTime"] + values[2]["GPUTime"];
  // The samples follow each other with no GL work between them, so the driver's GL_TIME_ELAPSED over all
  // of them is their sum plus the gaps of issuing GPA's queries.
  // Slack: 2% and 5 us, for timer granularity where the whole frame takes tens of microseconds (a GPU).
  EXPECT_LE(sum, 1.02 * static_cast<double>(app_elapsed) + 5000);
  EXPECT_GE(sum, 0.5 * static_cast<double>(app_elapsed));
}

TEST_F(GlTimingTest, TheApplicationsTimeElapsedQueryAcrossASampleStillWorks) {
  OpenGpa();
  WarmUp(workloads_, kIterations);
  ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  GLuint app_query = 0;
  glGenQueries(1, &app_query);
  const auto start = Clock::now();
  std::vector<SampleValues> values;
  std::string failed_call;
  // The application's GL_TIME_ELAPSED query is active from before GpaBeginSession to after GpaEndSession.
  glBeginQuery(GL_TIME_ELAPSED, app_query);
  GpaStatus status =
      sampler_->Run({"GPUTime", "SamplesPassed"}, {[this] { workloads_.DrawHeavyFullScreenTriangle(kIterations); }},
                    nullptr, &values, &failed_call);
  glEndQuery(GL_TIME_ELAPSED);
  ASSERT_EQ(status, kGpaStatusOk) << failed_call << "\n" << GpaLog::Text();
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  GLuint64 app_elapsed = 0;
  glGetQueryObjectui64v(app_query, GL_QUERY_RESULT, &app_elapsed);
  const double host_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  glDeleteQueries(1, &app_query);
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(values[0]["SamplesPassed"], kWidth * kHeight);
  EXPECT_GT(values[0]["GPUTime"], 0);
  EXPECT_GT(app_elapsed, 0u);
  EXPECT_LE(static_cast<double>(app_elapsed), host_ns);
  // Both clocks time the same draw; the application's interval contains GPA's (10% slack for clock granularity).
  EXPECT_GE(1.1 * static_cast<double>(app_elapsed), values[0]["GPUTime"]);
}

TEST_F(GlTimingTest, ASampleAroundTheApplicationsTimeElapsedQueryLeavesBothValid) {
  OpenGpa();
  WarmUp(workloads_, kIterations);
  GLuint app_query = 0;
  glGenQueries(1, &app_query);
  const auto start = Clock::now();
  std::vector<SampleValues> values;
  std::string failed_call;
  GpaStatus status = sampler_->Run(
      {"GPUTime"}, {[&] {
        glBeginQuery(GL_TIME_ELAPSED, app_query);  // the application's query, inside
        workloads_.DrawHeavyFullScreenTriangle(kIterations);
        glEndQuery(GL_TIME_ELAPSED);
      }},
      [] { glFinish(); }, &values, &failed_call);
  ASSERT_EQ(status, kGpaStatusOk) << failed_call << "\n" << GpaLog::Text();
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  GLuint64 app_elapsed = 0;
  glGetQueryObjectui64v(app_query, GL_QUERY_RESULT, &app_elapsed);
  const double host_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  glDeleteQueries(1, &app_query);
  ASSERT_EQ(values.size(), 1u);
  EXPECT_GT(app_elapsed, 0u);
  EXPECT_LE(static_cast<double>(app_elapsed), host_ns);
  EXPECT_LE(values[0]["GPUTime"], host_ns);
  // GPA's interval contains the application's (10% slack for clock granularity).
  EXPECT_GE(1.1 * values[0]["GPUTime"], static_cast<double>(app_elapsed));
}

}  // namespace
}  // namespace opengpa::testing
