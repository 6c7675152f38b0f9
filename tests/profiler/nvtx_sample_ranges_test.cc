#include "profiler/nvtx_sample_ranges.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "profiler/profile_environment.h"

namespace opengpa::profiling {
namespace {

NvtxSampleRanges RangesOf(const std::vector<std::string>& include, const std::string& name = "", std::uint64_t skip = 0,
                          std::uint64_t count = 0) {
  NvtxFilter nvtx;
  LaunchFilter filter;
  std::string error;
  EXPECT_TRUE(NvtxFilter::Create(include, &nvtx, &error)) << error;
  EXPECT_TRUE(LaunchFilter::Create(name, skip, count, &filter, &error)) << error;
  return NvtxSampleRanges(std::move(nvtx), std::move(filter));
}

constexpr std::uint64_t kMain = 1;
constexpr std::uint64_t kOther = 2;

TEST(NvtxSampleRangesTest, WithoutFiltersEachOutermostRangeIsOneSampleNamedByItsPath) {
  NvtxSampleRanges ranges = RangesOf({});
  auto started = ranges.OnPush(kMain, {{"", "step"}});
  ASSERT_TRUE(started);
  EXPECT_EQ(started->path, "step");
  EXPECT_EQ(started->index, 0u);
  // A range inside it is part of it, not a sample of its own.
  EXPECT_FALSE(ranges.OnPush(kMain, {{"", "step"}, {"", "conv"}}));
  EXPECT_FALSE(ranges.OnPop(kMain, {{"", "step"}}));
  EXPECT_TRUE(ranges.Open());
  EXPECT_TRUE(ranges.OnPop(kMain, {}));
  EXPECT_FALSE(ranges.Open());
  // The next outermost range is the next sample; its index counts every push before it.
  started = ranges.OnPush(kMain, {{"", "step"}});
  ASSERT_TRUE(started);
  EXPECT_EQ(started->index, 2u);
}

TEST(NvtxSampleRangesTest, NvtxIncludeChoosesTheOutermostMatchingRangeAndItsPathNamesTheRangesAround) {
  NvtxSampleRanges ranges = RangesOf({"torch@forward"});
  EXPECT_FALSE(ranges.OnPush(kMain, {{"", "epoch"}}));
  auto started = ranges.OnPush(kMain, {{"", "epoch"}, {"torch", "forward"}});
  ASSERT_TRUE(started);
  EXPECT_EQ(started->path, "epoch/torch@forward");
  EXPECT_EQ(started->labels, (std::vector<std::string>{"epoch", "torch@forward"}));
  EXPECT_FALSE(ranges.OnPush(kMain, {{"", "epoch"}, {"torch", "forward"}, {"torch", "forward"}}));
  EXPECT_FALSE(ranges.OnPop(kMain, {{"", "epoch"}, {"torch", "forward"}}));
  EXPECT_TRUE(ranges.OnPop(kMain, {{"", "epoch"}}));
  EXPECT_FALSE(ranges.OnPop(kMain, {}));  // the outer range was never a sample
}

TEST(NvtxSampleRangesTest, RangesOfOtherThreadsWhileOneIsOpenArePartOfIt) {
  NvtxSampleRanges ranges = RangesOf({});
  ASSERT_TRUE(ranges.OnPush(kMain, {{"", "a"}}));
  EXPECT_FALSE(ranges.OnPush(kOther, {{"", "b"}}));
  EXPECT_FALSE(ranges.OnPop(kOther, {}));  // another thread's pop does not end it
  EXPECT_TRUE(ranges.Open());
  EXPECT_TRUE(ranges.OnPop(kMain, {}));
  EXPECT_TRUE(ranges.OnPush(kOther, {{"", "b"}}));
}

TEST(NvtxSampleRangesTest, KernelNameSkipAndCountChooseRangesByTheirPath) {
  NvtxSampleRanges ranges = RangesOf({}, "^iter", 1, 2);
  EXPECT_FALSE(ranges.OnPush(kMain, {{"", "setup"}}));  // no match: not counted
  EXPECT_FALSE(ranges.OnPop(kMain, {}));
  EXPECT_FALSE(ranges.OnPush(kMain, {{"", "iter 0"}}));  // skipped
  EXPECT_FALSE(ranges.OnPop(kMain, {}));
  for (const char* name : {"iter 1", "iter 2"}) {
    ASSERT_TRUE(ranges.OnPush(kMain, {{"", name}})) << name;
    EXPECT_TRUE(ranges.OnPop(kMain, {}));
  }
  EXPECT_TRUE(ranges.Exhausted());
  EXPECT_FALSE(ranges.OnPush(kMain, {{"", "iter 3"}}));
}

TEST(NvtxSampleRangesTest, AForgottenRangeLetsTheNextPushStartASample) {
  NvtxSampleRanges ranges = RangesOf({});
  ASSERT_TRUE(ranges.OnPush(kMain, {{"", "a"}}));
  ranges.Forget();
  EXPECT_FALSE(ranges.OnPop(kMain, {}));
  EXPECT_TRUE(ranges.OnPush(kMain, {{"", "b"}}));
}

TEST(NvtxSampleRangesTest, RangeModeTravelsThroughTheEnvironmentAndABadValueIsRefused) {
  ProfileSettings written;
  written.range_mode = RangeMode::kNvtx;
  for (const auto& [name, value] : SettingsEnvironment(written)) setenv(name.c_str(), value.c_str(), 1);
  ProfileSettings read;
  std::string error;
  ASSERT_TRUE(SettingsFromEnvironment(&read, &error)) << error;
  EXPECT_EQ(read.range_mode, RangeMode::kNvtx);
  setenv(kRangeModeVariable, "launch", 1);
  EXPECT_FALSE(SettingsFromEnvironment(&read, &error));
  EXPECT_NE(error.find("OPENGPA_PROFILE_RANGE_MODE=launch"), std::string::npos) << error;
  for (const auto& [name, value] : SettingsEnvironment(written)) unsetenv(name.c_str());
}

}  // namespace
}  // namespace opengpa::profiling
