// The GPM source on fake NVML libraries (fake_nvml.c): each GPM metric's fake value is its NVML id, so every value,
// unit and series can be told apart; and the monitor's default set takes GPM only where the driver and GPU have it.
#include "monitor/gpm_counter_source.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "log_capture.h"
#include "monitor/metrics_exposition.h"
#include "monitor/monitor.h"

namespace opengpa::monitor {
namespace {

using testing::LogCapture;

const MonitorRecord* Find(const std::vector<MonitorRecord>& records, const std::vector<CounterDescriptor>& counters,
                          const std::string& name) {
  for (const MonitorRecord& record : records) {
    if (counters[record.counter_index].name == name) return &record;
  }
  return nullptr;
}

TEST(GpmCounterSource, ReportsEveryMetricBetweenTwoSamplesWithItsUnitAndInterval) {
  LogCapture log;
  GpmSourceOptions options;
  options.library_candidates = {OPENGPA_FAKE_NVML_GPM};
  std::unique_ptr<GpmCounterSource> source;
  ASSERT_EQ(GpmCounterSource::Create(options, &source), kGpaStatusOk) << log.Text();
  ASSERT_EQ(source->Counters().size(), GpmCounterCatalog().size());
  ASSERT_EQ(source->Devices().size(), 1u);
  EXPECT_EQ(source->Devices()[0].uuid, "GPU-00000000-0000-0000-0000-000000000000");

  ASSERT_EQ(source->Start(), kGpaStatusOk);
  std::vector<MonitorRecord> records;
  ASSERT_EQ(source->Poll(&records), kGpaStatusOk);
  EXPECT_TRUE(records.empty()) << "a tick closer than kGpmMinimumSampleGap to the last sample takes none";

  std::this_thread::sleep_for(kGpmMinimumSampleGap + std::chrono::milliseconds(20));
  ASSERT_EQ(source->Poll(&records), kGpaStatusOk);
  // NVLink's two totals are not supported by the fake (as on a PCIe board): left out, said once.
  ASSERT_EQ(records.size(), GpmCounterCatalog().size() - 2) << log.Text();
  EXPECT_NE(log.Text().find("GPU 0 gives no 'gpm_nvlink_rx_bytes_per_second'"), std::string::npos) << log.Text();
  const auto& counters = source->Counters();
  const MonitorRecord* sm = Find(records, counters, "gpm_sm_activity_percent");
  ASSERT_NE(sm, nullptr);
  EXPECT_EQ(sm->value, 2.0);  // NVML_GPM_METRIC_SM_UTIL
  EXPECT_GE(sm->duration_ns, 100'000'000u);
  EXPECT_LT(sm->duration_ns, 2'000'000'000u);
  const MonitorRecord* dram = Find(records, counters, "gpm_dram_bandwidth_percent");
  ASSERT_NE(dram, nullptr);
  EXPECT_EQ(dram->value, 10.0);
  const MonitorRecord* rx = Find(records, counters, "gpm_pcie_rx_bytes_per_second");
  ASSERT_NE(rx, nullptr);
  EXPECT_EQ(rx->value, 21.0 * 1024 * 1024);  // MiB/s as NVML gives it, in bytes/s
  EXPECT_EQ(counters[rx->counter_index].unit, "bytes/s");
  EXPECT_EQ(counters[rx->counter_index].origin, CounterOrigin::kNvmlGpm);

  // The next interval starts where the last ended: the fake refuses samples out of order or a sample used twice.
  records.clear();
  std::this_thread::sleep_for(kGpmMinimumSampleGap + std::chrono::milliseconds(20));
  ASSERT_EQ(source->Poll(&records), kGpaStatusOk);
  EXPECT_EQ(records.size(), GpmCounterCatalog().size() - 2) << log.Text();
  EXPECT_EQ(source->Samples(), 2u);
  EXPECT_EQ(source->Errors(), 0u);
  EXPECT_EQ(log.Text().find("nvmlGpmMetricsGet on GPU 0 failed"), std::string::npos) << log.Text();
  EXPECT_EQ(log.Text().find("further"), std::string::npos) << "the NVLink message is said once: " << log.Text();
  ASSERT_EQ(source->Stop(&records), kGpaStatusOk);
}

TEST(GpmCounterSource, TakesOnlyTheNamedCounters) {
  GpmSourceOptions options;
  options.counter_names = {"gpm_tensor_pipe_percent", "gpm_sm_occupancy_percent"};
  options.library_candidates = {OPENGPA_FAKE_NVML_GPM};
  std::unique_ptr<GpmCounterSource> source;
  ASSERT_EQ(GpmCounterSource::Create(options, &source), kGpaStatusOk);
  ASSERT_EQ(source->Counters().size(), 2u);
  ASSERT_EQ(source->Start(), kGpaStatusOk);
  std::this_thread::sleep_for(kGpmMinimumSampleGap + std::chrono::milliseconds(20));
  std::vector<MonitorRecord> records;
  ASSERT_EQ(source->Poll(&records), kGpaStatusOk);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].value, 5.0);  // NVML_GPM_METRIC_ANY_TENSOR_UTIL
  EXPECT_EQ(records[1].value, 3.0);  // NVML_GPM_METRIC_SM_OCCUPANCY
}

TEST(GpmCounterSource, RefusesADriverWithoutGpmAGpuWithoutItAndAnUnknownName) {
  {
    LogCapture log;
    GpmSourceOptions options;
    options.library_candidates = {OPENGPA_FAKE_NVML_FIXED_POWER};  // exports no nvmlGpm* function
    std::unique_ptr<GpmCounterSource> source;
    EXPECT_EQ(GpmCounterSource::Create(options, &source), kGpaStatusErrorDriverNotSupported);
    EXPECT_NE(log.Text().find("does not export NVML's GPM functions"), std::string::npos) << log.Text();
  }
  {
    LogCapture log;
    GpmSourceOptions options;
    options.library_candidates = {OPENGPA_FAKE_NVML_GPM_UNSUPPORTED};
    std::unique_ptr<GpmCounterSource> source;
    EXPECT_EQ(GpmCounterSource::Create(options, &source), kGpaStatusErrorHardwareNotSupported);
    EXPECT_NE(log.Text().find("GPU 0 (Fake NVML device) does not support GPM"), std::string::npos) << log.Text();
  }
  {
    LogCapture log;
    GpmSourceOptions options;
    options.counter_names = {"gpm_warp_occupancy"};
    options.library_candidates = {"libopengpa-test-absent-nvml.so.1"};
    std::unique_ptr<GpmCounterSource> source;
    EXPECT_EQ(GpmCounterSource::Create(options, &source), kGpaStatusErrorCounterNotFound);
    EXPECT_NE(log.Text().find("unknown counter 'gpm_warp_occupancy'"), std::string::npos) << log.Text();
  }
}

bool HasCounter(const Monitor& monitor, const std::string& name) {
  const auto& counters = monitor.Counters();
  return std::any_of(counters.begin(), counters.end(), [&](const CounterDescriptor& c) { return c.name == name; });
}

TEST(MonitorDefaultSources, TakeGpmWhereTheGpusHaveItAndLeaveItOutWithAMessageElsewhere) {
  MonitorOptions options;
  options.labels = SeriesLabels{};
  std::unique_ptr<Monitor> monitor;

  options.nvml_library_candidates = {OPENGPA_FAKE_NVML_GPM};
  ASSERT_EQ(Monitor::Create(options, &monitor), kGpaStatusOk);
  EXPECT_TRUE(HasCounter(*monitor, "power_watts"));
  EXPECT_TRUE(HasCounter(*monitor, "gpm_sm_activity_percent"));
  EXPECT_FALSE(HasCounter(*monitor, "sm__cycles_active.avg")) << "PM sampling only on request";

  for (const char* library : {OPENGPA_FAKE_NVML_FIXED_POWER, OPENGPA_FAKE_NVML_GPM_UNSUPPORTED}) {
    LogCapture log;
    options.nvml_library_candidates = {library};
    ASSERT_EQ(Monitor::Create(options, &monitor), kGpaStatusOk) << library << ": " << log.Text();
    EXPECT_TRUE(HasCounter(*monitor, "power_watts"));
    EXPECT_FALSE(HasCounter(*monitor, "gpm_sm_activity_percent"));
    EXPECT_NE(log.Text().find("GPM source: left out of the default set"), std::string::npos) << log.Text();
  }
}

TEST(MonitorDefaultSources, FailWhenGpmIsNamedAndTheGpuLacksIt) {
  LogCapture log;
  MonitorOptions options;
  options.labels = SeriesLabels{};
  options.counters = {"nvml", "gpm"};
  options.nvml_library_candidates = {OPENGPA_FAKE_NVML_GPM_UNSUPPORTED};
  std::unique_ptr<Monitor> monitor;
  EXPECT_EQ(Monitor::Create(options, &monitor), kGpaStatusErrorHardwareNotSupported);
  options.counters = {"gpm_dram_bandwidth_percent"};
  EXPECT_EQ(Monitor::Create(options, &monitor), kGpaStatusErrorHardwareNotSupported);
  options.nvml_library_candidates = {OPENGPA_FAKE_NVML_GPM};
  ASSERT_EQ(Monitor::Create(options, &monitor), kGpaStatusOk);
  ASSERT_EQ(monitor->Counters().size(), 1u);
  EXPECT_EQ(monitor->Counters()[0].name, "gpm_dram_bandwidth_percent");
}

TEST(MonitorDefaultSources, GpmSeriesCarryTheSameLabelsAsTheOthers) {
  MonitorOptions options;
  options.labels = SeriesLabels{{"host", "alpha"}, {"slurm_job_id", "42"}};
  options.interval = std::chrono::milliseconds(60);
  options.nvml_library_candidates = {OPENGPA_FAKE_NVML_GPM};
  std::unique_ptr<Monitor> monitor;
  ASSERT_EQ(Monitor::Create(options, &monitor), kGpaStatusOk);
  ASSERT_EQ(monitor->Start(), kGpaStatusOk);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_EQ(monitor->Stop(), kGpaStatusOk);
  const std::string text = FormatMetrics(monitor->Metrics(), ExpositionFormat::kPrometheusText);
  const std::string labels =
      "{gpu=\"0\",uuid=\"GPU-00000000-0000-0000-0000-000000000000\",name=\"Fake NVML device\",host=\"alpha\","
      "slurm_job_id=\"42\"}";
  EXPECT_NE(text.find("opengpa_power_watts" + labels + " 123.456"), std::string::npos) << text;
  EXPECT_NE(text.find("opengpa_gpm_sm_activity_percent" + labels + " 2"), std::string::npos) << text;
  EXPECT_NE(text.find("opengpa_gpm_pcie_rx_bytes_per_second" + labels + " 22020096"), std::string::npos) << text;
}

TEST(GpmCounterCatalog, NamesEveryCounterWithAUnitAndADescription) {
  for (const CounterDescriptor& counter : GpmCounterCatalog()) {
    EXPECT_FALSE(counter.description.empty()) << counter.name;
    EXPECT_TRUE(counter.unit == "percent" || counter.unit == "bytes/s") << counter.name;
    EXPECT_EQ(counter.name.rfind("gpm_", 0), 0u) << counter.name;
    EXPECT_TRUE(IsGpmCounterName(counter.name));
  }
  EXPECT_FALSE(IsGpmCounterName("power_watts"));
}

}  // namespace
}  // namespace opengpa::monitor
