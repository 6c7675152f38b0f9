// Pipeline statistics and occlusion counts of draws and dispatches whose size is known exactly.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "gl_test_fixture.h"

namespace opengpa::testing {
namespace {

class GlPipelineStatisticsTest : public GlTest {
 protected:
  // GlTest::Collect, and GL raised no error while the samples were recorded and read.
  std::vector<SampleValues> Collect(const std::vector<std::string>& counters,
                                    const std::vector<std::function<void()>>& work) {
    std::vector<SampleValues> values = GlTest::Collect(counters, work);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    return values;
  }
};

TEST_F(GlPipelineStatisticsTest, CountsTheVerticesAndTrianglesOfEachDrawInItsOwnSample) {
  OpenGpa();
  const std::vector<int> triangles = {1, 7, 250};
  std::vector<std::function<void()>> work;
  for (int count : triangles) work.push_back([this, count] { workloads_.DrawSmallTriangles(count); });
  auto values = Collect({"InputVertices", "InputPrimitives", "VSVerticesIn", "PrimitivesIn", "ClipperPrimsOut"}, work);
  ASSERT_EQ(values.size(), triangles.size());
  for (size_t i = 0; i < triangles.size(); ++i) {
    const double m = triangles[i];
    EXPECT_EQ(values[i]["InputVertices"], 3 * m) << "sample " << i;
    EXPECT_EQ(values[i]["InputPrimitives"], m) << "sample " << i;
    // Non-indexed draws have no repeated vertex a driver could reuse a shaded result for.
    EXPECT_EQ(values[i]["VSVerticesIn"], 3 * m) << "sample " << i;
    EXPECT_EQ(values[i]["PrimitivesIn"], m) << "sample " << i;
    // Every triangle lies inside the view volume: nothing is discarded or split.
    EXPECT_EQ(values[i]["ClipperPrimsOut"], m) << "sample " << i;
  }
}

TEST_F(GlPipelineStatisticsTest, PassesEveryPixelOfAFullScreenTriangleExactlyOnce) {
  OpenGpa();
  auto values = Collect({"SamplesPassed", "PSInvocations", "InputPrimitives"},
                        {[this] { workloads_.DrawFullScreenTriangle(); },
                         [this] {
                           workloads_.DrawFullScreenTriangle();
                           workloads_.DrawFullScreenTriangle();
                         }});
  ASSERT_EQ(values.size(), 2u);
  const double pixels = kWidth * kHeight;
  EXPECT_EQ(values[0]["SamplesPassed"], pixels);
  EXPECT_EQ(values[1]["SamplesPassed"], 2 * pixels);
  EXPECT_EQ(values[0]["InputPrimitives"], 1);
  EXPECT_EQ(values[1]["InputPrimitives"], 2);
  // The clipper may split the triangle, and a driver that shades whole 2x2 quads or 4x4 blocks then also
  // counts the helper invocations along the split (llvmpipe: 16 per 4x4 block the split crosses).
  EXPECT_GE(values[0]["PSInvocations"], pixels);
  EXPECT_LE(values[0]["PSInvocations"], pixels + 16 * (kWidth + kHeight));
  EXPECT_GE(values[1]["PSInvocations"], 2 * pixels);
}

TEST_F(GlPipelineStatisticsTest, ShadesEachPixelOfBlockAlignedSquaresExactlyOnce) {
  OpenGpa();
  const int squares = (kWidth / 16) * (kHeight / 16);
  auto values = Collect({"SamplesPassed", "PSInvocations", "InputVertices", "InputPrimitives"},
                        {[this] { workloads_.DrawAlignedSquares(1, kWidth, kHeight); },
                         [this, squares] { workloads_.DrawAlignedSquares(squares, kWidth, kHeight); }});
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0]["InputVertices"], 1);
  EXPECT_EQ(values[0]["InputPrimitives"], 1);
  EXPECT_EQ(values[0]["SamplesPassed"], 16 * 16);
  EXPECT_EQ(values[0]["PSInvocations"], 16 * 16);
  EXPECT_EQ(values[1]["InputPrimitives"], squares);
  EXPECT_EQ(values[1]["SamplesPassed"], kWidth * kHeight);
  EXPECT_EQ(values[1]["PSInvocations"], kWidth * kHeight);
}

TEST_F(GlPipelineStatisticsTest, CountsGeometryShaderInputsAndTheTrianglesItEmits) {
  OpenGpa();
  const int triangles = 37;
  auto values = Collect({"GSPrimsIn", "GSPrimsOut", "PrimitivesIn", "InputPrimitives"},
                        {[this] { workloads_.DrawThroughGeometryShader(triangles); }});
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(values[0]["InputPrimitives"], triangles);
  EXPECT_EQ(values[0]["GSPrimsIn"], triangles);
  EXPECT_EQ(values[0]["GSPrimsOut"], 2 * triangles);
  EXPECT_EQ(values[0]["PrimitivesIn"], 2 * triangles);
}

TEST_F(GlPipelineStatisticsTest, CountsTessellationPatchesAndEvaluations) {
  OpenGpa();
  const int patches = 11;
  auto values = Collect({"HSPatches", "DSVerticesIn", "PrimitivesIn"},
                        {[this] { workloads_.DrawTessellatedPatches(patches); }});
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(values[0]["HSPatches"], patches);
  // Level 1 everywhere: one triangle per patch, whose 3 corners the evaluation shader places.
  EXPECT_EQ(values[0]["PrimitivesIn"], patches);
  if (IsSoftwareRenderer()) {
    EXPECT_EQ(values[0]["DSVerticesIn"], 3 * patches);
  } else {
    EXPECT_GE(values[0]["DSVerticesIn"], 3 * patches);  // a driver may evaluate a shared corner more than once
  }
}

TEST_F(GlPipelineStatisticsTest, CountsComputeInvocationsOfADispatch) {
  OpenGpa();
  auto values = Collect({"CSThreads"}, {[this] { workloads_.Dispatch(5, 3, 2); }, [this] { workloads_.Dispatch(1, 1, 1); }});
  ASSERT_EQ(values.size(), 2u);
  const int local = GlWorkloads::kLocalSizeX * GlWorkloads::kLocalSizeY;
  EXPECT_EQ(values[0]["CSThreads"], 5 * 3 * 2 * local);
  EXPECT_EQ(values[1]["CSThreads"], local);
}

TEST_F(GlPipelineStatisticsTest, ReportsZeroForAnEmptySample) {
  OpenGpa();
  auto values = Collect({"InputVertices", "PSInvocations", "SamplesPassed", "CSThreads"}, {[] {}});
  ASSERT_EQ(values.size(), 1u);
  for (const auto& [name, value] : values[0]) EXPECT_EQ(value, 0) << name;
}

}  // namespace
}  // namespace opengpa::testing
