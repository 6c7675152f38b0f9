// libGPUPerfAPIGL.so's hardware counters on an NVIDIA GPU through an EGL context (PerfWorks' GPU periodic
// sampler, CPU triggers after glFinish), against the truth of the work: vertices drawn, threads and groups
// dispatched; and the same counters in one multi-pass session as one per session. Run by
// tests/device/graphics/run.sh on the H100.
#include <cstdio>

#include "gl_test_fixture.h"

namespace opengpa::testing {
namespace {

class GlHardwareCountersTest : public GlTest {};

void Print(const char* what, const SampleValues& values) {
  std::printf("  %-40s", what);
  for (const auto& [name, value] : values) std::printf(" %s=%.6g", name.c_str(), value);
  std::printf("\n");
}

TEST_F(GlHardwareCountersTest, VertexAndComputeThreadsEqualTheWork) {
  OpenGpa(kGpaOpenContextDefaultBit);
  auto values = Collect({"VSVerticesIn", "CSThreads", "CSThreadGroups", "PSPixelsIn"},
                        {[&] { workloads_.DrawSmallTriangles(1000); }, [&] { workloads_.Dispatch(64, 32, 1); },
                         [&] { workloads_.DrawFullScreenTriangle(); }});
  ASSERT_EQ(values.size(), 3u);
  Print("1000 triangles (truth 3000 vertices)", values[0]);
  Print("dispatch 64x32 of 8x4 (truth 65536)", values[1]);
  Print("full screen (truth 2048 pixels)", values[2]);
  EXPECT_EQ(values[0]["VSVerticesIn"], 3000.0);
  EXPECT_EQ(values[1]["CSThreads"], 65536.0);
  EXPECT_EQ(values[1]["CSThreadGroups"], 2048.0);
  EXPECT_EQ(values[2]["PSPixelsIn"], double{kWidth} * kHeight);  // GL_FRAGMENT_SHADER_INVOCATIONS
}

// A fragment shader that loops runs one pixel-shader thread per pixel; NVIDIA's GL driver runs one that writes a
// constant without any (printed, not asserted: a driver choice), which is why PSPixelsIn stays GL's statistic.
TEST_F(GlHardwareCountersTest, PixelShaderThreadsOfAShaderThatComputes) {
  OpenGpa(kGpaOpenContextEnableHardwareCountersBit);
  auto values =
      Collect({"PSWarps", "PSInsts", "PSBusy", "PSPixelsIn", "sm__threads_launched_shader_ps_killmask_off.sum"},
              {[&] { workloads_.DrawHeavyFullScreenTriangle(64); }, [&] { workloads_.DrawFullScreenTriangle(); }});
  ASSERT_EQ(values.size(), 2u);
  Print("looping fragment shader (2048 pixels)", values[0]);
  Print("constant-color fragment shader", values[1]);
  EXPECT_EQ(values[0]["sm__threads_launched_shader_ps_killmask_off.sum"], double{kWidth} * kHeight);
  EXPECT_EQ(values[0]["PSWarps"], double{kWidth} * kHeight / 32);
  EXPECT_GT(values[0]["PSInsts"], 64.0 * kWidth * kHeight / 32);
  EXPECT_GT(values[0]["PSBusy"], 0.0);
  EXPECT_EQ(values[1]["PSPixelsIn"], double{kWidth} * kHeight);
}

TEST_F(GlHardwareCountersTest, MultiPassSetEqualsCountersOneAtATime) {
  OpenGpa(kGpaOpenContextDefaultBit);
  const std::vector<std::string> counters = {"VSVerticesIn", "CSThreads", "CSThreadGroups", "VSWarps", "CSInsts"};
  const std::vector<std::function<void()>> work = {[&] { workloads_.DrawSmallTriangles(500); },
                                                   [&] { workloads_.Dispatch(16, 16, 1); }};
  auto together = Collect(counters, work);
  ASSERT_EQ(together.size(), 2u);
  for (const std::string& counter : counters) {
    auto alone = Collect({counter}, work);
    ASSERT_EQ(alone.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      std::printf("  sample %zu %-16s together %.0f alone %.0f\n", i, counter.c_str(), together[i][counter],
                  alone[i][counter]);
      EXPECT_NEAR(together[i][counter], alone[i][counter], alone[i][counter] * 0.01) << counter;
    }
  }
}

}  // namespace
}  // namespace opengpa::testing
