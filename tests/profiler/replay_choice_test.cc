// The replay of a counter set (src/profiler/replay_choice.h): what --replay-mode asks for, what auto picks, and the
// sets auto refuses because no replay gives their one-pass values (issue 36).
#include "profiler/replay_choice.h"

#include <gtest/gtest.h>

namespace opengpa::inject_cuda {
namespace {

using profiling::ReplayMode;

const std::vector<SelfMultiPassMetric> kNone;
const std::vector<SelfMultiPassMetric> kSmThroughput = {{"sm__throughput.avg.pct_of_peak_sustained_elapsed", 8}};

TEST(ReplayChoiceTest, AutoRunsOnePassSetsOnceAndSplitsTheOthersAcrossRuns) {
  ReplayChoice choice = ChooseReplay(ReplayMode::kAuto, 1, kNone, "GH100");
  EXPECT_EQ(choice.mode, ReplayMode::kNone);
  EXPECT_TRUE(choice.refusal.empty());
  EXPECT_TRUE(choice.note.empty());
  choice = ChooseReplay(ReplayMode::kAuto, 2, kNone, "GH100");
  EXPECT_EQ(choice.mode, ReplayMode::kApplication);
  EXPECT_TRUE(choice.refusal.empty());
  EXPECT_TRUE(choice.note.empty());
}

TEST(ReplayChoiceTest, AutoRefusesASetWithAMetricThatNeedsSeveralPassesAloneNamingIt) {
  // Kernel replay would collect it, with values that are not one pass's: auto never picks it for that.
  const std::vector<SelfMultiPassMetric> alone = {kSmThroughput[0], {"lts__t_sector_hit_rate.pct", 2}};
  const ReplayChoice choice = ChooseReplay(ReplayMode::kAuto, 9, alone, "GH100");
  EXPECT_NE(choice.refusal.find("GH100"), std::string::npos) << choice.refusal;
  EXPECT_NE(choice.refusal.find("sm__throughput.avg.pct_of_peak_sustained_elapsed (8 passes)"), std::string::npos)
      << choice.refusal;
  EXPECT_NE(choice.refusal.find("lts__t_sector_hit_rate.pct (2 passes)"), std::string::npos) << choice.refusal;
  EXPECT_NE(choice.refusal.find("--replay-mode kernel"), std::string::npos) << choice.refusal;
}

TEST(ReplayChoiceTest, KernelReplayAskedForIsKeptAndSaysWhichValuesDiffer) {
  ReplayChoice choice = ChooseReplay(ReplayMode::kKernel, 8, kSmThroughput, "GH100");
  EXPECT_EQ(choice.mode, ReplayMode::kKernel);
  EXPECT_TRUE(choice.refusal.empty());
  EXPECT_NE(choice.note.find("kernel replay of 8 passes"), std::string::npos) << choice.note;
  EXPECT_NE(choice.note.find("DRAM"), std::string::npos) << choice.note;
  // One pass replays nothing: nothing to say.
  choice = ChooseReplay(ReplayMode::kKernel, 1, kNone, "GH100");
  EXPECT_EQ(choice.mode, ReplayMode::kKernel);
  EXPECT_TRUE(choice.note.empty());
}

TEST(ReplayChoiceTest, NoneAndApplicationRefuseWhatTheyCannotCollect) {
  ReplayChoice choice = ChooseReplay(ReplayMode::kNone, 2, kNone, "GH100");
  EXPECT_NE(choice.refusal.find("need 2 passes on GH100"), std::string::npos) << choice.refusal;
  EXPECT_TRUE(ChooseReplay(ReplayMode::kNone, 1, kNone, "GH100").refusal.empty());
  choice = ChooseReplay(ReplayMode::kApplication, 8, kSmThroughput, "GH100");
  EXPECT_EQ(choice.mode, ReplayMode::kApplication);
  EXPECT_NE(choice.refusal.find("sm__throughput.avg.pct_of_peak_sustained_elapsed (8 passes) needs several passes"),
            std::string::npos)
      << choice.refusal;
  EXPECT_TRUE(ChooseReplay(ReplayMode::kApplication, 3, kNone, "GH100").refusal.empty());
}

TEST(ReplayChoiceTest, KernelReplayNoteIsEmptyForOnePass) {
  EXPECT_TRUE(KernelReplayNote(1).empty());
  EXPECT_FALSE(KernelReplayNote(2).empty());
}

}  // namespace
}  // namespace opengpa::inject_cuda
