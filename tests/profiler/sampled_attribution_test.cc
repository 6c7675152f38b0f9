#include "profiler/sampled_attribution.h"

#include <gtest/gtest.h>

#include <cmath>

namespace opengpa::profiling {
namespace {

// Samples of 10 ns from `start`, one metric each.
SampleSeries Series(std::uint64_t start, const std::vector<double>& values) {
  SampleSeries series;
  for (std::size_t i = 0; i < values.size(); ++i) {
    series.spans.push_back({start + 10 * i, start + 10 * (i + 1)});
    series.values.push_back(values[i]);
  }
  return series;
}

TEST(SampledAttributionTest, AKernelAloneGetsAllOfEverySampleItRanIn) {
  // Idle, then the kernel from 10 to 35: the last sample's amount was counted during its 5 busy ns only.
  const auto result = AttributeSamples({{10, 35, true}}, Series(0, {7, 100, 100, 50}), {MetricKind::kAmount}, 10);
  ASSERT_EQ(result.size(), 1u);
  EXPECT_DOUBLE_EQ(result[0].values[0], 250.0);
  EXPECT_EQ(result[0].samples, 3u);
  EXPECT_DOUBLE_EQ(result[0].coverage, 1.0);
  EXPECT_FALSE(result[0].overlapped);
  EXPECT_TRUE(result[0].short_work);  // 25 ns < 3 intervals of 10
}

TEST(SampledAttributionTest, AKernelWithASampleOfItsOwnTakesItsRateOfASharedOne) {
  // The first kernel ran alone through 0..10 at 8 a ns: of the shared sample it takes 5 ns at that rate, and the
  // second, too short for a sample of its own, the rest (by time alone they would get 50 each).
  const std::vector<TimedWork> work = {{0, 15, true}, {15, 20, true}};
  const auto result = AttributeSamples(work, Series(0, {80, 100}), {MetricKind::kAmount}, 10);
  EXPECT_DOUBLE_EQ(result[0].values[0], 80.0 + 40.0);
  EXPECT_DOUBLE_EQ(result[1].values[0], 60.0);
  EXPECT_FALSE(result[0].overlapped);
  EXPECT_FALSE(result[1].overlapped);
}

TEST(SampledAttributionTest, TwoKernelsWithRatesShareABoundarySampleByThem) {
  // 8 a ns, then 20 a ns; the boundary sample (5 ns of each) counted 140 = 40 + 100: each gets its own part.
  const std::vector<TimedWork> work = {{0, 25, true}, {25, 50, true}};
  const auto result = AttributeSamples(work, Series(0, {80, 80, 140, 200, 200}), {MetricKind::kAmount}, 10);
  EXPECT_DOUBLE_EQ(result[0].values[0], 80.0 + 80.0 + 40.0);
  EXPECT_DOUBLE_EQ(result[1].values[0], 100.0 + 200.0 + 200.0);
  // Rates that claim more than a shared sample counted are scaled down to it; the kernel without a rate gets none.
  const std::vector<TimedWork> three = {{0, 15, true}, {15, 17, true}, {17, 20, true}};
  const auto scaled = AttributeSamples(three, Series(0, {80, 30}), {MetricKind::kAmount}, 10);
  EXPECT_DOUBLE_EQ(scaled[0].values[0], 80.0 + 30.0);
  EXPECT_DOUBLE_EQ(scaled[1].values[0] + scaled[2].values[0], 0.0);
}

TEST(SampledAttributionTest, AmountsAreConservedWhereWorkRan) {
  const std::vector<TimedWork> work = {{3, 12, true}, {12, 44, true}, {50, 51, false}, {58, 70, true}};
  const SampleSeries series = Series(0, {10, 20, 30, 40, 50, 60, 70, 80});
  const auto result = AttributeSamples(work, series, {MetricKind::kAmount}, 10);
  double attributed = 0.0;
  for (const auto& piece : result) attributed += piece.values[0];
  // Every sample but the last (70..80, idle) had work.
  EXPECT_NEAR(attributed, 10 + 20 + 30 + 40 + 50 + 60 + 70, 1e-9);
}

TEST(SampledAttributionTest, AReadingIsTheBusyPartsReading) {
  // 40 % over a 10 ns sample in which the kernel ran 5 ns: it ran at 80 %.
  const auto result = AttributeSamples({{0, 5, true}}, Series(0, {40}), {MetricKind::kReading}, 10);
  EXPECT_DOUBLE_EQ(result[0].values[0], 80.0);
  // Over two samples, the reading is weighted by the kernel's time in each (5 ns at 80 %, 10 ns at 50 %).
  const auto longer = AttributeSamples({{5, 20, true}}, Series(0, {40, 50}), {MetricKind::kReading}, 10);
  EXPECT_DOUBLE_EQ(longer[0].values[0], (80.0 * 5 + 50.0 * 10) / 15);
}

TEST(SampledAttributionTest, ATimeAverageSharedAtABoundaryGoesByTheLaunchesOwnRates) {
  // 20 % then 80 % of peak; the boundary sample (5 ns of each) read 50 %: each keeps its own utilization, where a
  // reading weighted by time would give the first (20 * 20 + 50 * 5) / 25 = 26 % and the second 68 %.
  const std::vector<TimedWork> work = {{0, 25, true}, {25, 50, true}};
  const SampleSeries series = Series(0, {20, 20, 50, 80, 80});
  const auto result = AttributeSamples(work, series, {MetricKind::kTimeAverage}, 10);
  EXPECT_DOUBLE_EQ(result[0].values[0], 20.0);
  EXPECT_DOUBLE_EQ(result[1].values[0], 80.0);
  const auto by_time = AttributeSamples(work, series, {MetricKind::kReading}, 10);
  EXPECT_DOUBLE_EQ(by_time[0].values[0], 26.0);
  // Alone with idle time in its sample, a time average is the busy part's, as a reading is.
  const auto alone = AttributeSamples({{0, 5, true}}, Series(0, {40}), {MetricKind::kTimeAverage}, 10);
  EXPECT_DOUBLE_EQ(alone[0].values[0], 80.0);
}

TEST(SampledAttributionTest, ADisturbedSampleIsLeftOutOfAveragesButItsAmountsCount) {
  // SM throughput 80 % throughout, but a decode zeroed the third sample's SM counts (validation row 76).
  SampleSeries series;
  for (std::size_t i = 0; i < 4; ++i) series.spans.push_back({10 * i, 10 * (i + 1)});
  series.values = {80, 1000, 80, 1000, 0, 0, 80, 1000};  // SM %, DRAM bytes
  series.disturbed = {0, 0, 1, 0};
  const std::vector<MetricKind> kinds = {MetricKind::kTimeAverage, MetricKind::kAmount};
  const auto result = AttributeSamples({{0, 40, true}}, series, kinds, 10);
  EXPECT_DOUBLE_EQ(result[0].values[0], 80.0);  // 60 % with the disturbed sample in the average
  EXPECT_DOUBLE_EQ(result[0].values[1], 3000.0);
  EXPECT_EQ(result[0].disturbed_samples, 1u);
  EXPECT_EQ(result[0].samples, 4u);
  // A launch whose only sample is disturbed keeps it: a value, if a low one, rather than none.
  const auto only = AttributeSamples({{21, 29, true}}, series, {MetricKind::kReading, MetricKind::kAmount}, 10);
  EXPECT_DOUBLE_EQ(only[0].values[0], 0.0);
  EXPECT_EQ(only[0].disturbed_samples, 0u);
  // A disturbed sample gives no own rate: the first launch's rate comes from its undisturbed sample (8 a ns), so of
  // the shared sample it takes 5 ns at 8 and the short second launch the rest.
  SampleSeries shared;
  shared.spans = {{0, 10}, {10, 20}, {20, 30}};
  shared.values = {80, 0, 100};
  shared.disturbed = {0, 1, 0};
  const auto rated = AttributeSamples({{0, 25, true}, {25, 30, true}}, shared, {MetricKind::kAmount}, 10);
  EXPECT_DOUBLE_EQ(rated[0].values[0], 80.0 + 0.0 + 40.0);
  EXPECT_DOUBLE_EQ(rated[1].values[0], 60.0);
}

TEST(SampledAttributionTest, MetricKindsFollowTheirNames) {
  EXPECT_EQ(MetricKindOf("dram__bytes_read.sum", true), MetricKind::kAmount);
  EXPECT_EQ(MetricKindOf("dram__throughput.avg.pct_of_peak_sustained_elapsed", false), MetricKind::kTimeAverage);
  EXPECT_EQ(MetricKindOf("dram__bytes.sum.per_second", false), MetricKind::kTimeAverage);
  EXPECT_EQ(MetricKindOf("lts__t_sector_hit_rate.pct", false), MetricKind::kReading);
  EXPECT_EQ(MetricKindOf("sm__cycles_active.avg.pct_of_peak_sustained_active", false), MetricKind::kReading);
}

TEST(SampledAttributionTest, ConcurrentWorkIsMarkedAndSharesByTime) {
  // A kernel, a concurrent one inside it, and a copy overlapping the first's end; a later kernel alone.
  const std::vector<TimedWork> work = {{0, 20, true}, {5, 10, true}, {18, 25, false}, {40, 50, true}};
  const auto result = AttributeSamples(work, Series(0, {100, 100, 100, 100, 100}), {MetricKind::kAmount}, 10);
  EXPECT_TRUE(result[0].overlapped);
  EXPECT_TRUE(result[1].overlapped);
  EXPECT_TRUE(result[2].overlapped);
  EXPECT_FALSE(result[3].overlapped);
  // First sample: 10 ns of the first kernel and 5 of the second.
  EXPECT_NEAR(result[1].values[0], 100.0 * 5 / 15, 1e-9);
  EXPECT_DOUBLE_EQ(result[3].values[0], 100.0);
}

TEST(SampledAttributionTest, LostSamplesLowerTheCoverageAndNoSampleGivesNoValue) {
  SampleSeries series = Series(0, {10, 10, 10, 10});
  series.spans.erase(series.spans.begin() + 1, series.spans.begin() + 3);  // 10..30 lost
  series.values.erase(series.values.begin() + 1, series.values.begin() + 3);
  const std::vector<TimedWork> work = {{0, 40, true}, {12, 28, true}};
  const auto result = AttributeSamples(work, series, {MetricKind::kAmount, MetricKind::kReading}, 10);
  EXPECT_DOUBLE_EQ(result[0].coverage, 0.5);
  EXPECT_EQ(result[0].samples, 2u);
  EXPECT_EQ(result[1].samples, 0u);
  EXPECT_TRUE(std::isnan(result[1].values[0]));
  EXPECT_TRUE(std::isnan(result[1].values[1]));
  EXPECT_DOUBLE_EQ(result[1].coverage, 0.0);
}

TEST(SampledAttributionTest, LongKernelsAreNotShortAndEmptyInputsGiveEmptyResults) {
  const auto result = AttributeSamples({{0, 30, true}}, Series(0, {1, 1, 1}), {MetricKind::kAmount}, 10);
  EXPECT_FALSE(result[0].short_work);
  EXPECT_TRUE(AttributeSamples({}, Series(0, {1}), {MetricKind::kAmount}, 10).empty());
  const auto no_samples = AttributeSamples({{0, 30, true}}, SampleSeries{}, {MetricKind::kAmount}, 10);
  EXPECT_EQ(no_samples[0].samples, 0u);
  EXPECT_TRUE(std::isnan(no_samples[0].values[0]));
}

}  // namespace
}  // namespace opengpa::profiling
