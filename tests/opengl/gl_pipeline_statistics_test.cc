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
  auto values = Collect({"IAVerticesIn", "IAPrimitivesIn", "VSVerticesIn", "VSVertexReuse", "PrimitivesIn",
                         "ClipperPrimsOut", "ClipperPrimsRejected"},
                        work);
  ASSERT_EQ(values.size(), triangles.size());
  for (size_t i = 0; i < triangles.size(); ++i) {
    const double m = triangles[i];
    EXPECT_EQ(values[i]["IAVerticesIn"], 3 * m) << "sample " << i;
    EXPECT_EQ(values[i]["IAPrimitivesIn"], m) << "sample " << i;
    // Non-indexed draws have no repeated vertex a driver could reuse a shaded result for.
    EXPECT_EQ(values[i]["VSVerticesIn"], 3 * m) << "sample " << i;
    EXPECT_EQ(values[i]["VSVertexReuse"], 0) << "sample " << i;
    EXPECT_EQ(values[i]["PrimitivesIn"], m) << "sample " << i;
    // Every triangle lies inside the view volume: nothing is discarded or split.
    EXPECT_EQ(values[i]["ClipperPrimsOut"], m) << "sample " << i;
    EXPECT_EQ(values[i]["ClipperPrimsRejected"], 0) << "sample " << i;
  }
}

TEST_F(GlPipelineStatisticsTest, TrianglesWhollyOutsideTheViewVolumeAreCountedAsRejectedByTheClipper) {
  OpenGpa();
  const std::vector<std::pair<int, int>> inside_outside = {{100, 0}, {100, 28}, {0, 64}};
  std::vector<std::function<void()>> work;
  for (const auto& [inside, outside] : inside_outside) {
    work.push_back(
        [this, inside = inside, outside = outside] { workloads_.DrawTrianglesPartlyOutside(inside, outside); });
  }
  auto values = Collect({"IAPrimitivesIn", "PrimitivesIn", "ClipperPrimsOut", "ClipperPrimsRejected", "PSPixelsIn",
                         "PSPixelsPerPrimitive"},
                        work);
  ASSERT_EQ(values.size(), inside_outside.size());
  for (size_t i = 0; i < inside_outside.size(); ++i) {
    const auto [inside, outside] = inside_outside[i];
    EXPECT_EQ(values[i]["IAPrimitivesIn"], inside + outside) << "sample " << i;
    EXPECT_EQ(values[i]["PrimitivesIn"], inside + outside) << "sample " << i;
    EXPECT_EQ(values[i]["ClipperPrimsOut"], inside) << "sample " << i;
    EXPECT_EQ(values[i]["ClipperPrimsRejected"], outside) << "sample " << i;
    // The triangles outside shade nothing, so pixels per primitive is that of the triangles inside.
    EXPECT_EQ(values[i]["PSPixelsPerPrimitive"], inside == 0 ? 0.0 : values[i]["PSPixelsIn"] / inside)
        << "sample " << i;
  }
  EXPECT_EQ(values[0]["PSPixelsIn"], values[1]["PSPixelsIn"]) << "the same 100 triangles are shaded";
  EXPECT_EQ(values[2]["PSPixelsIn"], 0);
}

TEST_F(GlPipelineStatisticsTest, PassesEveryPixelOfAFullScreenTriangleExactlyOnce) {
  OpenGpa();
  auto values =
      Collect({"SamplesPassed", "PSPixelsIn", "IAPrimitivesIn"}, {[this] { workloads_.DrawFullScreenTriangle(); },
                                                                  [this] {
                                                                    workloads_.DrawFullScreenTriangle();
                                                                    workloads_.DrawFullScreenTriangle();
                                                                  }});
  ASSERT_EQ(values.size(), 2u);
  const double pixels = kWidth * kHeight;
  EXPECT_EQ(values[0]["SamplesPassed"], pixels);
  EXPECT_EQ(values[1]["SamplesPassed"], 2 * pixels);
  EXPECT_EQ(values[0]["IAPrimitivesIn"], 1);
  EXPECT_EQ(values[1]["IAPrimitivesIn"], 2);
  // The clipper may split the triangle, and a driver that shades whole 2x2 quads or 4x4 blocks then also
  // counts the helper invocations along the split (llvmpipe: 16 per 4x4 block the split crosses).
  EXPECT_GE(values[0]["PSPixelsIn"], pixels);
  EXPECT_LE(values[0]["PSPixelsIn"], pixels + 16 * (kWidth + kHeight));
  EXPECT_GE(values[1]["PSPixelsIn"], 2 * pixels);
}

