// The sampled mode's counters (src/profiler/sampled_counters.h): which PM metrics a set needs, and the
// Speed-of-Light counters computed per launch from the unit throughputs the launch got its share of.
#include "profiler/sampled_counters.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "profiler/counter_outputs.h"
#include "profiler/sampled_profile.h"

namespace opengpa::profiling {
namespace {

const char* const kSm = "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed";
const char* const kL1 = "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed";
const char* const kL2 = "LTS.TriageCompute.lts__throughput.avg.pct_of_peak_sustained_elapsed";
const char* const kDram = "dram__throughput.avg.pct_of_peak_sustained_elapsed";

std::vector<std::string> OutputNames(const SampledCounterPlan& plan) {
  std::vector<std::string> names;
  for (const OutputCounter& output : plan.outputs) names.push_back(output.name);
  return names;
}

TEST(SampledCountersTest, MetricsAloneAreMeasuredAsAskedAtTheDefaultInterval) {
  SampledCounterPlan plan;
  std::string error;
  ASSERT_TRUE(PlanSampledCounters({"dram__bytes_read.sum", "lts__t_bytes.sum", "dram__bytes_read.sum"}, &plan, &error))
      << error;
  EXPECT_EQ(plan.pm_metrics, (std::vector<std::string>{"dram__bytes_read.sum", "lts__t_bytes.sum"}));
  EXPECT_EQ(OutputNames(plan), (std::vector<std::string>{"dram__bytes_read.sum", "lts__t_bytes.sum", kCoverageColumn,
                                                         kSamplesColumn, kOverlappedColumn, kShortColumn}));
  EXPECT_FALSE(plan.reads_sm_throughput);
  EXPECT_EQ(DefaultSampledIntervalUs(plan), kDefaultSampledIntervalUs);
  // PM sampling's SM throughput asked by its own name costs the host as much as through SOL_SM.
  ASSERT_TRUE(PlanSampledCounters({kSm}, &plan, &error)) << error;
  EXPECT_EQ(DefaultSampledIntervalUs(plan), kSmThroughputSampledIntervalUs);
}

TEST(SampledCountersTest, ASpeedOfLightCounterSamplesTheThroughputItReadsInAnyCaseAndSlowerForTheSm) {
  SampledCounterPlan plan;
  std::string error;
  ASSERT_TRUE(PlanSampledCounters({"sol_dram", "dram__bytes_read.sum", "SOL_SM"}, &plan, &error)) << error;
  EXPECT_EQ(plan.pm_metrics, (std::vector<std::string>{kDram, "dram__bytes_read.sum", kSm}));
  const std::vector<std::string> names = OutputNames(plan);
  ASSERT_EQ(names.size(), 7u);
  EXPECT_EQ(names[0], "SOL_DRAM");  // the catalog's spelling
  EXPECT_EQ(names[1], "dram__bytes_read.sum");
  EXPECT_EQ(names[2], "SOL_SM");
  EXPECT_EQ(plan.outputs[0].usage, "percentage");
  EXPECT_EQ(DefaultSampledIntervalUs(plan), kSmThroughputSampledIntervalUs);  // the SM's and two more: 100 µs
  ASSERT_TRUE(PlanSampledCounters({"SpeedOfLight", "sm__inst_executed.sum", "lts__t_bytes.sum"}, &plan, &error))
      << error;
  EXPECT_EQ(DefaultSampledIntervalUs(plan), 6 * kSmThroughputUsPerMetric);  // six metrics: 150 µs
  ASSERT_TRUE(PlanSampledCounters({"SOL_SM"}, &plan, &error)) << error;
  EXPECT_EQ(DefaultSampledIntervalUs(plan), kSmThroughputSampledIntervalUs);
  // SOL_DRAM alone reads DRAM throughput only, which keeps the finer default.
  ASSERT_TRUE(PlanSampledCounters({"SOL_DRAM"}, &plan, &error)) << error;
  EXPECT_EQ(plan.pm_metrics, std::vector<std::string>{kDram});
  EXPECT_EQ(DefaultSampledIntervalUs(plan), kDefaultSampledIntervalUs);
}

TEST(SampledCountersTest, TheGroupNameAsksForEveryCounterAndTheFourThroughputsOnce) {
  SampledCounterPlan plan;
  std::string error;
  ASSERT_TRUE(PlanSampledCounters({"SpeedOfLight", "GPUBottleneck"}, &plan, &error)) << error;
  EXPECT_EQ(plan.pm_metrics, (std::vector<std::string>{kSm, kL1, kL2, kDram}));
  EXPECT_EQ(DefaultSampledIntervalUs(plan), 4 * kSmThroughputUsPerMetric);  // 100 µs: four costly metrics
  const std::vector<std::string> names = OutputNames(plan);
  EXPECT_EQ(names, (std::vector<std::string>{"SOL_SM", "SOL_Memory", "SOL_L1TEX", "SOL_L2", "SOL_DRAM", "GPUBottleneck",
                                             "GPUBusiestUnit", "GPUBottleneckSOL", kCoverageColumn, kSamplesColumn,
                                             kOverlappedColumn, kShortColumn}));
}

TEST(SampledCountersTest, AnotherGpaCounterIsRefusedNamingItAndWhatTheModeTakes) {
  SampledCounterPlan plan;
  plan.pm_metrics = {"untouched"};
  std::string error;
  EXPECT_FALSE(PlanSampledCounters({"dram__bytes_read.sum", "GPUTime"}, &plan, &error));
  EXPECT_NE(error.find("'GPUTime'"), std::string::npos) << error;
  EXPECT_NE(error.find("SOL_SM"), std::string::npos) << error;
  EXPECT_NE(error.find("--mode exact"), std::string::npos) << error;
  EXPECT_EQ(plan.pm_metrics, std::vector<std::string>{"untouched"});
}

// The sampled Speed-of-Light counters carry the exact mode's names, units and GPUBottleneck numbering
// (catalogs/cuda_sol.json): one vocabulary, so a report or a comparison reads both modes alike.
TEST(SampledCountersTest, EveryCounterIsOneTheExactModesCatalogHasWithItsUnit) {
  std::ifstream file(std::string(OPENGPA_CATALOGS_DIR) + "/cuda_sol.json");
  ASSERT_TRUE(file.good());
  const nlohmann::json exact = nlohmann::json::parse(file);
  std::map<std::string, std::string> exact_usage;
  for (const auto& counter : exact["counters"]) exact_usage[counter["name"]] = counter["usage"];
  SampledCounterPlan plan;
  std::string error;
  ASSERT_TRUE(PlanSampledCounters({"SpeedOfLight"}, &plan, &error)) << error;
  for (std::size_t i = 0; i + 4 < plan.outputs.size(); ++i) {
    const OutputCounter& counter = plan.outputs[i];
    ASSERT_TRUE(exact_usage.count(counter.name)) << counter.name << " is not in catalogs/cuda_sol.json";
    EXPECT_EQ(exact_usage[counter.name], counter.usage) << counter.name;
  }
}

// Three launches on one GPU, each alone in its samples, through the same steps as the CLI: attribution, then the
// outputs evaluated per row.
TEST(SampledCountersTest, EachLaunchGetsItsUnitsSpeedOfLightAndItsBottleneck) {
  SampledCounterPlan plan;
  std::string error;
  ASSERT_TRUE(PlanSampledCounters({"SpeedOfLight"}, &plan, &error)) << error;
  ProfileRun run;
  run.queues = {{0, "stream 7", "H100", {0, "GPU-a", ""}}};
  auto launch = [](std::uint64_t correlation, std::uint64_t start, std::uint64_t end) {
    Sample sample;
    sample.pid = 1;
    sample.index = correlation;
    sample.name = "k";
    sample.start_ns = start;
    sample.end_ns = end;
    return sample;
  };
  // Samples of 100 ns; each launch spans two samples of its own. Throughputs in the order SM, L1, L2, DRAM.
  run.samples = {launch(1, 0, 200), launch(2, 200, 400), launch(3, 400, 600), launch(4, 900, 1000)};
  GpuSampleSeries gpu;
  gpu.gpu.uuid = "GPU-a";
  const std::vector<std::array<double, 4>> per_launch = {
      {40, 30, 55, 88},   // memory-bound: DRAM 88%
      {70, 65, 20, 10},   // SM 70%, L1 close behind
      {25, 12, 30, 41}};  // no unit at 60%: latency-bound, its busiest unit DRAM
  for (std::size_t i = 0; i < 6; ++i) {
    gpu.samples.spans.push_back({100 * i, 100 * (i + 1)});
    for (double value : per_launch[i / 2]) gpu.samples.values.push_back(value);
  }
  // The fourth launch (900-1000 ns) ran where no sample was decoded.
  std::vector<ProfiledCounter> columns;
  std::vector<MetricKind> kinds;
  for (const std::string& metric : plan.pm_metrics) {
    columns.push_back({metric, "%", "float64"});
    kinds.push_back(MetricKindOf(metric, false));
    EXPECT_EQ(kinds.back(), MetricKind::kTimeAverage) << metric;
  }
  AttributeSampledRun({gpu}, columns, kinds, 100, &run);
  SetSampledOutputs(plan, &run);
  ASSERT_TRUE(EvaluateOutputs(&run, &error)) << error;

  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < run.counters.size(); ++i) column[run.counters[i].name] = i;
  ASSERT_EQ(run.counters.size(), 12u);
  EXPECT_EQ(run.counters[column[kCoverageColumn]].usage, "ratio");
  auto value = [&](std::size_t row, const char* name) { return run.samples[row].values[column[name]]; };
  EXPECT_NEAR(value(0, "SOL_DRAM"), 88.0, 1e-9);
  EXPECT_NEAR(value(0, "SOL_Memory"), 88.0, 1e-9);
  EXPECT_EQ(value(0, "GPUBottleneck"), 3.0);
  EXPECT_NEAR(value(1, "SOL_SM"), 70.0, 1e-9);
  EXPECT_NEAR(value(1, "SOL_L1TEX"), 65.0, 1e-9);
  EXPECT_EQ(value(1, "GPUBottleneck"), 0.0);
  EXPECT_EQ(value(2, "GPUBottleneck"), 4.0);  // latency-bound
  EXPECT_EQ(value(2, "GPUBusiestUnit"), 3.0);
  EXPECT_NEAR(value(2, "GPUBottleneckSOL"), 41.0, 1e-9);
  EXPECT_NEAR(value(2, "SOL_L2"), 30.0, 1e-9);
  EXPECT_EQ(value(1, kSamplesColumn), 2.0);
  // No sample: no value, not a latency-bound 4 or a 0%.
  EXPECT_TRUE(std::isnan(value(3, "SOL_SM")));
  EXPECT_TRUE(std::isnan(value(3, "GPUBottleneck")));
  EXPECT_EQ(value(3, kCoverageColumn), 0.0);
}

// A throughput read above 100% (a sample's rounding, a launch's share of a boundary sample) is capped, as the
// exact mode's SOL is.
TEST(SampledCountersTest, AThroughputAboveItsPeakReadsAsOneHundredPercent) {
  SampledCounterPlan plan;
  std::string error;
  ASSERT_TRUE(PlanSampledCounters({"SOL_SM", "GPUBottleneckSOL"}, &plan, &error)) << error;
  ProfileRun run;
  run.counters = {{kSm, "%", "float64"},
                  {kL1, "%", "float64"},
                  {kL2, "%", "float64"},
                  {kDram, "%", "float64"},
                  {kCoverageColumn, "ratio", "float64"},
                  {kSamplesColumn, "items", "uint64"},
                  {kOverlappedColumn, "boolean", "uint64"},
                  {kShortColumn, "boolean", "uint64"}};
  Sample sample;
  sample.values = {103.5, 20, 20, 20, 1, 3, 0, 0};
  run.samples = {sample};
  SetSampledOutputs(plan, &run);
  ASSERT_TRUE(EvaluateOutputs(&run, &error)) << error;
  EXPECT_EQ(run.samples[0].values[0], 100.0);
  EXPECT_EQ(run.samples[0].values[1], 100.0);
}

}  // namespace
}  // namespace opengpa::profiling
