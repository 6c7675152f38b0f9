#include <gtest/gtest.h>

#include <string>

#include "nvidia/pm_sampler.h"

namespace opengpa::nvidia {
namespace {

TEST(DescribePmSampling, SaysWhatWasCoveredLostAndWhatDecodingCost) {
  PmSamplingLosses losses;
  losses.covered_ns = 4'006'200'000;
  losses.sampled_ns = 4'010'000'000;
  PmSamplingCosts costs;
  costs.samples = 801'234;
  costs.decode_calls = 160;
  costs.decode_ns = 2'100'000'000;
  costs.longest_decode_ns = 31'000'000;
  costs.slow_decodes = 3;
  costs.evaluate_ns = 1'360'000'000;
  costs.image_bytes = 3 << 19;
  costs.prepare_ns = 40'000'000;
  costs.ready_elsewhere_ns = 2'250'000'000;
  const std::string line = DescribePmSampling("GPU 0", 5'000, losses, costs, std::chrono::milliseconds(25));
  EXPECT_EQ(line,
            "PM sampling on GPU 0: 801234 samples of 5.0 µs cover 4006.2 of 4010.0 ms (0 gap(s), 0.000 ms lost; 0 "
            "overflow(s)); decoding 2.10 s of CPU in 160 call(s) (longest 31.0 ms, 3 slower than the 25 ms period), "
            "readying 1.5 MiB images 0.04 s there and 2.25 s beside it, evaluating 1.36 s");
}

TEST(PmIntervalThisHostKeepsUpWith, TakesTheSlowerThreadsCostPerRecordWithRoomToSpare) {
  PmSamplingCosts costs;
  EXPECT_EQ(PmIntervalThisHostKeepsUpWith(costs), 0u);  // nothing evaluated
  // Two DRAM metrics on three H200 hosts (validation row 77): 3.5 µs a record kept 5 µs; 4.4 and 6.0 µs did not.
  costs.samples = 1'000'000;
  costs.evaluate_ns = 2'500'000'000;
  costs.decode_ns = 3'500'000'000;
  EXPECT_EQ(PmIntervalThisHostKeepsUpWith(costs), 5'000u);
  costs.decode_ns = 4'400'000'000;
  EXPECT_EQ(PmIntervalThisHostKeepsUpWith(costs), 10'000u);
  costs.decode_ns = 6'000'000'000;
  EXPECT_EQ(PmIntervalThisHostKeepsUpWith(costs), 10'000u);
  // The SOL set: evaluating (64 µs a record) is the slower thread.
  costs.samples = 41'000;
  costs.decode_ns = 2'300'000'000;
  costs.evaluate_ns = 2'620'000'000;
  EXPECT_EQ(PmIntervalThisHostKeepsUpWith(costs), 100'000u);
}

TEST(DescribePmSampling, SaysWhichIntervalTheHostKeepsUpWithWhenTimeWasLost) {
  PmSamplingLosses losses;
  losses.sampled_ns = 8'960'000'000;
  losses.covered_ns = 5'241'500'000;
  losses.gaps = 261;
  losses.gap_ns = 3'066'000'000;
  PmSamplingCosts costs;
  costs.samples = 1'048'299;
  costs.decode_ns = 7'020'000'000;
  costs.evaluate_ns = 2'980'000'000;
  const std::string line = DescribePmSampling("GPU 0", 5'000, losses, costs, std::chrono::milliseconds(10));
  EXPECT_NE(line.find("; this host decoded 6.7 µs and evaluated 2.8 µs a record, so it keeps up with intervals of "
                      "10 µs or more"),
            std::string::npos)
      << line;
  // Nothing lost: nothing to advise, whatever the costs.
  losses.gaps = 0;
  losses.gap_ns = 0;
  losses.covered_ns = losses.sampled_ns;
  EXPECT_EQ(DescribePmSampling("GPU 0", 5'000, losses, costs, std::chrono::milliseconds(10)).find("keeps up"),
            std::string::npos);
}

TEST(DescribePmSampling, NamesWhereTheFirstHolesFellAndCountsTheRest) {
  PmSamplingLosses losses;
  losses.gaps = 3;
  losses.gap_ns = 7'000'000;
  losses.first_gaps = {{1'200'000'000, 1'900'000}, {3'410'000'000, 1'200'000}};  // the third was not kept
  losses.malformed = 2;
  const std::string line =
      DescribePmSampling("GPU 1", 20'000, losses, PmSamplingCosts{}, std::chrono::milliseconds(100));
  EXPECT_NE(line.find("(3 gap(s), 7.000 ms lost: at 1.200 s +1.900 ms, 3.410 s +1.200 ms, ...; 2 malformed sample(s) "
                      "skipped; 0 overflow(s))"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("slower than the 100 ms period"), std::string::npos) << line;
}

// The record spans CUPTI decoded on the H200 while decoding fell far behind (validation row 65): one ended before it
// began. Skipped and counted, it leaves the coverage as the kept records say (it once read 18,446,744,071,612 ms).
TEST(AccountPmSpan, SkipsAndCountsARecordEndingBeforeItBeginsAndCountsTheHolesBetweenKeptOnes) {
  PmSamplingLosses losses;
  uint64_t last_end = 0;
  const uint64_t start = 1'000'000;
  const uint64_t interval = 50'000;
  EXPECT_EQ(AccountPmSpan({900'000, 1'010'000}, start, interval, &last_end, &losses), PmSpanVerdict::kBeforeStart);
  EXPECT_EQ(AccountPmSpan({1'010'000, 1'060'000}, start, interval, &last_end, &losses), PmSpanVerdict::kKept);
  EXPECT_EQ(AccountPmSpan({1'060'000, 1'110'000}, start, interval, &last_end, &losses), PmSpanVerdict::kKept);
  EXPECT_EQ(AccountPmSpan({1'200'000, 1'150'000}, start, interval, &last_end, &losses), PmSpanVerdict::kMalformed);
  EXPECT_EQ(AccountPmSpan({1'300'000, 1'300'000}, start, interval, &last_end, &losses), PmSpanVerdict::kMalformed);
  // 90 µs after the last kept record: a hole of more than half an interval.
  EXPECT_EQ(AccountPmSpan({1'200'000, 1'250'000}, start, interval, &last_end, &losses), PmSpanVerdict::kKeptAfterHole);
  // 20 µs late: within half an interval, no hole.
  EXPECT_EQ(AccountPmSpan({1'270'000, 1'320'000}, start, interval, &last_end, &losses), PmSpanVerdict::kKept);
  EXPECT_EQ(losses.malformed, 2u);
  EXPECT_EQ(losses.covered_ns, 4 * interval);
  EXPECT_EQ(losses.gaps, 1u);
  EXPECT_EQ(losses.gap_ns, 90'000u);
  ASSERT_EQ(losses.first_gaps.size(), 1u);
  EXPECT_EQ(losses.first_gaps[0].at_ns, 110'000u);  // where the hole began, after Start
  EXPECT_EQ(last_end, 1'320'000u);
  losses.sampled_ns = 400'000;
  const std::string line =
      DescribePmSampling("GPU 0", interval, losses, PmSamplingCosts{}, std::chrono::milliseconds(25));
  EXPECT_NE(line.find("cover 0.2 of 0.4 ms (1 gap(s), 0.090 ms lost: at 0.000 s +0.090 ms; 2 malformed sample(s) "
                      "skipped"),
            std::string::npos)
      << line;
}

}  // namespace
}  // namespace opengpa::nvidia
