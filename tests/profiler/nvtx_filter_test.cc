#include "profiler/nvtx_filter.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "profiler/profile_environment.h"

namespace opengpa::profiling {
namespace {

NvtxFilter FilterOf(const std::vector<std::string>& specs) {
  NvtxFilter filter;
  std::string error;
  EXPECT_TRUE(NvtxFilter::Create(specs, &filter, &error)) << error;
  return filter;
}

TEST(NvtxFilterTest, WithoutSpecsTheFilterIsInactive) { EXPECT_FALSE(FilterOf({}).Active()); }

TEST(NvtxFilterTest, ANameMatchesARangeOfTheDefaultDomainOpenAtAnyDepth) {
  const NvtxFilter filter = FilterOf({"forward"});
  EXPECT_TRUE(filter.Active());
  EXPECT_TRUE(filter.Matches({{"", "forward"}}));
  EXPECT_TRUE(filter.Matches({{"", "epoch 1"}, {"", "forward"}, {"", "conv"}}));
  EXPECT_FALSE(filter.Matches({{"", "backward"}}));
  EXPECT_FALSE(filter.Matches({}));
  EXPECT_FALSE(filter.Matches({{"", "Forward"}}));  // NVTX messages are matched exactly, as ncu does
}

TEST(NvtxFilterTest, ANameDoesNotMatchTheSameMessageInARegisteredDomain) {
  EXPECT_FALSE(FilterOf({"forward"}).Matches({{"torch", "forward"}}));
}

TEST(NvtxFilterTest, DomainAtNameMatchesOnlyThatDomain) {
  const NvtxFilter filter = FilterOf({"torch@forward"});
  EXPECT_TRUE(filter.Matches({{"torch", "forward"}}));
  EXPECT_FALSE(filter.Matches({{"", "forward"}}));
  EXPECT_FALSE(filter.Matches({{"nccl", "forward"}}));
}

TEST(NvtxFilterTest, ALaunchIsChosenWhenAnySpecMatchesAnyOpenRange) {
  const NvtxFilter filter = FilterOf({"a", "b/"});  // ncu's trailing slash marks a push/pop range
  EXPECT_TRUE(filter.Matches({{"", "b"}}));
  EXPECT_TRUE(filter.Matches({{"", "x"}, {"", "a"}}));
  EXPECT_FALSE(filter.Matches({{"", "c"}}));
}

TEST(NvtxFilterTest, EmptySpecsAndNestedPathsAreRefusedQuotingTheSpec) {
  NvtxFilter filter;
  std::string error;
  EXPECT_FALSE(NvtxFilter::Create({""}, &filter, &error));
  EXPECT_FALSE(NvtxFilter::Create({"@name"}, &filter, &error));
  EXPECT_FALSE(NvtxFilter::Create({"domain@"}, &filter, &error));
  EXPECT_FALSE(NvtxFilter::Create({"outer/inner"}, &filter, &error));
  EXPECT_NE(error.find("\"outer/inner\""), std::string::npos) << error;
}

TEST(NvtxFilterTest, LabelsNameTheDomainOnlyOutsideTheDefaultOne) {
  EXPECT_EQ(NvtxRangeLabel({"", "forward"}), "forward");
  EXPECT_EQ(NvtxRangeLabel({"torch", "forward"}), "torch@forward");
}

TEST(NvtxFilterTest, SpecsTravelToTheInjectedLibraryThroughTheEnvironment) {
  ProfileSettings settings;
  settings.nvtx_include = {"forward", "torch@a, b"};
  for (const auto& [name, value] : SettingsEnvironment(settings)) setenv(name.c_str(), value.c_str(), 1);
  ProfileSettings read;
  std::string error;
  ASSERT_TRUE(SettingsFromEnvironment(&read, &error)) << error;
  EXPECT_EQ(read.nvtx_include, settings.nvtx_include);
  unsetenv(kNvtxIncludeVariable);
}

}  // namespace
}  // namespace opengpa::profiling
