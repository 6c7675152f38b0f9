// The Speed-of-Light catalog (catalogs/cuda_sol.json) on offline contexts of GH100, AD102 and GA100: every
// SOL counter resolves, is typed as documented, can be scheduled, and the SpeedOfLight group's pass count
// is reported (docs/sol.md shows the same table). What the values mean on a GPU is checked by
// tests/device/sol against ncu.
#include <set>

#include "gpu_performance_api/opengpa_ext.h"
#include "tests/cuda/cuda_test_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

const std::vector<std::string> kSpeedOfLight = {"SOL_SM",   "SOL_Memory",    "SOL_L1TEX",      "SOL_L2",
                                                "SOL_DRAM", "GPUBottleneck", "GPUBusiestUnit", "GPUBottleneckSOL"};

class SolCatalogTest : public CudaApiTest, public ::testing::WithParamInterface<const char*> {
 protected:
  void SetUp() override {
    CudaApiTest::SetUp();
    context_ = OpenOffline(GetParam());
    ASSERT_NE(context_, nullptr);
  }

  GpaUInt32 Index(const std::string& name) {
    GpaUInt32 index = 0;
    EXPECT_EQ(GpaGetCounterIndex(context_, name.c_str(), &index), kGpaStatusOk) << name << " on " << GetParam();
    return index;
  }

  std::vector<std::string> Group(const std::string& group) {
    std::vector<std::string> names;
    for (const std::string& name : CounterNames(context_)) {
      const char* counter_group = nullptr;
      EXPECT_EQ(GpaGetCounterGroup(context_, Index(name), &counter_group), kGpaStatusOk);
      if (group == counter_group) names.push_back(name);
    }
    return names;
  }

  GpaContextId context_ = nullptr;
};

TEST_P(SolCatalogTest, TheSpeedOfLightGroupHasEveryUnitAndTheBottleneckCounters) {
  EXPECT_EQ(Group("SpeedOfLight"), kSpeedOfLight);
}

TEST_P(SolCatalogTest, EverySolFormulaResolvesToThroughputMetricsOfTheChip) {
  for (const std::string& name : kSpeedOfLight) {
    const char* formula = nullptr;
    ASSERT_EQ(OpenGpaGetCounterFormula(context_, Index(name), &formula), kGpaStatusOk) << name;
    EXPECT_THAT(formula, HasSubstr(".pct_of_peak_sustained_")) << name;
  }
  const char* formula = nullptr;
  ASSERT_EQ(OpenGpaGetCounterFormula(context_, Index("SOL_PCIe"), &formula), kGpaStatusOk);
  EXPECT_STREQ(formula, "pcie__throughput.avg.pct_of_peak_sustained_elapsed");
}

TEST_P(SolCatalogTest, SolValuesArePercentagesAndTheBottleneckIsAnIndex) {
  for (const char* name : {"SOL_SM", "SOL_Memory", "SOL_L1TEX", "SOL_L2", "SOL_DRAM", "GPUBottleneckSOL", "SOL_PCIe"}) {
    GpaDataType type = kGpaDataTypeUint64;
    GpaUsageType usage = kGpaUsageTypeItems;
    ASSERT_EQ(GpaGetCounterDataType(context_, Index(name), &type), kGpaStatusOk);
    ASSERT_EQ(GpaGetCounterUsageType(context_, Index(name), &usage), kGpaStatusOk);
    EXPECT_EQ(type, kGpaDataTypeFloat64) << name;
    EXPECT_EQ(usage, kGpaUsageTypePercentage) << name;
  }
  for (const char* name : {"GPUBottleneck", "GPUBusiestUnit"}) {
    GpaDataType type = kGpaDataTypeFloat64;
    GpaUsageType usage = kGpaUsageTypePercentage;
    ASSERT_EQ(GpaGetCounterDataType(context_, Index(name), &type), kGpaStatusOk);
    ASSERT_EQ(GpaGetCounterUsageType(context_, Index(name), &usage), kGpaStatusOk);
    EXPECT_EQ(type, kGpaDataTypeUint64) << name;
    EXPECT_EQ(usage, kGpaUsageTypeItems) << name;
  }
}

TEST_P(SolCatalogTest, TheBottleneckDescriptionsNameEveryValue) {
  const char* description = nullptr;
  ASSERT_EQ(GpaGetCounterDescription(context_, Index("GPUBottleneck"), &description), kGpaStatusOk);
  for (const char* value : {"0 = SM", "1 = L1/TEX", "2 = L2", "3 = DRAM", "4 = none (latency-bound"}) {
    EXPECT_THAT(description, HasSubstr(value));
  }
  ASSERT_EQ(GpaGetCounterDescription(context_, Index("GPUBusiestUnit"), &description), kGpaStatusOk);
  EXPECT_THAT(description, HasSubstr("0 = SM, 1 = L1/TEX, 2 = L2, 3 = DRAM"));
}

TEST_P(SolCatalogTest, TheGroupIsSchedulableAndItsPassCountIsReported) {
  GpaStatus status = kGpaStatusOk;
  const GpaUInt32 group_passes = PassCount(context_, kSpeedOfLight, &status);
  ASSERT_EQ(status, kGpaStatusOk) << CudaErrorLog::Errors();
  GpaUInt32 largest_single = 0;
  for (const std::string& name : kSpeedOfLight) {
    const GpaUInt32 passes = PassCount(context_, {name}, &status);
    ASSERT_EQ(status, kGpaStatusOk) << name << ": " << CudaErrorLog::Errors();
    std::printf("[ passes   ] %s %-17s %u\n", GetParam(), name.c_str(), passes);
    largest_single = std::max(largest_single, passes);
  }
  std::printf("[ passes   ] %s SpeedOfLight group (%zu counters): %u passes\n", GetParam(), kSpeedOfLight.size(),
              group_passes);
  RecordProperty("speed_of_light_passes", static_cast<int>(group_passes));
  // Counters share passes: the group needs at least what its most expensive counter needs, and at most the
  // sum of what each needs alone.
  EXPECT_GE(group_passes, largest_single);
  // The three bottleneck counters read the same four metrics: asking for all of them costs what one costs.
  EXPECT_EQ(PassCount(context_, {"GPUBottleneck", "GPUBusiestUnit", "GPUBottleneckSOL"}),
            PassCount(context_, {"GPUBottleneck"}));
  // GPUTime comes along without another pass.
  EXPECT_EQ(PassCount(context_,
                      [] {
                        std::vector<std::string> names = kSpeedOfLight;
                        names.push_back("GPUTime");
                        return names;
                      }()),
            group_passes);
}

TEST_P(SolCatalogTest, PcieSolIsCollectedWithTheRangeDurationButNotWithSmCounters) {
  GpaStatus status = kGpaStatusOk;
  EXPECT_EQ(PassCount(context_, {"SOL_PCIe", "ExecutionDuration"}, &status), 1u);
  EXPECT_EQ(status, kGpaStatusOk) << CudaErrorLog::Errors();
  CudaErrorLog::Clear();
  PassCount(context_, {"SOL_PCIe", "SOL_SM"}, &status);
  EXPECT_NE(status, kGpaStatusOk);
  EXPECT_THAT(CudaErrorLog::Errors(), HasSubstr("throughput"));  // the log names the refused metric
}

INSTANTIATE_TEST_SUITE_P(Chips, SolCatalogTest, ::testing::Values("GH100", "AD102", "GA100"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

}  // namespace
}  // namespace opengpa::testing
