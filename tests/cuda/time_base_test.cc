// The time base of the CUDA catalogs (docs/cuda.md "Time base", issues 20 and 36): GPUTime is the busiest SM's
// active time (the kernels' own execution), and every per-time ratio is over the sample's busy time (GR active
// cycles); neither is over its CUPTI range's elapsed time, which holds the profiler's own range start/stop and
// the pass's start-up. Host-only: the embedded catalogs' formulas are
// evaluated on a synthetic sample, and the session's subtraction of the empty range is checked on numbers.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backends/cuda/cuda_session.h"
#include "counters/catalog.h"
#include "counters/expression.h"
#include "cuda_counters/cuda_catalogs.h"

namespace opengpa::cuda {
namespace {

// A sample whose CUPTI range lasted 25 us while the GPU worked 10 us of it: GR at 1.6 GHz, SM at 2 GHz; the
// busiest SM had work for 9.6 us of it (GR's 10 us also hold the front end's processing of the launch);
// over the range's elapsed cycles SM throughput reads 36%, DRAM 8%, L2 20%, L1 16% (elapsed) and 50% (active).
// Over the 10 us of work they are 2.5 times that: 90%, 20%, 50%, 40%.
std::map<std::string, double> Sample() {
  return {
      {"gpu__time_duration.sum", 25000},
      {"gr__cycles_elapsed.avg", 40000},
      {"gr__cycles_active.avg", 16000},
      {"sm__cycles_elapsed.avg", 50000},
      {"sm__cycles_active.avg", 18000},
      {"sm__cycles_active.max", 19200},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 36},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 20},
      {"l1tex__throughput.avg.pct_of_peak_sustained_elapsed", 16},
      {"l1tex__throughput.avg.pct_of_peak_sustained_active", 50},
      {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 20},
      {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", 8},
      {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 8},
      {"lts__t_sectors.avg.pct_of_peak_sustained_elapsed", 12},
  };
}

class TimeBaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const EmbeddedCatalog& embedded : EmbeddedCatalogs()) {
      Catalog catalog;
      std::string error;
      ASSERT_TRUE(ParseCatalog(embedded.text, &catalog, &error)) << embedded.file << ": " << error;
      for (const auto& [name, value] : catalog.constants) constants_[name] = value;
      // The first definition of a name is the one a chip with all its metrics uses (later ones are fallbacks).
      for (const CounterDefinition& counter : catalog.counters) formulas_.emplace(counter.name, counter.formula);
    }
  }

  // The counter's formula evaluated on Sample(); fails the test if it reads a metric Sample() lacks.
  double Evaluate(const std::string& counter) {
    const auto found = formulas_.find(counter);
    EXPECT_NE(found, formulas_.end()) << counter;
    if (found == formulas_.end()) return -1;
    const std::map<std::string, double>& sample = sample_;
    std::vector<double> inputs;
    std::vector<std::string> missing;
    auto resolve = [&](std::string_view name) -> std::optional<Symbol> {
      if (const auto constant = constants_.find(std::string(name)); constant != constants_.end()) {
        return Symbol{Symbol::Kind::kConstant, 0, constant->second};
      }
      const auto value = sample.find(std::string(name));
      if (value == sample.end()) {
        missing.emplace_back(name);
        return std::nullopt;
      }
      inputs.push_back(value->second);
      return Symbol{Symbol::Kind::kInput, static_cast<std::uint32_t>(inputs.size() - 1), 0};
    };
    Expression expression;
    std::string error;
    const bool parsed = Expression::Parse(found->second, resolve, &expression, &error);
    EXPECT_TRUE(parsed) << counter << ": " << error;
    EXPECT_TRUE(missing.empty()) << counter << " reads " << (missing.empty() ? "" : missing.front());
    return parsed ? expression.Evaluate(inputs.data()) : -1;
  }

  std::map<std::string, std::string> formulas_;
  std::map<std::string, double> constants_;
  std::map<std::string, double> sample_ = Sample();
};

TEST_F(TimeBaseTest, GpuTimeIsTheBusiestSmsActiveTimeAndExecutionDurationTheWholeRange) {
  EXPECT_DOUBLE_EQ(Evaluate("GPUTime"), 9600);  // 19200 cycles of the busiest SM at 2 GHz, not GR's 10000 ns
  EXPECT_DOUBLE_EQ(Evaluate("ExecutionDuration"), 25000);
  EXPECT_DOUBLE_EQ(Evaluate("GPUBusy"), 40);  // the one ratio over the whole range: GR's busy share of it
}

TEST_F(TimeBaseTest, GpuTimeIgnoresTheFrontEndsBusyCycles) {
  // The front end busy twice as long (a launch's processing, a range's start and stop) changes nothing.
  sample_["gr__cycles_active.avg"] = 32000;
  EXPECT_DOUBLE_EQ(Evaluate("GPUTime"), 9600);
  sample_["sm__cycles_active.max"] = 0;  // no SM had work (a host-to-device copy): no GPU time
  EXPECT_DOUBLE_EQ(Evaluate("GPUTime"), 0);
}

