// PerfKit's NvPmApi on an OpenGL context of an NVIDIA GPU (libNvPmApi.Core.so over libGPUPerfAPIGL.so and its GPU
// periodic sampler): PerfKit's graphics names exist, and in real-time mode the interval between two Sample calls is
// one sample whose counts equal the frame's work. Run by tests/device/graphics/run.sh on the H100.
#include <cstdio>

#include "gl_nvpm_fixture.h"

namespace opengpa::testing {
namespace {

class GlNvPmHardware : public GlNvPm {};

TEST_F(GlNvPmHardware, PerfKitsGraphicsNamesAreOffered) {
  for (const char* name : {"gpu_busy", "gpu_idle", "shader_busy", "SHD SOL", "TEX SOL", "L2 SOL", "FB SOL",
                           "GPU Bottleneck", "VSVerticesIn", "CSThreads", "PSBusy"}) {
    NVPMCounterID id = 0;
    EXPECT_EQ(api_->GetCounterIDByContext(context_, name, &id), NVPM_OK) << name << ": " << LastMessage();
  }
}

// Vertex-shader warps pack 10 triangles of a triangle list (30 vertices) each: 1,000 warps for 30,000 vertices on
// Vulkan, 32 for 960 here (H100).
TEST_F(GlNvPmHardware, EachSampleIntervalCountsItsFramesVertexWarpsAndBusyCycles) {
  ASSERT_EQ(api_->AddCounterByName(context_, "VSWarps"), NVPM_OK) << LastMessage();
  ASSERT_EQ(api_->AddCounterByName(context_, "gpu_busy"), NVPM_OK) << LastMessage();
  NVPMUINT count = 0;
  ASSERT_EQ(api_->Sample(context_, nullptr, &count), NVPM_OK) << LastMessage();  // begins the first interval
  for (int frame = 1; frame <= 3; ++frame) {
    work_.DrawSmallTriangles(320 * frame);  // 32 warps of 10 triangles a frame-multiple
    NVPMSampleValue samples[4];
    count = 4;
    ASSERT_EQ(api_->Sample(context_, samples, &count), NVPM_OK) << LastMessage();
    ASSERT_EQ(count, 2u);
    NVPMUINT64 warps = 0, busy = 0, cycles = 0, unused = 0;
    ASSERT_EQ(api_->GetCounterValueByName(context_, "VSWarps", 0, &warps, &unused), NVPM_OK) << LastMessage();
    ASSERT_EQ(api_->GetCounterValueByName(context_, "gpu_busy", 0, &busy, &cycles), NVPM_OK) << LastMessage();
    std::printf("  frame %d: VSWarps %llu (truth %d), gpu_busy %llu of %llu cycles\n", frame,
                static_cast<unsigned long long>(warps), 32 * frame, static_cast<unsigned long long>(busy),
                static_cast<unsigned long long>(cycles));
    EXPECT_EQ(warps, 32u * frame);
    EXPECT_GT(cycles, 0u);
    EXPECT_LE(busy, cycles);
  }
}

}  // namespace
}  // namespace opengpa::testing
