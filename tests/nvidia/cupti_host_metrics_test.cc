// CuptiHostMetrics and CuptiMetricConfig on chips named, not present: CUPTI's host API needs no GPU.
#include "nvidia/cupti_host_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "platform/logging.h"

namespace opengpa::nvidia {
namespace {

using ::testing::HasSubstr;
using ::testing::IsSupersetOf;

std::string g_last_error;
void CaptureError(GpaLoggingType type, const char* message) {
  if ((type & kGpaLoggingError) != 0) g_last_error = message;
}

class CuptiHostMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_last_error.clear();
    SetLoggingCallback(kGpaLoggingError, &CaptureError);
  }
  void TearDown() override { SetLoggingCallback(kGpaLoggingNone, nullptr); }

  std::unique_ptr<CuptiHostMetrics> Chip(const char* name) {
    std::unique_ptr<CuptiHostMetrics> chip;
    EXPECT_EQ(CuptiHostMetrics::Create(name, {}, &chip), kGpaStatusOk) << g_last_error;
    return chip;
  }
  std::size_t Passes(const CuptiHostMetrics& chip, std::vector<std::string> metrics) {
    std::unique_ptr<CuptiMetricConfig> config;
    EXPECT_EQ(CuptiMetricConfig::Create(chip, std::move(metrics), &config), kGpaStatusOk) << g_last_error;
    return config ? config->pass_count() : 0;
  }
};

TEST_F(CuptiHostMetricsTest, TheInstalledCuptiSupportsVoltaThroughBlackwell) {
  EXPECT_THAT(SupportedChips(), IsSupersetOf({"GV100", "TU102", "GA100", "GA102", "AD102", "GH100", "GB202"}));
}

TEST_F(CuptiHostMetricsTest, AChipCuptiDoesNotKnowIsRefusedWithItsName) {
  std::unique_ptr<CuptiHostMetrics> chip;
  EXPECT_EQ(CuptiHostMetrics::Create("GZ999", {}, &chip), kGpaStatusErrorHardwareNotSupported);
  EXPECT_EQ(chip, nullptr);
  EXPECT_THAT(g_last_error, HasSubstr("GZ999"));
  EXPECT_THAT(g_last_error, HasSubstr("GH100"));  // the message lists what is supported
}

TEST_F(CuptiHostMetricsTest, MetricPropertiesComeFromCupti) {
  auto chip = Chip("GH100");
  MetricProperties properties;
  ASSERT_EQ(chip->Properties("dram__bytes_read.sum", &properties), kGpaStatusOk);
  EXPECT_EQ(properties.hw_unit, "dram");
  EXPECT_EQ(properties.dim_unit, "byte");
  EXPECT_EQ(properties.kind, MetricKind::kCounter);
  EXPECT_THAT(properties.description, HasSubstr("DRAM"));
  ASSERT_EQ(chip->Properties("lts__t_sector_hit_rate", &properties), kGpaStatusOk);
  EXPECT_EQ(properties.kind, MetricKind::kRatio);
  EXPECT_NE(chip->Properties("no_such__metric.sum", &properties), kGpaStatusOk);
}

TEST_F(CuptiHostMetricsTest, EveryChipListsThousandsOfBaseMetricsOfEachKindOnce) {
  for (const char* name : {"GA100", "AD102", "GH100"}) {
    auto chip = Chip(name);
    const std::vector<std::string>& counters = chip->BaseMetrics(MetricKind::kCounter);
    const std::vector<std::string>& ratios = chip->BaseMetrics(MetricKind::kRatio);
    const std::vector<std::string>& throughputs = chip->BaseMetrics(MetricKind::kThroughput);
    EXPECT_GT(counters.size(), 1000u) << name;
    EXPECT_GT(ratios.size(), 50u) << name;
    EXPECT_GT(throughputs.size(), 20u) << name;
    EXPECT_THAT(counters, ::testing::Contains("dram__bytes_read").Times(1)) << name;
  }
}

TEST_F(CuptiHostMetricsTest, ACounterTakesOnePassAndTheConfigImageIsNotEmpty) {
  auto chip = Chip("GH100");
  std::unique_ptr<CuptiMetricConfig> config;
  ASSERT_EQ(CuptiMetricConfig::Create(*chip, {"dram__bytes_read.sum"}, &config), kGpaStatusOk);
  EXPECT_EQ(config->pass_count(), 1u);
  EXPECT_FALSE(config->image().empty());
  EXPECT_THAT(config->metrics(), ::testing::ElementsAre("dram__bytes_read.sum"));
}

TEST_F(CuptiHostMetricsTest, CountersCompetingForTheSameL2CounterSlotsTakeMorePasses) {
  auto chip = Chip("GH100");
  EXPECT_EQ(Passes(*chip, {"lts__t_sectors_lookup_hit.sum"}), 1u);
  EXPECT_EQ(Passes(*chip, {"lts__t_sectors_lookup_miss.sum"}), 1u);
  EXPECT_EQ(Passes(*chip, {"lts__t_sectors_lookup_hit.sum", "lts__t_sectors_lookup_miss.sum"}), 2u);
}

TEST_F(CuptiHostMetricsTest, AnUnknownMetricIsRefusedAndNamed) {
  auto chip = Chip("GH100");
  std::unique_ptr<CuptiMetricConfig> config;
  EXPECT_NE(CuptiMetricConfig::Create(*chip, {"dram__bytes_read.sum", "no_such__metric.sum"}, &config), kGpaStatusOk);
  EXPECT_THAT(g_last_error, HasSubstr("no_such__metric.sum"));
}

TEST_F(CuptiHostMetricsTest, PcieCountersCannotJoinSmCountersAndTheLogNamesTheRefusedOne) {
  auto chip = Chip("GH100");
  std::unique_ptr<CuptiMetricConfig> config;
  EXPECT_EQ(CuptiMetricConfig::Create(*chip, {"sm__cycles_active.sum", "pcie__read_bytes.sum"}, &config),
            kGpaStatusErrorHardwareNotSupported);
  EXPECT_THAT(g_last_error, HasSubstr("pcie__read_bytes.sum"));
  EXPECT_EQ(Passes(*chip, {"gpu__time_duration.sum", "pcie__read_bytes.sum", "pcie__write_bytes.sum"}), 1u);
}

TEST_F(CuptiHostMetricsTest, AnEmptyMetricSetIsRefused) {
  auto chip = Chip("GH100");
  std::unique_ptr<CuptiMetricConfig> config;
  EXPECT_EQ(CuptiMetricConfig::Create(*chip, {}, &config), kGpaStatusErrorNoCountersEnabled);
}

}  // namespace
}  // namespace opengpa::nvidia