TEST_F(TimeBaseTest, SpeedOfLightIsOverTheBusyTime) {
  EXPECT_DOUBLE_EQ(Evaluate("SOL_SM"), 90);
  EXPECT_DOUBLE_EQ(Evaluate("SOL_Memory"), 50);
  EXPECT_DOUBLE_EQ(Evaluate("SOL_L2"), 50);
  EXPECT_DOUBLE_EQ(Evaluate("SOL_DRAM"), 20);
  EXPECT_DOUBLE_EQ(Evaluate("SOL_L1TEX"), 50);  // over L1's own active cycles, as ncu's row: unchanged
  EXPECT_DOUBLE_EQ(Evaluate("GPUBottleneckSOL"), 90);
  EXPECT_DOUBLE_EQ(Evaluate("GPUBusiestUnit"), 0);
  // 90% over the busy time: SM-bound. Over the range's elapsed time (36%) it would have read latency-bound (4).
  EXPECT_DOUBLE_EQ(Evaluate("GPUBottleneck"), 0);
}

TEST_F(TimeBaseTest, OtherPerTimeRatiosAreOverTheBusyTime) {
  EXPECT_DOUBLE_EQ(Evaluate("DRAMThroughput"), 20);
  EXPECT_DOUBLE_EQ(Evaluate("L2Throughput"), 30);
  // SMs active 18000 of 50000 elapsed SM cycles = 9 us of the 10 us of work.
  EXPECT_DOUBLE_EQ(Evaluate("SMBusy"), 90);
  EXPECT_DOUBLE_EQ(Evaluate("CSBusy"), 90);
  EXPECT_DOUBLE_EQ(Evaluate("CSTime"), 9000);
}

TEST_F(TimeBaseTest, WorkGrDoesNotSeeNeverReadsAboveOneHundredPercent) {
  // A host-to-device copy runs on a copy engine: DRAM is busy while GR is not, and after the empty range's cycles
  // are subtracted almost no busy time is left. The per-time percentages stop at 100 (the busy time is at least
  // what the unit's counted work takes at its peak); an exactly idle sample reads 0 (division by zero is 0).
  sample_["gr__cycles_active.avg"] = 16;
  sample_["sm__cycles_active.max"] = 0;
  EXPECT_DOUBLE_EQ(Evaluate("GPUTime"), 0);
  EXPECT_DOUBLE_EQ(Evaluate("SOL_DRAM"), 100);
  EXPECT_DOUBLE_EQ(Evaluate("DRAMThroughput"), 100);
  EXPECT_DOUBLE_EQ(Evaluate("GPUBottleneckSOL"), 100);
  sample_["gr__cycles_active.avg"] = 0;
  EXPECT_DOUBLE_EQ(Evaluate("GPUTime"), 0);
  EXPECT_DOUBLE_EQ(Evaluate("SOL_DRAM"), 0);
  EXPECT_DOUBLE_EQ(Evaluate("GPUBusy"), 0);
}

TEST(SubtractIdleRangeTest, TakesTheEmptyRangesBusyCyclesFromEverySampleAndNothingElse) {
  const std::vector<std::string> metrics = {"gr__cycles_active.avg", "gr__cycles_elapsed.avg", "gpu__cycles_active.max",
                                            "sm__cycles_active.avg"};
  const std::vector<double> idle = {3300, 40000, 3300, 0};
  // Two samples: 10 us of work plus the range's own 2 us (GR at 1.65 GHz), and an empty sample whose busy
  // cycles are a little under the idle range's.
  std::vector<double> values = {19800, 60000, 19800, 18000, 3000, 42000, 3000, 0};
  SubtractIdleRange(metrics, idle, &values);
  EXPECT_EQ(values, (std::vector<double>{16500, 60000, 16500, 18000, 0, 42000, 0, 0}));
}

TEST(SubtractIdleRangeTest, WithoutTheEmptyRangeValuesStayAsCuptiGaveThem) {
  const std::vector<std::string> metrics = {"gr__cycles_active.avg"};
  std::vector<double> values = {19800, 5000};
  SubtractIdleRange(metrics, {}, &values);
  EXPECT_EQ(values, (std::vector<double>{19800, 5000}));
}

TEST(SubtractIdleRangeTest, OnlyGrBusyCyclesAreBusyCycleMetrics) {
  EXPECT_TRUE(IsBusyCycleMetric("gr__cycles_active.avg"));
  EXPECT_TRUE(IsBusyCycleMetric("gr__cycles_active.sum"));
  EXPECT_TRUE(IsBusyCycleMetric("gpu__cycles_active.max"));
  EXPECT_FALSE(IsBusyCycleMetric("gr__cycles_elapsed.avg"));
  EXPECT_FALSE(IsBusyCycleMetric("sm__cycles_active.avg"));
  EXPECT_FALSE(IsBusyCycleMetric("gr__cycles_active_foo.avg"));
  EXPECT_FALSE(IsBusyCycleMetric("gpu__time_duration.sum"));
}

}  // namespace
}  // namespace opengpa::cuda
