// Comparing profiles (src/profiler/profile_comparison.h): the ranks of a job side by side (a rank made slower on
// purpose is the outlier), ratios averaged by time rather than summed, two runs' changes, and files that are not
// profiles refused with the reason.
#include "profiler/profile_comparison.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

namespace opengpa::profiling {
namespace {

// Rank `member`'s launches: gemm (time 1000 x scale, SM 60%) and relu (time 100 x scale, SM 20%), twice each.
ComparedProfile Rank(const std::string& member, double scale) {
  ComparedProfile profile;
  profile.source = member + ".json";
  profile.counters = {{"gpu__time_duration.sum", "nsecond", "float64"},
                      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "percent", "float64"},
                      {"dram__bytes_read.sum", "byte", "float64"}};
  for (int i = 0; i < 2; ++i) {
    profile.launches.push_back({member, "gemm", "step > forward", {1000 * scale, 60, 4096}});
    profile.launches.push_back({member, "relu", "step > forward", {100 * scale, 20, 1024}});
  }
  return profile;
}

TEST(ProfileComparisonTest, TheRankMadeSlowerIsTheOutlierOfEveryKernel) {
  std::vector<GroupAcrossMembers> groups;
  std::string error;
  ASSERT_TRUE(CompareMembers({Rank("rank 0", 1.0), Rank("rank 1", 1.02), Rank("rank 2", 2.0), Rank("rank 3", 0.99)},
                             GroupBy::kKernel, {}, &groups, &error))
      << error;
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].group, "gemm");  // the largest median time first
  for (const GroupAcrossMembers& group : groups) {
    EXPECT_EQ(group.members.size(), 4u);
    EXPECT_EQ(group.launches_median, 2.0);
    EXPECT_EQ(group.outlier, "rank 2");
    ASSERT_EQ(group.spreads.size(), 1u);
    EXPECT_EQ(group.spreads[0].counter, "gpu__time_duration.sum");  // the time counter by default
    EXPECT_EQ(group.spreads[0].max_member, "rank 2");
    EXPECT_EQ(group.spreads[0].min_member, "rank 3");
  }
  EXPECT_DOUBLE_EQ(groups[0].spreads[0].median, 2 * 1000 * 1.01);  // two launches summed; median of 4 members
  EXPECT_NEAR(groups[0].outlier_ratio, 2.0 / 1.01, 1e-12);
}

TEST(ProfileComparisonTest, PercentagesAreAveragedOverTimeAndAmountsSummed) {
  std::vector<GroupAcrossMembers> groups;
  std::string error;
  ASSERT_TRUE(CompareMembers({Rank("rank 0", 1.0)}, GroupBy::kNvtx,
                             {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "dram__bytes_read.sum"}, &groups,
                             &error))
      << error;
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].group, "step > forward");
  EXPECT_DOUBLE_EQ(groups[0].spreads[0].median, (60.0 * 1000 + 20.0 * 100) / 1100);  // weighted by the launches' time
  EXPECT_DOUBLE_EQ(groups[0].spreads[1].median, 2 * (4096.0 + 1024.0));
}

TEST(ProfileComparisonTest, TheSameRankInTwoFilesIsToldApartByFile) {
  std::vector<GroupAcrossMembers> groups;
  std::string error;
  ComparedProfile second = Rank("rank 0", 3.0);
  second.source = "second.json";
  ASSERT_TRUE(CompareMembers({Rank("rank 0", 1.0), second}, GroupBy::kKernel, {}, &groups, &error)) << error;
  ASSERT_EQ(groups[0].members.size(), 2u);
  EXPECT_EQ(groups[0].outlier.rfind("second.json", 0), 0u) << groups[0].outlier;
}

TEST(ProfileComparisonTest, ACounterAProfileLacksIsNamed) {
  std::vector<GroupAcrossMembers> groups;
  std::string error;
  EXPECT_FALSE(CompareMembers({Rank("rank 0", 1.0)}, GroupBy::kKernel, {"smsp__inst_executed.sum"}, &groups, &error));
  EXPECT_NE(error.find("smsp__inst_executed.sum"), std::string::npos) << error;
}

TEST(ProfileComparisonTest, TwoRunsShowWhatMovedLargestFirstAndWhatOnlyOneRan) {
  ComparedProfile before = Rank("pid 1", 1.0);
  ComparedProfile after = Rank("pid 2", 1.0);
  for (auto& launch : after.launches) {
    if (launch.kernel == "relu") launch.values[0] *= 1.5;   // relu got 50% slower
    if (launch.kernel == "gemm") launch.values[2] *= 1.02;  // gemm read 2% more: under the threshold
  }
  after.launches.push_back({"pid 2", "softmax", "", {50, 10, 64}});
  RunDiff diff;
  std::string error;
  ASSERT_TRUE(DiffRuns(before, after, GroupBy::kKernel, {}, 5.0, &diff, &error)) << error;
  ASSERT_FALSE(diff.changes.empty());
  EXPECT_TRUE(diff.changes[0].moved);
  EXPECT_EQ(diff.changes[0].group, "relu");
  EXPECT_EQ(diff.changes[0].counter, "gpu__time_duration.sum");
  EXPECT_DOUBLE_EQ(diff.changes[0].change_percent, 50.0);
  EXPECT_FALSE(diff.changes[1].moved);  // everything else stayed within 5%
  EXPECT_EQ(diff.changes.size(), 6u);   // 2 kernels x 3 counters
  EXPECT_EQ(diff.only_after, std::vector<std::string>{"softmax"});
  EXPECT_TRUE(diff.only_before.empty());
}

TEST(ProfileComparisonTest, ReadsAProfileAndRefusesWhatIsNotOne) {
  const std::string path = ::testing::TempDir() + "/compare_profile.json";
  std::ofstream(path) << R"({"schema":"opengpa-profile/1","counters":[{"name":"GPUTime","usage":"nanoseconds"}],
    "samples":[{"pid":7,"rank":null,"kernel":"k","nvtx":["a","b"],"values":{"GPUTime":12.5}},
               {"pid":8,"rank":1,"kernel":"k","nvtx":[],"values":{"GPUTime":null}}]})";
  ComparedProfile profile;
  std::string error;
  ASSERT_TRUE(ReadProfileForComparison(path, &profile, &error)) << error;
  ASSERT_EQ(profile.launches.size(), 2u);
  EXPECT_EQ(profile.launches[0].member, "pid 7");
  EXPECT_EQ(profile.launches[0].nvtx, "a > b");
  EXPECT_EQ(profile.launches[0].values[0], 12.5);
  EXPECT_EQ(profile.launches[1].member, "rank 1");
  EXPECT_TRUE(std::isnan(profile.launches[1].values[0]));
  EXPECT_EQ(TimeCounter(profile.counters), 0);

  std::ofstream(path) << R"({"schema":"opengpa-doctor/1"})";
  EXPECT_FALSE(ReadProfileForComparison(path, &profile, &error));
  EXPECT_NE(error.find("not an opengpa profile"), std::string::npos) << error;
  std::ofstream(path) << "{ truncated";
  EXPECT_FALSE(ReadProfileForComparison(path, &profile, &error));
  EXPECT_NE(error.find("not JSON"), std::string::npos) << error;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace opengpa::profiling
