// A v2 client of libGPUPerfAPIGL.so on llvmpipe (EGL surfaceless): the workloads of tests/opengl, measured
// once through the v3 API and once through the v2 API on the same GL context, read the same values; where
// the workload fixes a count, both equal it.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "gl_test_fixture.h"
#include "tests/gpa2/gpa2_recorder.h"

namespace opengpa::testing {
namespace {

using gpa2test::RecordV2;
using gpa2test::V2Values;

class GlGpa2Test : public GlTest {
 protected:
  // The same work through v3 (GlTest's sampler) and then through v2, on the same context.
  void MeasureBothWays(const std::vector<std::string>& v3_counters, const std::vector<std::string>& v2_counters,
                       const std::vector<std::function<void()>>& work) {
    OpenGpa(kGpaOpenContextDefaultBit);
    v3_ = Collect(v3_counters, work);
    sampler_.reset();  // closes the v3 context and destroys GPA: v2 starts from scratch
    ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
    ASSERT_EQ(GPA_OpenContext(gl_->context()), GPA_STATUS_OK);
    std::string error;
    v2_ = RecordV2(
        v2_counters, work, [] { glFinish(); }, &error);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
    EXPECT_EQ(GPA_Destroy(), GPA_STATUS_OK);
    ASSERT_EQ(v2_.size(), work.size()) << error;
    ASSERT_EQ(v3_.size(), work.size());
  }

  std::vector<SampleValues> v3_;
  std::vector<V2Values> v2_;
};

TEST_F(GlGpa2Test, V2ReadsTheVerticesAndPrimitivesOfEachDrawAsV3Does) {
  const std::vector<int> triangles = {1, 7, 250};
  std::vector<std::function<void()>> work;
  for (int count : triangles) work.push_back([this, count] { workloads_.DrawSmallTriangles(count); });
  const std::vector<std::string> counters = {"IAVerticesIn", "IAPrimitivesIn", "VSVerticesIn", "PrimitivesIn",
                                             "ClipperPrimsOut"};
  MeasureBothWays(counters, counters, work);
  for (size_t i = 0; i < triangles.size(); ++i) {
    const double m = triangles[i];
    EXPECT_EQ(v2_[i]["IAVerticesIn"], 3 * m) << "sample " << i;
    EXPECT_EQ(v2_[i]["IAPrimitivesIn"], m) << "sample " << i;
    EXPECT_EQ(v2_[i]["VSVerticesIn"], 3 * m) << "sample " << i;
    EXPECT_EQ(v2_[i]["PrimitivesIn"], m) << "sample " << i;
    for (const std::string& name : counters) EXPECT_EQ(v2_[i][name], v3_[i][name]) << name << ", sample " << i;
  }
}

TEST_F(GlGpa2Test, V2CountsEveryPixelOfBlockAlignedSquaresOnceAsV3Does) {
  // Block-aligned squares tiling the viewport: each pixel shaded exactly once, no helper invocations.
  const int squares = (kWidth / 16) * (kHeight / 16);
  std::vector<std::function<void()>> work = {
      [this, squares] { workloads_.DrawAlignedSquares(squares, kWidth, kHeight); }};
  const std::vector<std::string> counters = {"PSPixelsIn", "SamplesPassed"};
  MeasureBothWays(counters, counters, work);
  EXPECT_EQ(v2_[0]["PSPixelsIn"], kWidth * kHeight);
  EXPECT_EQ(v2_[0]["SamplesPassed"], kWidth * kHeight);
  EXPECT_EQ(v2_[0]["PSPixelsIn"], v3_[0]["PSPixelsIn"]);
  EXPECT_EQ(v2_[0]["SamplesPassed"], v3_[0]["SamplesPassed"]);
}

TEST_F(GlGpa2Test, V2GpuTimeIsInMillisecondsAndBoundedByTheHostTime) {
  sampler_.reset();  // v2 only in this test
  ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
  ASSERT_EQ(GPA_OpenContext(gl_->context()), GPA_STATUS_OK);
  const gpa_uint32 index = [] {
    gpa_uint32 i = 0;
    EXPECT_EQ(GPA_GetCounterIndex("GPUTime", &i), GPA_STATUS_OK);
    return i;
  }();
  GPA_Type type;
  GPA_Usage_Type usage;
  ASSERT_EQ(GPA_GetCounterDataType(index, &type), GPA_STATUS_OK);
  ASSERT_EQ(GPA_GetCounterUsageType(index, &usage), GPA_STATUS_OK);
  EXPECT_EQ(type, GPA_TYPE_FLOAT64);
  EXPECT_EQ(usage, GPA_USAGE_TYPE_MILLISECONDS);  // v2's GPUTime; v3 measures nanoseconds
  std::string error;
  const auto start = std::chrono::steady_clock::now();
  auto values = RecordV2(
      {"GPUTime"}, {[this] { workloads_.DrawHeavyFullScreenTriangle(2000); }}, [] { glFinish(); }, &error);
  const double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(values.size(), 1u) << error;
  EXPECT_GT(values[0]["GPUTime"], 0.0);
  EXPECT_LE(values[0]["GPUTime"], host_ms);
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_Destroy(), GPA_STATUS_OK);
}

TEST_F(GlGpa2Test, V2ListsTheCountersOfTheV3ContextUnderTheSameNamesInTheSameOrder) {
  OpenGpa(kGpaOpenContextDefaultBit);
  const std::vector<std::string> v3_names = sampler_->CounterNames();
  sampler_.reset();
  ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
  ASSERT_EQ(GPA_OpenContext(gl_->context()), GPA_STATUS_OK);
  gpa_uint32 count = 0;
  ASSERT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_OK);
  ASSERT_EQ(count, v3_names.size());
  for (gpa_uint32 i = 0; i < count; ++i) {
    const char* name = nullptr;
    ASSERT_EQ(GPA_GetCounterName(i, &name), GPA_STATUS_OK);
    EXPECT_EQ(name, v3_names[i]);
  }
  gpa_uint32 index = 99;
  ASSERT_EQ(GPA_GetCounterIndex("pspixelsin", &index), GPA_STATUS_OK);  // v2 lookups ignore case
  EXPECT_EQ(v3_names.at(index), "PSPixelsIn");
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_Destroy(), GPA_STATUS_OK);
}

}  // namespace
}  // namespace opengpa::testing
