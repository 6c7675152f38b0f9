// PM sampling's host side runs without a GPU: metric names, properties and the one-pass rule are checked
// against CUPTI's own tables for a named chip (GH100, the H100's). Built when the toolkit is present.
#include "monitor/pm_sampling_source.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "log_capture.h"

namespace opengpa::monitor {
namespace {

using testing::LogCapture;

TEST(PmSamplingHost, IsCompiledIntoThisBuild) { EXPECT_TRUE(PmSamplingCompiledIn()); }

TEST(PmSamplingHost, TheDefaultMetricsFitOnePassOnGh100WithKindsAndUnits) {
  std::vector<CounterDescriptor> descriptors;
  ASSERT_EQ(DescribePmMetrics("GH100", DefaultPmMetrics(), {}, &descriptors), kGpaStatusOk);
  ASSERT_EQ(descriptors.size(), DefaultPmMetrics().size());
  for (const CounterDescriptor& d : descriptors) {
    EXPECT_EQ(d.origin, CounterOrigin::kCuptiPmSampling);
    EXPECT_FALSE(d.description.empty()) << d.name;
  }
  auto find = [&](const std::string& name) {
    return *std::find_if(descriptors.begin(), descriptors.end(),
                         [&](const CounterDescriptor& d) { return d.name == name; });
  };
  EXPECT_EQ(find("dram__bytes_read.sum").kind, CounterKind::kDelta);
  EXPECT_EQ(find("dram__bytes_read.sum").unit, "byte");
  EXPECT_EQ(find("sm__cycles_active.avg").kind, CounterKind::kDelta);
  EXPECT_EQ(find("dram__throughput.avg.pct_of_peak_sustained_elapsed").kind, CounterKind::kGauge);
  EXPECT_EQ(find("dram__throughput.avg.pct_of_peak_sustained_elapsed").unit, "percent");
  EXPECT_EQ(find("sm__warps_active.avg.pct_of_peak_sustained_elapsed").kind, CounterKind::kGauge);
}

TEST(PmSamplingHost, RejectsMetricsThatNeedMoreThanOnePass) {
  LogCapture log;
  std::vector<CounterDescriptor> descriptors;
  EXPECT_EQ(DescribePmMetrics("GH100", {"sm__throughput.avg.pct_of_peak_sustained_elapsed"}, {}, &descriptors),
            kGpaStatusErrorNotEnoughPasses);
  EXPECT_NE(log.Text().find("PM sampling can only collect one pass"), std::string::npos) << log.Text();
}

TEST(PmSamplingHost, RejectsAnUnknownMetricNamingIt) {
  LogCapture log;
  std::vector<CounterDescriptor> descriptors;
  EXPECT_EQ(DescribePmMetrics("GH100", {"sm__no_such_counter.sum"}, {}, &descriptors), kGpaStatusErrorCounterNotFound);
  EXPECT_NE(log.Text().find("sm__no_such_counter.sum"), std::string::npos) << log.Text();
  EXPECT_EQ(DescribePmMetrics("GH100", {"power_watts"}, {}, &descriptors), kGpaStatusErrorCounterNotFound);
  EXPECT_NE(log.Text().find("'power_watts' is not a CUPTI metric name"), std::string::npos) << log.Text();
}

TEST(PmSamplingHost, RejectsAnUnknownChip) {
  LogCapture log;
  std::vector<std::string> names;
  EXPECT_EQ(ListPmBaseMetrics("GX999", {}, nullptr, &names), kGpaStatusErrorHardwareNotSupported);
  EXPECT_NE(log.Text().find("chip 'GX999'"), std::string::npos) << log.Text();
}

TEST(PmSamplingHost, ListsTheBaseMetricsOfGh100) {
  std::vector<std::string> names;
  std::string chip;
  ASSERT_EQ(ListPmBaseMetrics("GH100", {}, &chip, &names), kGpaStatusOk);
  EXPECT_EQ(chip, "GH100");
  EXPECT_GT(names.size(), 500u);
  EXPECT_TRUE(std::binary_search(names.begin(), names.end(), "sm__cycles_active"));
  EXPECT_TRUE(std::binary_search(names.begin(), names.end(), "dram__bytes_read"));
}

TEST(PmSamplingHost, ReportsLibLoadFailedWithoutCupti) {
  LogCapture log;
  std::vector<CounterDescriptor> descriptors;
  EXPECT_EQ(DescribePmMetrics("GH100", DefaultPmMetrics(), {"libopengpa-test-absent-cupti.so"}, &descriptors),
            kGpaStatusErrorLibLoadFailed);
  EXPECT_NE(log.Text().find("libopengpa-test-absent-cupti.so"), std::string::npos) << log.Text();
}

TEST(PmSamplingSource, FailsCleanlyWithoutACudaDriver) {
  LogCapture log;
  PmSamplingOptions options;
  options.cuda_library_candidates = {"libopengpa-test-absent-cuda.so.1"};
  std::unique_ptr<CounterSource> source;
  EXPECT_EQ(CreatePmSamplingSource(options, &source), kGpaStatusErrorLibLoadFailed);
  EXPECT_EQ(source, nullptr);
  EXPECT_NE(log.Text().find("cannot load the CUDA driver"), std::string::npos) << log.Text();
}

TEST(PmSamplingSource, RejectsAHardwareBufferBelowFourMebibytes) {
  LogCapture log;
  PmSamplingOptions options;
  options.hardware_buffer_bytes = size_t{1} << 20;
  std::unique_ptr<CounterSource> source;
  EXPECT_EQ(CreatePmSamplingSource(options, &source), kGpaStatusErrorInvalidParameter);
  EXPECT_NE(log.Text().find("hardware_buffer_bytes 1048576 is below the 4 MiB minimum"), std::string::npos)
      << log.Text();
}

TEST(PmSamplingSource, RejectsAZeroInterval) {
  LogCapture log;
  PmSamplingOptions options;
  options.interval_ns = 0;
  std::unique_ptr<CounterSource> source;
  EXPECT_EQ(CreatePmSamplingSource(options, &source), kGpaStatusErrorInvalidParameter);
  EXPECT_NE(log.Text().find("interval_ns is 0"), std::string::npos);
}

}  // namespace
}  // namespace opengpa::monitor
