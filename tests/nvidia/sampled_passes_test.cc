// How triggers are matched to the GPU periodic sampler's intervals (nvidia/sampled_passes.h), with the
// timings measured on the H100: a trigger's interval ends within microseconds of its timestamp, either side, and
// once 188 us before it.
#include <gtest/gtest.h>

#include "../monitor/log_capture.h"
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
  ASSERT_EQ(AssignIntervals(stamps, {}, ends, &intervals), kGpaStatusOk);
  EXPECT_EQ(intervals, (Intervals{0, 1, 2, 3}));
}

TEST(AssignIntervals, AnIntervalFarFromItsTriggerIsRefused) {
  // The pass's work ran while the sampler had another configuration: the intervals are someone else's.
  const Ns stamps = {1'000'000, 1'100'000};
  const Ns ends = {1'000'500, 9'000'000};
  Intervals intervals;
  EXPECT_EQ(AssignIntervals(stamps, {}, ends, &intervals), kGpaStatusErrorFailed);
}

TEST(AssignIntervals, WithAForeignIntervalTriggersArePlacedByTimeInOrder) {
  // Another process's trigger closed the interval ending at 1'100'000.
  const Ns stamps = {1'000'000, 1'200'000, 1'200'300};
  const Ns ends = {1'000'800, 1'100'000, 1'200'800, 1'201'100};
  Intervals intervals;
  ASSERT_EQ(AssignIntervals(stamps, {}, ends, &intervals), kGpaStatusOk);
  EXPECT_EQ(intervals, (Intervals{0, 2, 3}));
}

TEST(AssignIntervals, TriggersAfterTheLastDecodedIntervalGetNone) {
  // The sampler stopped before recording the command list's last trigger.
  const Ns stamps = {1'000'000, 1'050'000, 1'050'500};
  const Ns ends = {1'000'700, 1'050'700};
  Intervals intervals;
  ASSERT_EQ(AssignIntervals(stamps, {}, ends, &intervals), kGpaStatusOk);
  EXPECT_EQ(intervals, (Intervals{0, 1}));
}

// vk_color_cube on the H200 (OPENGPA_SAMPLER_TRACE=1, times in ns from the pass's first trigger's timestamp): a
// draw's begin trigger (3) closes interval 3 at 17,984; the draw's own bottom-of-pipe timestamp after it reads
// 22,752, but its end trigger (4) fired at 18,880, and the draw's 36 vertex threads were counted in interval 5,
// closed at 26,912 by the command list's last trigger.
const Ns kColorCubeStamps = {0, 8'768, 12'224, 17'152, 24'768, 26'080, 31'392};
const Ns kColorCubeDone = {0, 6'816, 0, 0, 22'752, 0, 0};  // the samples' own timestamps after their work
const Ns kColorCubeEnds = {800, 9'568, 13'024, 17'984, 18'880, 26'912, 32'160};

TEST(AssignIntervals, AnEndTriggerThatFiredBeforeItsSampleWorkRanClosesTheIntervalThatCountedIt) {
  Intervals intervals;
  ASSERT_EQ(AssignIntervals(kColorCubeStamps, kColorCubeDone, kColorCubeEnds, &intervals), kGpaStatusOk);
  // The draw's sample runs from trigger 3 to trigger 4: intervals 4 and 5, so its vertices count there.
  EXPECT_EQ(intervals, (Intervals{0, 1, 2, 3, 5, 5, 6}));
}

TEST(AssignIntervals, WithoutTheSamplesTimesTriggersArePairedInOrder) {
  Intervals intervals;
  ASSERT_EQ(AssignIntervals(kColorCubeStamps, {}, kColorCubeEnds, &intervals), kGpaStatusOk);
  EXPECT_EQ(intervals, (Intervals{0, 1, 2, 3, 4, 5, 6}));
}

TEST(AssignIntervals, AnEndTriggerKeepsItsIntervalWhenItsOwnTimestampIsLateButTheWorkWasDone) {
  // Through the layer a statistics query's end (about 5 us) lies between a sample's timestamp after its work
  // (64,000) and its end trigger's timestamp (70,000); the trigger's interval ends at 66,600, after the work.
  const Ns stamps = {1'000, 70'000, 71'000, 110'000};
  const Ns done = {0, 64'000, 0, 104'000};
  const Ns ends = {1'800, 66'600, 66'632, 106'000};
  Intervals intervals;
  ASSERT_EQ(AssignIntervals(stamps, done, ends, &intervals), kGpaStatusOk);
  EXPECT_EQ(intervals, (Intervals{0, 1, 2, 3}));
}

TEST(AssignIntervals, NoTriggerClosesAnIntervalBeforeThePreviousTriggers) {
  // Sample A's end trigger (1) fired 20 us before A's work was done and moves to interval 3; sample B's begin
  // trigger (2), recorded after it, closed interval 2 and moves with it: no interval counts in both samples (B
  // counts nothing; what of its work ran before interval 3 ended counts in A).
  const Ns stamps = {1'000, 30'000, 30'500, 40'000};
  const Ns done = {0, 29'000, 0, 39'000};
  const Ns ends = {1'800, 9'000, 10'000, 41'000};
  Intervals intervals;
  ASSERT_EQ(AssignIntervals(stamps, done, ends, &intervals), kGpaStatusOk);
  EXPECT_EQ(intervals, (Intervals{0, 3, 3, 3}));
}

TEST(AssignIntervals, AnEndTriggerAheadOfEveryLaterIntervalKeepsItsOwnAndSaysTheSampleIsShort) {
  // A freshly started H200 (vk_color_cube, docs/graphics-counters.md): the channel ran 21-28 us ahead of the engine
  // and every trigger of the frame fired within 19 us, so no interval ends after the draws' work.
  const Ns stamps = {30'000, 52'000, 53'000, 58'000};
  const Ns done = {0, 50'000, 0, 56'000};
  const Ns ends = {1'000, 4'000, 5'000, 19'000};
  Intervals intervals;
  Intervals short_counts;
  monitor::testing::LogCapture log;
  ASSERT_EQ(AssignIntervals(stamps, done, ends, &intervals, &short_counts), kGpaStatusOk);
  EXPECT_EQ(intervals, (Intervals{0, 1, 2, 3}));
  EXPECT_EQ(short_counts, (Intervals{1, 3}));  // the two samples these triggers end have no result
  const std::string text = log.Text();
  EXPECT_NE(text.find("trigger 1 of 4 fired 46000 ns before the work of the sample it ends was done, and no later "
                      "interval"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("trigger 3 of 4 fired 37000 ns before"), std::string::npos) << text;
  EXPECT_NE(text.find("run the pass again"), std::string::npos) << text;
}

TEST(AssignIntervals, AnEndTriggerMovedToALaterIntervalIsNotAnError) {
  monitor::testing::LogCapture log;
  Intervals intervals;
  Intervals short_counts = {9};
  ASSERT_EQ(AssignIntervals(kColorCubeStamps, kColorCubeDone, kColorCubeEnds, &intervals, &short_counts), kGpaStatusOk);
  EXPECT_EQ(log.Text().find("no later interval"), std::string::npos) << log.Text();
  EXPECT_TRUE(short_counts.empty());
}

TEST(AssignIntervals, NoTriggersNoIntervals) {
  Intervals intervals = {7};
  ASSERT_EQ(AssignIntervals({}, {}, {5, 6}, &intervals), kGpaStatusOk);
  EXPECT_TRUE(intervals.empty());
}

}  // namespace
}  // namespace opengpa::nvidia
