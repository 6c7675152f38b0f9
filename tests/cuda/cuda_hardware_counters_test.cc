// The hardware-counter list a CUDA context exposes: every CUPTI metric with its rollups, typed and
// described from CUPTI's properties.
#include "cuda_counters/cuda_hardware_counters.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "cuda_counters/cuda_catalogs.h"

namespace opengpa::cuda {
namespace {

using nvidia::CuptiHostMetrics;
using nvidia::MetricKind;

using ::testing::HasSubstr;

std::unique_ptr<CuptiHostMetrics> Chip(const char* name) {
  std::unique_ptr<CuptiHostMetrics> chip;
  EXPECT_EQ(CuptiHostMetrics::Create(name, {}, &chip), kGpaStatusOk);
  return chip;
}

const HardwareCounterInfo* Find(const std::vector<HardwareCounterInfo>& counters, const std::string& name) {
  for (const HardwareCounterInfo& counter : counters) {
    if (counter.name == name) return &counter;
  }
  return nullptr;
}

TEST(CuptiHardwareCountersTest, EveryBaseMetricAppearsWithEachOfItsRollups) {
  auto chip = Chip("GH100");
  std::vector<HardwareCounterInfo> counters;
  ASSERT_EQ(BuildHardwareCounters(*chip, {}, &counters), kGpaStatusOk);

  std::size_t expected = chip->BaseMetrics(MetricKind::kCounter).size() * 4;  // .sum .avg .min .max
  for (const std::string& base : chip->BaseMetrics(MetricKind::kCounter)) {
    for (const char* rollup : {".sum", ".avg", ".min", ".max"}) {
      ASSERT_NE(Find(counters, base + rollup), nullptr) << base << rollup;
    }
  }
  expected += chip->BaseMetrics(MetricKind::kRatio).size() * 3;  // .ratio .pct .max_rate
  // {avg,max,min,sum} x pct_of_peak_sustained_{active,elapsed}
  expected += chip->BaseMetrics(MetricKind::kThroughput).size() * 8;
  EXPECT_EQ(counters.size(), expected);

  std::set<std::string> names;
  for (const HardwareCounterInfo& counter : counters) names.insert(counter.name);
  EXPECT_EQ(names.size(), counters.size()) << "names are unique";
}

TEST(CuptiHardwareCountersTest, CountersAreTypedByRollupAndDimension) {
  auto chip = Chip("GH100");
  std::vector<HardwareCounterInfo> counters;
  ASSERT_EQ(BuildHardwareCounters(*chip, {}, &counters), kGpaStatusOk);

  const HardwareCounterInfo* bytes = Find(counters, "dram__bytes_read.sum");
  ASSERT_NE(bytes, nullptr);
  EXPECT_EQ(bytes->data_type, kGpaDataTypeUint64);
  EXPECT_EQ(bytes->usage, kGpaUsageTypeBytes);
  EXPECT_EQ(bytes->group, "dram");
  EXPECT_EQ(bytes->unit, "dram");
  EXPECT_THAT(bytes->description, HasSubstr("bytes read from DRAM"));
  EXPECT_THAT(bytes->description, HasSubstr("sum over all dram units"));

  const HardwareCounterInfo* time = Find(counters, "gpu__time_duration.sum");
  ASSERT_NE(time, nullptr);
  EXPECT_EQ(time->usage, kGpaUsageTypeNanoseconds);

  const HardwareCounterInfo* cycles = Find(counters, "sm__cycles_active.avg");
  ASSERT_NE(cycles, nullptr);
  EXPECT_EQ(cycles->data_type, kGpaDataTypeFloat64);
  EXPECT_EQ(cycles->usage, kGpaUsageTypeCycles);

  const HardwareCounterInfo* hit_rate = Find(counters, "lts__t_sector_hit_rate.pct");
  ASSERT_NE(hit_rate, nullptr);
  EXPECT_EQ(hit_rate->data_type, kGpaDataTypeFloat64);
  EXPECT_EQ(hit_rate->usage, kGpaUsageTypePercentage);

  const HardwareCounterInfo* ratio = Find(counters, "lts__t_sector_hit_rate.ratio");
  ASSERT_NE(ratio, nullptr);
  EXPECT_EQ(ratio->usage, kGpaUsageTypeRatio);

  const HardwareCounterInfo* throughput = Find(counters, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  ASSERT_NE(throughput, nullptr);
  EXPECT_EQ(throughput->usage, kGpaUsageTypePercentage);
}

TEST(CuptiHardwareCountersTest, SubMetricsNamedByFormulasAreAddedWhenTheChipHasThem) {
  auto chip = Chip("GH100");
  std::vector<HardwareCounterInfo> counters;
  ASSERT_EQ(BuildHardwareCounters(*chip,
                                  {"sm__warps_active.avg.pct_of_peak_sustained_active", "SM_COUNT",
                                   "no_such__metric.sum", "dram__bytes_read.sum", "dram__bytes_read"},
                                  &counters),
            kGpaStatusOk);
  const HardwareCounterInfo* occupancy = Find(counters, "sm__warps_active.avg.pct_of_peak_sustained_active");
  ASSERT_NE(occupancy, nullptr);
  EXPECT_EQ(occupancy->usage, kGpaUsageTypePercentage);
  EXPECT_EQ(Find(counters, "SM_COUNT"), nullptr);             // a constant, not a metric
  EXPECT_EQ(Find(counters, "no_such__metric.sum"), nullptr);  // not on this chip
  EXPECT_EQ(Find(counters, "dram__bytes_read"), nullptr);     // a base metric has no value of its own
  EXPECT_EQ(std::count_if(counters.begin(), counters.end(),
                          [](const HardwareCounterInfo& c) { return c.name == "dram__bytes_read.sum"; }),
            1);
}

TEST(CuptiHardwareCountersTest, NamesInFormulasSkipsNumbersAndFunctions) {
  const std::string catalog = R"json({"counters": [
    {"name": "A", "group": "g", "description": "d", "type": "float64", "usage": "ratio",
     "formula": "max(min(x__y.sum / 1.5e3 * 100, 100), 0) + MAX(z.avg.pct_of_peak_sustained_active, .5)"},
    {"name": "B", "group": "g", "description": "d", "type": "float64", "usage": "ratio", "formula": "x__y.sum - SM_COUNT"}
  ]})json";
  EXPECT_THAT(NamesInFormulas({catalog}),
              ::testing::ElementsAre("x__y.sum", "z.avg.pct_of_peak_sustained_active", "SM_COUNT"));
}

TEST(CuptiHardwareCountersTest, TheEmbeddedCatalogsAreEveryCountersCudaJson) {
  ASSERT_FALSE(EmbeddedCatalogs().empty());
  EXPECT_EQ(EmbeddedCatalogs().front().file, "cuda.json");
  for (const EmbeddedCatalog& catalog : EmbeddedCatalogs()) {
    EXPECT_EQ(catalog.file.substr(0, 4), "cuda") << catalog.file;
    EXPECT_THAT(std::string(catalog.text), HasSubstr("\"counters\"")) << catalog.file;
  }
}

}  // namespace
}  // namespace opengpa::cuda
