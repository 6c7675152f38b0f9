#include <gtest/gtest.h>

#include <chrono>

#include "nvidia/pm_sampler.h"

namespace opengpa::nvidia {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;

// Bytes a counter-data image took per sample on the H200 (docs/validation.md row 76): one DRAM metric at 5 µs
// (15.2 MiB for 10,016 samples), two (30.2 MiB), and the sampled SOL set (43.1 MiB for 516 samples).
constexpr size_t kOneDramMetric = 1'591;
constexpr size_t kTwoDramMetrics = 3'162;
constexpr size_t kSolSet = 87'600;

TEST(PmSamplesPerImage, MakesRoomForTwoPeriodsAndAMarginWithinCuptisLimits) {
  EXPECT_EQ(PmSamplesPerImage(milliseconds(25), 5'000), 10'016u);
  EXPECT_EQ(PmSamplesPerImage(milliseconds(25), 100'000), 516u);
  EXPECT_EQ(PmSamplesPerImage(milliseconds(1), 1'000'000), 64u);     // at least 64
  EXPECT_EQ(PmSamplesPerImage(milliseconds(100), 1'000), 100'000u);  // at most 100,000
}

TEST(PmDecodePeriodForImage, KeepsThePeriodWhoseImageFits) {
  // One DRAM metric at 20 µs decoded every 25 ms: a 3.9 MiB image.
  EXPECT_EQ(PmDecodePeriodForImage(milliseconds(25), 20'000, 0, kOneDramMetric, kPmLargestImage), milliseconds(25));
  // The same at 5 µs takes 15.2 MiB: within a 16 MiB limit, not within 12.
  EXPECT_EQ(PmDecodePeriodForImage(milliseconds(25), 5'000, 0, kOneDramMetric, size_t{16} << 20), milliseconds(25));
  EXPECT_LT(PmDecodePeriodForImage(milliseconds(25), 5'000, 0, kOneDramMetric, kPmLargestImage), milliseconds(25));
}

TEST(PmDecodePeriodForImage, ShortensThePeriodUntilTheImageFits) {
  // Two DRAM metrics at 5 µs: 30.2 MiB images every 25 ms lost a third of the run, 12.1 MiB every 10 ms nothing.
  const nanoseconds two = PmDecodePeriodForImage(milliseconds(25), 5'000, 0, kTwoDramMetrics, kPmLargestImage);
  EXPECT_GE(two, milliseconds(9));
  EXPECT_LE(two, milliseconds(10));
  EXPECT_LE(kTwoDramMetrics * PmSamplesPerImage(two, 5'000), kPmLargestImage);
  EXPECT_GT(kTwoDramMetrics * PmSamplesPerImage(two + milliseconds(1), 5'000), kPmLargestImage);
  // The SOL set at 100 µs: 43.1 MiB every 25 ms lost 2 %, 9.7 MiB every 5 ms 0-0.5 %.
  const nanoseconds sol = PmDecodePeriodForImage(milliseconds(25), 100'000, 0, kSolSet, kPmLargestImage);
  EXPECT_GE(sol, milliseconds(6));
  EXPECT_LE(sol, milliseconds(7));
  EXPECT_LE(kSolSet * PmSamplesPerImage(sol, 100'000), kPmLargestImage);
  // A fixed part of the image counts too.
  EXPECT_LT(PmDecodePeriodForImage(milliseconds(25), 100'000, size_t{8} << 20, kSolSet, kPmLargestImage), sol);
}

TEST(PmDecodePeriodForImage, NeverDecodesMoreOftenThanTheShortestPeriodOrThanAsked) {
  EXPECT_EQ(PmDecodePeriodForImage(milliseconds(25), 5'000, 0, kSolSet, kPmLargestImage), kPmShortestDecodePeriod);
  EXPECT_EQ(PmDecodePeriodForImage(milliseconds(25), 5'000, size_t{32} << 20, kOneDramMetric, kPmLargestImage),
            kPmShortestDecodePeriod);
  // A caller that asked for a shorter period than the shortest gets it.
  EXPECT_EQ(PmDecodePeriodForImage(milliseconds(1), 5'000, 0, kSolSet, kPmLargestImage), milliseconds(1));
}

// Samples of 100 µs from 1 ms on CUPTI's clock, with a hole of 300 µs after the fifth.
std::vector<PmSampleTime> Samples() {
  std::vector<PmSampleTime> times;
  for (uint64_t i = 0; i < 5; ++i) times.push_back({1'000'000 + 100'000 * i, 1'100'000 + 100'000 * i});
  for (uint64_t i = 0; i < 3; ++i) times.push_back({1'800'000 + 100'000 * i, 1'900'000 + 100'000 * i});
  return times;
}

TEST(PmDecodeDisturbedSamples, MarksTheSampleInFlightAtADecodesStartAndTheNext) {
  // Decodes began 50 µs into sample 1, exactly as sample 3 began, and in the hole 80 µs before sample 5.
  const std::vector<uint8_t> marked = PmDecodeDisturbedSamples(Samples(), {1'150'000, 1'300'000, 1'720'000}, 100'000);
  EXPECT_EQ(marked, (std::vector<uint8_t>{0, 1, 1, 1, 1, 1, 1, 0}));
  // The last sample has no next; a decode after every sample marks nothing.
  EXPECT_EQ(PmDecodeDisturbedSamples(Samples(), {2'050'000, 3'000'000}, 100'000),
            (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 1}));
  // Sample 4 ends at 1.5 ms and sample 5 begins 300 µs later: a hole, so a decode in sample 4 does not mark 5;
  // a decode in the hole more than an interval before sample 5 marks nothing.
  EXPECT_EQ(PmDecodeDisturbedSamples(Samples(), {1'450'000, 1'600'000}, 100'000),
            (std::vector<uint8_t>{0, 0, 0, 0, 1, 0, 0, 0}));
}

TEST(PmDecodeDisturbedSamples, MarksNothingBelowTheIntervalWhereTheDisturbedSampleIsKnown) {
  std::vector<PmSampleTime> fine;
  for (uint64_t i = 0; i < 10; ++i) fine.push_back({20'000 * i, 20'000 * (i + 1)});
  EXPECT_EQ(PmDecodeDisturbedSamples(fine, {50'000}, 20'000), std::vector<uint8_t>(10, 0));
}

}  // namespace
}  // namespace opengpa::nvidia
