#include "monitor/metrics_exposition.h"

#include <gtest/gtest.h>

#include <cmath>

#include "exposition_parser.h"

namespace opengpa::monitor {
namespace {

using testing::ParsedExposition;

// Two GPUs, a gauge measured on both, a delta measured on one, a gauge not measured yet.
MetricsView TwoGpuView() {
  MetricsView view;
  view.counters = {
      {"power_watts", "Power draw", "W", CounterKind::kGauge, CounterOrigin::kNvml},
      {"dram__bytes_read.sum", "# of bytes read from DRAM", "byte", CounterKind::kDelta,
       CounterOrigin::kCuptiPmSampling},
      {"temperature_celsius", "Temperature", "Cel", CounterKind::kGauge, CounterOrigin::kNvml},
  };
  view.devices = {{0, "GPU-0000", "NVIDIA \"Test\" GPU \\ 0"}, {3, "GPU-3333", "Second\nline"}};
  view.values.resize(view.counters.size() * view.devices.size());
  view.values[0 * 3 + 0] = {true, 71.25, 0.0, 1, 1};
  view.values[1 * 3 + 0] = {true, 300.0, 0.0, 1, 1};
  view.values[0 * 3 + 1] = {true, 4096.0, 1.5e12, 1, 10};
  return view;
}

TEST(MetricFamilyName, ReplacesEveryCharacterOutsideTheMetricAlphabet) {
  EXPECT_EQ(MetricFamilyName("sm__cycles_active.avg"), "opengpa_sm__cycles_active_avg");
  EXPECT_EQ(MetricFamilyName("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
            "opengpa_dram__throughput_avg_pct_of_peak_sustained_elapsed");
  EXPECT_EQ(MetricFamilyName("a-b:c d"), "opengpa_a_b_c_d");
}

TEST(FormatMetrics, OpenMetricsOutputPassesTheStrictParserAndEndsWithEof) {
  const std::string text = FormatMetrics(TwoGpuView(), ExpositionFormat::kOpenMetrics);
  ParsedExposition parsed;
  std::string error;
  ASSERT_TRUE(testing::ParseOpenMetrics(text, &parsed, &error)) << error << "\n" << text;
  EXPECT_EQ(text.substr(text.size() - 6), "# EOF\n");
}

TEST(FormatMetrics, PrometheusTextOutputPassesTheStrictParserWithoutEof) {
  const std::string text = FormatMetrics(TwoGpuView(), ExpositionFormat::kPrometheusText);
  ParsedExposition parsed;
  std::string error;
  ASSERT_TRUE(testing::ParsePrometheusText(text, &parsed, &error)) << error << "\n" << text;
  EXPECT_EQ(text.find("# EOF"), std::string::npos);
}

TEST(FormatMetrics, GaugesCarryTheLastValueWithGpuUuidAndNameLabels) {
  ParsedExposition parsed;
  std::string error;
  ASSERT_TRUE(testing::ParseOpenMetrics(FormatMetrics(TwoGpuView(), ExpositionFormat::kOpenMetrics), &parsed, &error));
  const auto* power = parsed.Find("opengpa_power_watts");
  ASSERT_NE(power, nullptr);
  EXPECT_EQ(power->type, "gauge");
  EXPECT_EQ(power->help, "Power draw [W]");
  ASSERT_EQ(power->samples.size(), 2u);
  EXPECT_EQ(power->samples[0].labels.at("gpu"), "0");
  EXPECT_EQ(power->samples[0].labels.at("uuid"), "GPU-0000");
  EXPECT_EQ(power->samples[0].labels.at("name"), "NVIDIA \"Test\" GPU \\ 0");
  EXPECT_DOUBLE_EQ(power->samples[0].value, 71.25);
  EXPECT_EQ(power->samples[1].labels.at("gpu"), "3");
  EXPECT_EQ(power->samples[1].labels.at("name"), "Second\nline");
  EXPECT_DOUBLE_EQ(power->samples[1].value, 300.0);
}

TEST(FormatMetrics, DeltasBecomeCountersOfTheRunningTotal) {
  ParsedExposition open_metrics;
  ParsedExposition prometheus;
  std::string error;
  ASSERT_TRUE(
      testing::ParseOpenMetrics(FormatMetrics(TwoGpuView(), ExpositionFormat::kOpenMetrics), &open_metrics, &error));
  ASSERT_TRUE(testing::ParsePrometheusText(FormatMetrics(TwoGpuView(), ExpositionFormat::kPrometheusText), &prometheus,
                                           &error));
  // OpenMetrics names the family without _total; Prometheus text names the sample.
  const auto* family = open_metrics.Find("opengpa_dram__bytes_read_sum");
  ASSERT_NE(family, nullptr);
  EXPECT_EQ(family->type, "counter");
  ASSERT_EQ(family->samples.size(), 1u);  // only GPU 0 measured it
  EXPECT_EQ(family->samples[0].name, "opengpa_dram__bytes_read_sum_total");
  EXPECT_DOUBLE_EQ(family->samples[0].value, 1.5e12);
  const auto* sample = prometheus.Find("opengpa_dram__bytes_read_sum_total");
  ASSERT_NE(sample, nullptr);
  EXPECT_EQ(sample->type, "counter");
  EXPECT_DOUBLE_EQ(sample->samples[0].value, 1.5e12);
}

TEST(FormatMetrics, LeavesOutCountersWithNoValueYet) {
  const std::string text = FormatMetrics(TwoGpuView(), ExpositionFormat::kOpenMetrics);
  EXPECT_EQ(text.find("temperature"), std::string::npos);
}

TEST(FormatMetrics, WritesNanAndInfinitiesInTheSpellingsTheFormatsAllow) {
  MetricsView view;
  view.counters = {{"a", "a", "", CounterKind::kGauge, CounterOrigin::kTest},
                   {"b", "b", "", CounterKind::kGauge, CounterOrigin::kTest},
                   {"c", "c", "", CounterKind::kGauge, CounterOrigin::kTest}};
  view.devices = {{0, "u", "n"}};
  view.values = {{true, std::nan(""), 0, 1, 1}, {true, HUGE_VAL, 0, 1, 1}, {true, -HUGE_VAL, 0, 1, 1}};
  const std::string text = FormatMetrics(view, ExpositionFormat::kOpenMetrics);
  ParsedExposition parsed;
  std::string error;
  ASSERT_TRUE(testing::ParseOpenMetrics(text, &parsed, &error)) << error << "\n" << text;
  EXPECT_NE(text.find("} NaN\n"), std::string::npos);
  EXPECT_NE(text.find("} +Inf\n"), std::string::npos);
  EXPECT_NE(text.find("} -Inf\n"), std::string::npos);
}

TEST(FormatMetrics, EmptyViewIsStillAValidOpenMetricsDocument) {
  ParsedExposition parsed;
  std::string error;
  EXPECT_EQ(FormatMetrics(MetricsView{}, ExpositionFormat::kOpenMetrics), "# EOF\n");
  EXPECT_TRUE(testing::ParseOpenMetrics("# EOF\n", &parsed, &error)) << error;
}

TEST(NegotiateFormat, PicksOpenMetricsOnlyWhenTheScraperAsksForIt) {
  EXPECT_EQ(NegotiateFormat("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"
                            "q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"),
            ExpositionFormat::kOpenMetrics);
  EXPECT_EQ(NegotiateFormat("text/plain"), ExpositionFormat::kPrometheusText);
  EXPECT_EQ(NegotiateFormat(""), ExpositionFormat::kPrometheusText);
  EXPECT_EQ(ContentType(ExpositionFormat::kOpenMetrics), "application/openmetrics-text; version=1.0.0; charset=utf-8");
  EXPECT_EQ(ContentType(ExpositionFormat::kPrometheusText), "text/plain; version=0.0.4; charset=utf-8");
}

}  // namespace
}  // namespace opengpa::monitor
