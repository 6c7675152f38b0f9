// `opengpa profile --api cuda` counter names on an offline GH100 (CUPTI's host API, no GPU): GPA names
// and CUPTI metrics mixed, resolved through the CUDA backend's counter set, split into one-pass groups
// for application replay, and evaluated back into the counters asked for.
#include "profiler/counter_plan.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "profiler/counter_outputs.h"

namespace opengpa::inject_cuda {
namespace {

std::unique_ptr<nvidia::CuptiHostMetrics> Gh100() {
  std::unique_ptr<nvidia::CuptiHostMetrics> chip;
  EXPECT_EQ(nvidia::CuptiHostMetrics::Create("GH100", {}, &chip), kGpaStatusOk);
  return chip;
}

bool Has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(ProfileCounterPlanTest, GpaNamesAndCuptiMetricsMixFreely) {
  auto chip = Gh100();
  ASSERT_TRUE(chip);
  CounterPlan plan;
  std::string error;
  ASSERT_TRUE(PlanCounters(*chip, {}, {"GPUTime", "FetchSize", "smsp__inst_executed.sum"}, &plan, &error)) << error;
  ASSERT_EQ(plan.outputs.size(), 3u);
  EXPECT_EQ(plan.outputs[0].name, "GPUTime");
  EXPECT_EQ(plan.outputs[0].usage, "nanoseconds");
  EXPECT_EQ(plan.outputs[0].formula, "sm__cycles_active.max / sm__cycles_elapsed.avg * gpu__time_duration.sum");
  EXPECT_EQ(plan.outputs[1].name, "FetchSize");
  EXPECT_EQ(plan.outputs[2].formula, "smsp__inst_executed.sum");
  for (const char* metric : {"sm__cycles_active.max", "sm__cycles_elapsed.avg", "gpu__time_duration.sum",
                             "dram__bytes_read.sum", "smsp__inst_executed.sum"}) {
    EXPECT_TRUE(Has(plan.metrics, metric)) << metric;
  }
  EXPECT_EQ(plan.metrics.size(), plan.metric_units.size());
}

TEST(ProfileCounterPlanTest, GpaNamesMatchWithoutRegardToCase) {
  auto chip = Gh100();
  CounterPlan plan;
  std::string error;
  ASSERT_TRUE(PlanCounters(*chip, {}, {"gputime"}, &plan, &error)) << error;
  EXPECT_EQ(plan.outputs[0].name, "GPUTime");
}

TEST(ProfileCounterPlanTest, NamesAreCheckedOnAChipBeforeAnyProgramRuns) {
  std::string error;
  EXPECT_TRUE(CheckCounterNames("GH100", {"GPUTime", "fetchsize", "dram__bytes_read.sum"}, &error)) << error;
  EXPECT_FALSE(CheckCounterNames("GH100", {"GPUTime", "FetchSise"}, &error));
  EXPECT_NE(error.find("\"FetchSise\""), std::string::npos) << error;
  EXPECT_NE(error.find("GH100"), std::string::npos) << error;
  EXPECT_FALSE(CheckCounterNames("GH100", {"dram__bytes_red.sum"}, &error));
  EXPECT_NE(error.find("\"dram__bytes_red.sum\""), std::string::npos) << error;
}

TEST(ProfileCounterPlanTest, AnUnknownNameIsNamedInTheError) {
  auto chip = Gh100();
  CounterPlan plan;
  std::string error;
  EXPECT_FALSE(PlanCounters(*chip, {}, {"GPUTime", "FetchSise"}, &plan, &error));
  EXPECT_NE(error.find("\"FetchSise\""), std::string::npos) << error;
  EXPECT_NE(error.find("GH100"), std::string::npos) << error;
}

TEST(ProfileCounterPlanTest, ATimelineDurationIsAddedOnlyWhenNoOutputGivesOne) {
  auto chip = Gh100();
  CounterPlan with_time;
  CounterPlan without_time;
  std::string error;
  ASSERT_TRUE(PlanCounters(*chip, {}, {"GPUTime"}, &with_time, &error)) << error;
  ASSERT_TRUE(PlanCounters(*chip, {}, {"dram__bytes_read.sum"}, &without_time, &error)) << error;
  EnsureDurationOutput(*chip, &with_time);
  EnsureDurationOutput(*chip, &without_time);
  EXPECT_EQ(with_time.outputs.size(), 1u);
  ASSERT_EQ(without_time.outputs.size(), 2u);
  EXPECT_EQ(without_time.outputs[1].name, "gpu__time_duration.sum");
}

TEST(ProfileCounterPlanTest, ATwoPassSetSplitsIntoOnePassGroupsThatKeepEveryMetric) {
  auto chip = Gh100();
  // docs/validation.md: these seven metrics take 2 passes on GH100.
  const std::vector<std::string> metrics = {"gpu__time_duration.sum",
                                            "dram__bytes_read.sum",
                                            "dram__bytes_write.sum",
                                            "lts__t_sectors_op_read.sum",
                                            "sm__cycles_active.avg",
                                            "smsp__inst_executed.sum",
                                            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"};
  std::vector<std::vector<std::string>> groups;
  std::string error;
  ASSERT_TRUE(SplitIntoSinglePassGroups(*chip, metrics, &groups, &error)) << error;
  ASSERT_GE(groups.size(), 2u);
  std::vector<std::string> joined;
  for (const auto& group : groups) {
    std::unique_ptr<nvidia::CuptiMetricConfig> config;
    ASSERT_EQ(nvidia::CuptiMetricConfig::Create(*chip, group, &config), kGpaStatusOk);
    EXPECT_EQ(config->pass_count(), 1u);
    joined.insert(joined.end(), group.begin(), group.end());
  }
  std::sort(joined.begin(), joined.end());
  std::vector<std::string> expected = metrics;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(joined, expected);  // every metric once
}

TEST(ProfileCounterPlanTest, TheBenchmarksMultiPassSetNeedsOnlyAsManyRunsAsCuptisPasses) {
  auto chip = Gh100();
  // bench/profile's multi-pass set: CUPTI collects it in 2 passes on GH100. Splitting it greedily in order gave 3
  // one-pass groups (the hit rate alone in a third), so application replay ran the program 3 times, not 2.
  const std::vector<std::string> metrics = {"gpu__time_duration.sum",
                                            "sm__cycles_active.avg",
                                            "smsp__inst_executed.sum",
                                            "lts__t_sectors_op_read.sum",
                                            "dram__bytes_read.sum",
                                            "dram__bytes_write.sum",
                                            "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                                            "lts__t_request_hit_rate.pct"};
  std::unique_ptr<nvidia::CuptiMetricConfig> whole;
  ASSERT_EQ(nvidia::CuptiMetricConfig::Create(*chip, metrics, &whole), kGpaStatusOk);
  ASSERT_EQ(whole->pass_count(), 2u);
  std::vector<std::vector<std::string>> groups;
  std::string error;
  ASSERT_TRUE(SplitIntoSinglePassGroups(*chip, metrics, &groups, &error)) << error;
  ASSERT_EQ(groups.size(), 2u);
  std::size_t placed = 0;
  for (const auto& group : groups) {
    std::unique_ptr<nvidia::CuptiMetricConfig> config;
    ASSERT_EQ(nvidia::CuptiMetricConfig::Create(*chip, group, &config), kGpaStatusOk);
    EXPECT_EQ(config->pass_count(), 1u);
    placed += group.size();
  }
  EXPECT_EQ(placed, metrics.size());
}

TEST(ProfileCounterPlanTest, IssueThirtySixsSetHasTwoMetricsThatNeedSeveralPassesAlone) {
  auto chip = Gh100();
  // The set of issue 36 (instructions, FFMA, DRAM read/write, L2 hit %, SM throughput %, time): SM throughput
  // needs 8 passes by itself on GH100 and the sector hit rate 2, so no application replay collects it in whole
  // metrics, and auto refuses it (replay_choice.h) instead of replaying each launch.
  const std::vector<std::string> metrics = {
      "smsp__inst_executed.sum",    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
      "dram__bytes_read.sum",       "dram__bytes_write.sum",
      "lts__t_sector_hit_rate.pct", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
      "gpu__time_duration.sum"};
  const std::vector<SelfMultiPassMetric> alone = MetricsNeedingSeveralPasses(*chip, metrics);
  ASSERT_EQ(alone.size(), 2u);
  EXPECT_EQ(alone[0].name, "lts__t_sector_hit_rate.pct");
  EXPECT_EQ(alone[0].passes, 2u);
  EXPECT_EQ(alone[1].name, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
  EXPECT_EQ(alone[1].passes, 8u);
  std::vector<std::vector<std::string>> groups;
  std::string error;
  EXPECT_FALSE(SplitIntoSinglePassGroups(*chip, metrics, &groups, &error));
  std::unique_ptr<nvidia::CuptiMetricConfig> whole;
  ASSERT_EQ(nvidia::CuptiMetricConfig::Create(*chip, metrics, &whole), kGpaStatusOk);
  const ReplayChoice choice = ChooseReplay(profiling::ReplayMode::kAuto, whole->pass_count(), alone, "GH100");
  EXPECT_FALSE(choice.refusal.empty());
  // The request-based L2 hit rate (GPA's L2CacheHit) fits a pass, so a set with it instead has only one.
  EXPECT_EQ(MetricsNeedingSeveralPasses(*chip, {"lts__t_request_hit_rate.pct", "dram__bytes_write.sum"}).size(), 0u);
}

TEST(ProfileCounterPlanTest, PlannedGpaCountersEvaluateWithTheLibraryEngine) {
  auto chip = Gh100();
  CounterPlan plan;
  std::string error;
  ASSERT_TRUE(PlanCounters(*chip, {}, {"FetchSize", "GPUTime"}, &plan, &error)) << error;
  profiling::ProfileRun run;
  profiling::Sample sample;
  for (const std::string& metric : plan.metrics) {
    run.counters.push_back({metric, "", "float64"});
    const double value = metric == "dram__bytes_read.sum"     ? 2048.0
                         : metric == "sm__cycles_active.max"  ? 50.0
                         : metric == "sm__cycles_elapsed.avg" ? 100.0
                         : metric == "gpu__time_duration.sum" ? 8000.0
                                                              : 0.0;
    sample.values.push_back(value);
  }
  run.samples = {sample};
  run.outputs = plan.outputs;
  run.constants = plan.constants;
  ASSERT_TRUE(profiling::EvaluateOutputs(&run, &error)) << error;
  EXPECT_DOUBLE_EQ(run.samples[0].values[0], 2.0);     // FetchSize: kilobytes
  EXPECT_DOUBLE_EQ(run.samples[0].values[1], 4000.0);  // GPUTime: the busiest SM's active half of 8000 ns
}

}  // namespace
}  // namespace opengpa::inject_cuda
