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
  const std::string line = DescribePmSampling("GPU 0", 5'000, losses, costs, std::chrono::milliseconds(25));
  EXPECT_EQ(line,
            "PM sampling on GPU 0: 801234 samples of 5.0 µs cover 4006.2 of 4010.0 ms (0 gap(s), 0.000 ms lost; 0 "
            "overflow(s)); decoding 2.10 s of CPU in 160 call(s) (longest 31.0 ms, 3 slower than the 25 ms period), "
            "evaluating 1.36 s");
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

}  // namespace
}  // namespace opengpa::nvidia
