// GL allows one active query per target: what GPA does when the application's queries and GPA's meet,
// and when the application's context is not current.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gl_test_fixture.h"

namespace opengpa::testing {
namespace {

using GlApplicationQueriesTest = GlTest;

TEST_F(GlApplicationQueriesTest, BeginSampleFailsAndNamesTheTargetWhenTheApplicationHoldsIt) {
  OpenGpa();
  GLuint app_query = 0;
  glGenQueries(1, &app_query);
  glBeginQuery(GL_VERTICES_SUBMITTED_ARB, app_query);
  std::vector<SampleValues> values;
  std::string failed_call;
  GpaStatus status =
      sampler_->Run({"IAVerticesIn"}, {[this] { workloads_.DrawSmallTriangles(4); }}, nullptr, &values, &failed_call);
  EXPECT_EQ(status, kGpaStatusErrorFailed);
  EXPECT_EQ(failed_call, "GpaBeginSample");
  EXPECT_NE(GpaLog::Text().find("0x82EE"), std::string::npos) << GpaLog::Text();
  EXPECT_NE(GpaLog::Text().find("query " + std::to_string(app_query)), std::string::npos) << GpaLog::Text();

  // The application's query was not disturbed: it counts its own draw exactly.
  workloads_.DrawSmallTriangles(5);
  glEndQuery(GL_VERTICES_SUBMITTED_ARB);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  GLuint64 vertices = 0;
  glGetQueryObjectui64v(app_query, GL_QUERY_RESULT, &vertices);
  EXPECT_EQ(vertices, 15u);
  glDeleteQueries(1, &app_query);
}

TEST_F(GlApplicationQueriesTest, CountersOnOtherTargetsStillSampleInsideTheApplicationsQuery) {
  OpenGpa();
  GLuint app_query = 0;
  glGenQueries(1, &app_query);
  glBeginQuery(GL_VERTICES_SUBMITTED_ARB, app_query);
  std::vector<SampleValues> values;
  std::string failed_call;
  GpaStatus status = sampler_->Run(
      {"GPUTime", "IAPrimitivesIn"}, {[this] { workloads_.DrawSmallTriangles(4); }}, [] { glFinish(); }, &values,
      &failed_call);
  glEndQuery(GL_VERTICES_SUBMITTED_ARB);
  ASSERT_EQ(status, kGpaStatusOk) << failed_call << "\n" << GpaLog::Text();
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  GLuint64 vertices = 0;
  glGetQueryObjectui64v(app_query, GL_QUERY_RESULT, &vertices);
  glDeleteQueries(1, &app_query);
  EXPECT_EQ(vertices, 12u);
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(values[0]["IAPrimitivesIn"], 4);
}

TEST_F(GlApplicationQueriesTest, AnActiveAnySamplesPassedQueryBlocksSamplesPassed) {
  OpenGpa();
  GLuint app_query = 0;
  glGenQueries(1, &app_query);
  glBeginQuery(GL_ANY_SAMPLES_PASSED, app_query);
  std::vector<SampleValues> values;
  std::string failed_call;
  GpaStatus status = sampler_->Run({"SamplesPassed"}, {[this] { workloads_.DrawFullScreenTriangle(); }}, nullptr,
                                   &values, &failed_call);
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  glDeleteQueries(1, &app_query);
  EXPECT_EQ(status, kGpaStatusErrorFailed);
  EXPECT_EQ(failed_call, "GpaBeginSample");
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(GlApplicationQueriesTest, ResultsReportTheLossWhenTheApplicationEndsGpasQuery) {
  OpenGpa();
  std::vector<SampleValues> values;
  std::string failed_call;
  GpaStatus status = sampler_->Run(
      {"IAVerticesIn"}, {[this] {
        workloads_.DrawSmallTriangles(4);
        glEndQuery(GL_VERTICES_SUBMITTED_ARB);  // ends GPA's query: a misuse
      }},
      [] { glFinish(); }, &values, &failed_call);
  EXPECT_EQ(status, kGpaStatusErrorReadingSampleResult);
  EXPECT_EQ(failed_call, "GpaGetSampleResult");
  EXPECT_NE(GpaLog::Text().find("no longer active"), std::string::npos) << GpaLog::Text();
}

TEST_F(GlApplicationQueriesTest, BeginSampleFailsWhenTheContextIsNotCurrent) {
  OpenGpa();
  std::vector<SampleValues> values;
  std::string failed_call;
  GpaSessionId session = nullptr;
  ASSERT_EQ(sampler_->BeginSession({"GPUTime"}, &session, &failed_call), kGpaStatusOk) << failed_call;
  GpaCommandListId list = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  ASSERT_TRUE(gl_->ReleaseCurrent());
  EXPECT_EQ(GpaBeginSample(0, list), kGpaStatusErrorFailed);
  EXPECT_NE(GpaLog::Text().find("is not current on this thread"), std::string::npos) << GpaLog::Text();
  ASSERT_TRUE(gl_->MakeCurrent());
  ASSERT_EQ(GpaBeginSample(0, list), kGpaStatusOk);
  ASSERT_EQ(GpaEndSample(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  GpaDeleteSession(session);
}

TEST_F(GlApplicationQueriesTest, SamplesCannotNest) {
  OpenGpa();
  GpaSessionId session = nullptr;
  std::string failed_call;
  ASSERT_EQ(sampler_->BeginSession({"IAVerticesIn"}, &session, &failed_call), kGpaStatusOk) << failed_call;
  GpaCommandListId list = nullptr;
  ASSERT_EQ(GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  ASSERT_EQ(GpaBeginSample(0, list), kGpaStatusOk);
  EXPECT_EQ(GpaBeginSample(1, list), kGpaStatusErrorSampleAlreadyStarted);
  ASSERT_EQ(GpaEndSample(list), kGpaStatusOk);
  ASSERT_EQ(GpaBeginSample(1, list), kGpaStatusOk);
  ASSERT_EQ(GpaEndSample(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk);
  ASSERT_EQ(GpaEndSession(session), kGpaStatusOk);
  GpaDeleteSession(session);
}

}  // namespace
}  // namespace opengpa::testing
