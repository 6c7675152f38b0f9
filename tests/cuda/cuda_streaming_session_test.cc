// The CUDA streaming session's arithmetic, without a GPU: the hardware buffer it asks PM sampling for and how it
// counts lost samples (docs/gpa4.md "Streaming counters").
#include "backends/cuda/streaming/cuda_streaming_session.h"

#include <gtest/gtest.h>

namespace opengpa::cuda {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(CudaStreamingBuffer, HoldsTwoDecodePeriodsOfRecordsAtSixtyFourKibEach) {
  // 100 us: 2 x 100 ms / 100 us + 1 = 2001 records of 64 KiB.
  EXPECT_EQ(DefaultHardwareBufferBytes(100'000, 0), 2001 * (std::size_t{64} << 10));
}

TEST(CudaStreamingBuffer, AShortDurationNeedsNoMoreThanItsOwnRecordsButAtLeastSixtyFourMib) {
  EXPECT_EQ(DefaultHardwareBufferBytes(100'000, 10'000'000), 64 * kMiB);  // 101 records: the floor
  EXPECT_EQ(DefaultHardwareBufferBytes(1'000'000, 0), 64 * kMiB);
}

TEST(CudaStreamingBuffer, NeverAsksForMoreThanOneGib) { EXPECT_EQ(DefaultHardwareBufferBytes(10'000, 0), 1024 * kMiB); }

TEST(CudaStreamingLoss, LostSamplesAreTheHolesBetweenSamplesInIntervals) {
  nvidia::PmSamplingLosses losses;
  losses.sampled_ns = 118'000'000;
  losses.covered_ns = 116'000'000;  // uncovered edges alone are not lost samples
  EXPECT_EQ(LostSamples(losses, 100'000), 0u);
  losses.gaps = 2;
  losses.gap_ns = 1'240'000;
  EXPECT_EQ(LostSamples(losses, 100'000), 12u);
  EXPECT_EQ(LostSamples(losses, 0), 0u);
}

}  // namespace
}  // namespace opengpa::cuda
