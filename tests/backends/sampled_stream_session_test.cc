// The arithmetic of a sampled stream (src/backends/common/sampled_stream_session.h) that needs no GPU: how many
// samples a stream keeps, and a whole series as GPA v3's one sample.
#include "backends/common/sampled_stream_session.h"

#include <gtest/gtest.h>

namespace opengpa {
namespace {

TEST(StreamSampleCapacityTest, ADurationGivesItsIntervalsWithMarginAndNoneGivesTheDefault) {
  EXPECT_EQ(StreamSampleCapacity(100'000, 0), kDefaultStreamSamples);
  EXPECT_EQ(StreamSampleCapacity(100'000, 1'000'000'000), 10'004u);  // 1 s of 100 us intervals, 2 spare each end
  EXPECT_EQ(StreamSampleCapacity(100'000, 150'000), 6u);             // a partial interval counts whole
  EXPECT_EQ(StreamSampleCapacity(1'000, 3'600'000'000'000), kMaximumStreamSamples);
}

TEST(WholeSeriesValuesTest, CountsAddUpAndReadingsAreAveragedOverTime) {
  // Two counters over three samples of 100, 300 and 0 ns: a count, and a percentage.
  const std::vector<double> values = {10, 50, 20, 100, 7, 0};
  const std::vector<std::uint64_t> start = {1'000, 1'100, 1'400};
  const std::vector<std::uint64_t> end = {1'100, 1'400, 1'400};
  const std::vector<double> whole = WholeSeriesValues(values, start, end, {true, false});
  ASSERT_EQ(whole.size(), 2u);
  EXPECT_DOUBLE_EQ(whole[0], 37.0);                              // 10 + 20 + 7
  EXPECT_DOUBLE_EQ(whole[1], (50.0 * 100 + 100.0 * 300) / 400);  // the empty sample weighs nothing
}

TEST(WholeSeriesValuesTest, AnEmptySeriesReadsZero) {
  const std::vector<double> whole = WholeSeriesValues({}, {}, {}, {true, false});
  EXPECT_EQ(whole, (std::vector<double>{0.0, 0.0}));
}

}  // namespace
}  // namespace opengpa
