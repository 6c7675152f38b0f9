// How triggers are matched to the GPU periodic sampler's intervals (nvidia/sampled_passes.h), with the
// timings measured on the H100: a trigger's interval ends within microseconds of its timestamp, either side, and
// once 188 us before it.
#include <gtest/gtest.h>

#include "nvidia/sampled_passes.h"

namespace opengpa::nvidia {
namespace {

using Ns = std::vector<std::uint64_t>;
using Intervals = std::vector<std::size_t>;

TEST(AssignIntervals, AsManyIntervalsAsTriggersPairsThemInOrderEvenWhenTheSamplerStampsEarly) {
  // Back to back: trigger 2's timestamp is written before trigger 1's interval ends; trigger 0 was stamped 188 us
  // early (after a clear); neither changes which trigger closed which interval.
  const Ns stamps = {1'000'000, 1'200'000, 1'200'300, 1'260'000};
  const Ns ends = {812'000, 1'200'800, 1'201'100, 1'257'000};
  Intervals intervals;
  ASSERT_EQ(AssignIntervals(stamps, ends, &intervals), kGpaStatusOk);
  EXPECT_EQ(intervals, (Intervals{0, 1, 2, 3}));
}

TEST(AssignIntervals, AnIntervalFarFromItsTriggerIsRefused) {
  // The pass's work ran while the sampler had another configuration: the intervals are someone else's.
  const Ns stamps = {1'000'000, 1'100'000};
  const Ns ends = {1'000'500, 9'000'000};
  Intervals intervals;
  EXPECT_EQ(AssignIntervals(stamps, ends, &intervals), kGpaStatusErrorFailed);
}

TEST(AssignIntervals, WithAForeignIntervalTriggersArePlacedByTimeInOrder) {
  // Another process's trigger closed the interval ending at 1'100'000.
  const Ns stamps = {1'000'000, 1'200'000, 1'200'300};
  const Ns ends = {1'000'800, 1'100'000, 1'200'800, 1'201'100};
  Intervals intervals;
  ASSERT_EQ(AssignIntervals(stamps, ends, &intervals), kGpaStatusOk);
  EXPECT_EQ(intervals, (Intervals{0, 2, 3}));
}

TEST(AssignIntervals, TriggersAfterTheLastDecodedIntervalGetNone) {
  // The sampler stopped before recording the command list's last trigger.
  const Ns stamps = {1'000'000, 1'050'000, 1'050'500};
  const Ns ends = {1'000'700, 1'050'700};
  Intervals intervals;
  ASSERT_EQ(AssignIntervals(stamps, ends, &intervals), kGpaStatusOk);
  EXPECT_EQ(intervals, (Intervals{0, 1}));
}

TEST(AssignIntervals, NoTriggersNoIntervals) {
  Intervals intervals = {7};
  ASSERT_EQ(AssignIntervals({}, {5, 6}, &intervals), kGpaStatusOk);
  EXPECT_TRUE(intervals.empty());
}

}  // namespace
}  // namespace opengpa::nvidia