TEST_F(GlPipelineStatisticsTest, ShadesEachPixelOfBlockAlignedSquaresExactlyOnce) {
  OpenGpa();
  const int squares = (kWidth / 16) * (kHeight / 16);
  auto values = Collect(
      {"SamplesPassed", "PSPixelsIn", "IAVerticesIn", "IAPrimitivesIn", "ClipperPrimsOut", "PSPixelsPerPrimitive"},
      {[this] { workloads_.DrawAlignedSquares(1, kWidth, kHeight); },
       [this, squares] { workloads_.DrawAlignedSquares(squares, kWidth, kHeight); }});
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0]["IAVerticesIn"], 1);
  EXPECT_EQ(values[0]["IAPrimitivesIn"], 1);
  EXPECT_EQ(values[0]["SamplesPassed"], 16 * 16);
  EXPECT_EQ(values[0]["PSPixelsIn"], 16 * 16);
  EXPECT_EQ(values[1]["IAPrimitivesIn"], squares);
  EXPECT_EQ(values[1]["SamplesPassed"], kWidth * kHeight);
  EXPECT_EQ(values[1]["PSPixelsIn"], kWidth * kHeight);
  // Each point square is one primitive of 16 x 16 pixels, inside the view volume.
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(values[i]["ClipperPrimsOut"], i == 0 ? 1 : squares) << "sample " << i;
    EXPECT_EQ(values[i]["PSPixelsPerPrimitive"], 16 * 16) << "sample " << i;
  }
}

TEST_F(GlPipelineStatisticsTest, CountsGeometryShaderInputsAndTheTrianglesItEmits) {
  OpenGpa();
  const int triangles = 37;
  auto values = Collect({"GSPrimsIn", "GSPrimsOut", "PrimitivesIn", "IAPrimitivesIn"},
                        {[this] { workloads_.DrawThroughGeometryShader(triangles); }});
  ASSERT_EQ(values.size(), 1u);
  EXPECT_EQ(values[0]["IAPrimitivesIn"], triangles);
  EXPECT_EQ(values[0]["GSPrimsIn"], triangles);
  EXPECT_EQ(values[0]["GSPrimsOut"], 2 * triangles);
  EXPECT_EQ(values[0]["PrimitivesIn"], 2 * triangles);
}

TEST_F(GlPipelineStatisticsTest, CountsTessellationPatchesAndEvaluations) {
  OpenGpa();
  const int patches = 11;
  auto values =
      Collect({"HSPatches", "DSVerticesIn", "PrimitivesIn"}, {[this] { workloads_.DrawTessellatedPatches(patches); }});
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
  auto values =
      Collect({"CSThreads"}, {[this] { workloads_.Dispatch(5, 3, 2); }, [this] { workloads_.Dispatch(1, 1, 1); }});
  ASSERT_EQ(values.size(), 2u);
  const int local = GlWorkloads::kLocalSizeX * GlWorkloads::kLocalSizeY;
  EXPECT_EQ(values[0]["CSThreads"], 5 * 3 * 2 * local);
  EXPECT_EQ(values[1]["CSThreads"], local);
}

TEST_F(GlPipelineStatisticsTest, ReportsZeroForAnEmptySample) {
  OpenGpa();
  auto values = Collect({"IAVerticesIn", "PSPixelsIn", "SamplesPassed", "CSThreads"}, {[] {}});
  ASSERT_EQ(values.size(), 1u);
  for (const auto& [name, value] : values[0]) EXPECT_EQ(value, 0) << name;
}

}  // namespace
}  // namespace opengpa::testing
