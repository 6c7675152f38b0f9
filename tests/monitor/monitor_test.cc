#include "monitor/monitor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "log_capture.h"
#include "scripted_counter_source.h"

namespace opengpa::monitor {
namespace {

using testing::LogCapture;
using testing::ScriptedCounterSource;

struct TwoSources {
  ScriptedCounterSource* first;
  ScriptedCounterSource* second;
  std::unique_ptr<Monitor> monitor;
};

TwoSources MakeMonitor(MonitorOptions options = {}) {
  options.interval = std::chrono::milliseconds(20);
  auto first = std::make_unique<ScriptedCounterSource>("a", std::vector<uint32_t>{0});
  auto second = std::make_unique<ScriptedCounterSource>("b", std::vector<uint32_t>{0, 1});
  TwoSources made{first.get(), second.get(), nullptr};
  std::vector<std::unique_ptr<CounterSource>> sources;
  sources.push_back(std::move(first));
  sources.push_back(std::move(second));
  EXPECT_EQ(Monitor::CreateWithSources(options, std::move(sources), &made.monitor), kGpaStatusOk);
  return made;
}

std::vector<MonitorRecord> ReadAll(Monitor& monitor) {
  std::vector<MonitorRecord> all;
  MonitorRecord buffer[64];
  for (size_t count; (count = monitor.Read(buffer, 64)) > 0;) all.insert(all.end(), buffer, buffer + count);
  return all;
}

TEST(Monitor, ListsEverySourcesCountersInOrderAndTheUnionOfDevices) {
  TwoSources made = MakeMonitor();
  const auto& counters = made.monitor->Counters();
  ASSERT_EQ(counters.size(), 4u);
  EXPECT_EQ(counters[0].name, "a_poll_number");
  EXPECT_EQ(counters[2].name, "b_poll_number");
  ASSERT_EQ(made.monitor->Devices().size(), 2u);
  EXPECT_EQ(made.monitor->Devices()[1].index, 1u);
}

TEST(Monitor, DeliversEveryPolledRecordWithItsCounterIndexOffsetBySource) {
  TwoSources made = MakeMonitor();
  ASSERT_EQ(made.monitor->Start(), kGpaStatusOk);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  ASSERT_EQ(made.monitor->Stop(), kGpaStatusOk);
  const uint64_t polls_a = made.first->polls;
  const uint64_t polls_b = made.second->polls;
  ASSERT_GE(polls_a, 2u);
  EXPECT_EQ(polls_a, polls_b);  // one tick polls every source
  const std::vector<MonitorRecord> records = ReadAll(*made.monitor);
  // Per poll: source a writes 2 records (1 device), b writes 4 (2 devices); Stop adds one more batch each.
  EXPECT_EQ(records.size(), (polls_a + 1) * 2 + (polls_b + 1) * 4);
  size_t b_delta_records = 0;
  for (const MonitorRecord& record : records) {
    ASSERT_LT(record.counter_index, 4u);
    if (record.counter_index == 3) ++b_delta_records;
  }
  EXPECT_EQ(b_delta_records, (polls_b + 1) * 2);
  EXPECT_EQ(made.monitor->DroppedRecords(), 0u);
}

TEST(Monitor, KeepsTheLastGaugeAndTheRunningTotalOfDeltasPerDevice) {
  TwoSources made = MakeMonitor();
  ASSERT_EQ(made.monitor->Start(), kGpaStatusOk);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // Stop's final batch carries gauge -1 and one more delta.
  ASSERT_EQ(made.monitor->Stop(), kGpaStatusOk);
  const MetricsView view = made.monitor->Metrics();
  ASSERT_EQ(view.devices.size(), 2u);
  const CounterValue& gauge = view.At(0, 2);  // b_poll_number on GPU 0
  EXPECT_TRUE(gauge.present);
  EXPECT_DOUBLE_EQ(gauge.last, -1.0);
  const CounterValue& delta = view.At(1, 3);  // b_polls on GPU 1
  EXPECT_DOUBLE_EQ(delta.total, static_cast<double>(made.second->polls + 1));
  EXPECT_DOUBLE_EQ(delta.last, 1.0);
  EXPECT_FALSE(view.At(1, 0).present);  // source a never measured GPU 1
}

TEST(Monitor, CallsTheCallbackWithTheSameRecordsReadReturns) {
  std::mutex mutex;
  size_t called_with = 0;
  MonitorOptions options;
  options.on_records = [&](const MonitorRecord*, size_t count) {
    std::lock_guard<std::mutex> lock(mutex);
    called_with += count;
  };
  TwoSources made = MakeMonitor(options);
  ASSERT_EQ(made.monitor->Start(), kGpaStatusOk);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  ASSERT_EQ(made.monitor->Stop(), kGpaStatusOk);
  std::lock_guard<std::mutex> lock(mutex);
  EXPECT_EQ(called_with, ReadAll(*made.monitor).size());
}

TEST(Monitor, ReportsStartWhileRunningAndStopWhileStopped) {
  TwoSources made = MakeMonitor();
  LogCapture log;
  EXPECT_EQ(made.monitor->Stop(), kGpaStatusErrorSessionNotStarted);
  ASSERT_EQ(made.monitor->Start(), kGpaStatusOk);
  EXPECT_EQ(made.monitor->Start(), kGpaStatusErrorSessionAlreadyStarted);
  EXPECT_EQ(made.monitor->Stop(), kGpaStatusOk);
  EXPECT_NE(log.Text().find("already started"), std::string::npos);
}

TEST(Monitor, RestartsAfterStop) {
  TwoSources made = MakeMonitor();
  ASSERT_EQ(made.monitor->Start(), kGpaStatusOk);
  ASSERT_EQ(made.monitor->Stop(), kGpaStatusOk);
  ASSERT_EQ(made.monitor->Start(), kGpaStatusOk);
  ASSERT_EQ(made.monitor->Stop(), kGpaStatusOk);
  EXPECT_EQ(made.first->starts.load(), 2);
  EXPECT_EQ(made.first->stops.load(), 2);
}

TEST(Monitor, UndoesTheSourcesThatStartedWhenALaterOneFails) {
  TwoSources made = MakeMonitor();
  made.second->start_status = kGpaStatusErrorFailed;
  EXPECT_EQ(made.monitor->Start(), kGpaStatusErrorFailed);
  EXPECT_EQ(made.first->stops.load(), 1);
  EXPECT_FALSE(made.monitor->Running());
}

TEST(Monitor, DropsTheOldestRecordsWhenNobodyReads) {
  MonitorOptions options;
  options.record_capacity = 10;
  TwoSources made = MakeMonitor(options);
  ASSERT_EQ(made.monitor->Start(), kGpaStatusOk);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  ASSERT_EQ(made.monitor->Stop(), kGpaStatusOk);
  const uint64_t produced = (made.first->polls + 1) * 2 + (made.second->polls + 1) * 4;
  EXPECT_EQ(ReadAll(*made.monitor).size(), 10u);
  EXPECT_EQ(made.monitor->DroppedRecords(), produced - 10);
}

// PM sampling at 5 µs polled once a second brings 200,000 readings a metric in one batch: the ring keeps two
// such batches unless told otherwise (a fixed 262,144 lost 618,588 records of a 3 s run on the H100).
TEST(Monitor, KeepsRoomForTwoTicksOfAFastSource) {
  std::vector<std::unique_ptr<CounterSource>> sources;
  auto fast = std::make_unique<ScriptedCounterSource>("pm");
  fast->burst = 200'000;
  const ScriptedCounterSource* raw = fast.get();
  sources.push_back(std::move(fast));
  MonitorOptions options;
  // A long tick, so that a loaded machine does not make the test depend on whether a tick came before Stop.
  options.interval = std::chrono::seconds(10);
  std::unique_ptr<Monitor> monitor;
  ASSERT_EQ(Monitor::CreateWithSources(options, std::move(sources), &monitor), kGpaStatusOk);
  EXPECT_EQ(monitor->RecordCapacity(), 800'000u);
  ASSERT_EQ(monitor->Start(), kGpaStatusOk);
  ASSERT_EQ(monitor->Stop(), kGpaStatusOk);  // the final batch: 400,000 records at once
  ASSERT_LE(raw->polls.load(), 1u);          // with the final batch, at most the two ticks the ring holds
  EXPECT_EQ(monitor->DroppedRecords(), 0u);
  EXPECT_EQ(ReadAll(*monitor).size(), 400'000u * (raw->polls.load() + 1));
}

// A backlog of PM samples arrives in one batch when decoding catches up, and the last at Stop: a ring the monitor
// sized grows to hold it; one sized by the caller keeps its size and counts what it dropped.
TEST(Monitor, GrowsItsOwnRingForALargerBatchButNotACallersRing) {
  for (size_t asked : {size_t{0}, size_t{1000}}) {
    std::vector<std::unique_ptr<CounterSource>> sources;
    auto source = std::make_unique<ScriptedCounterSource>("pm");
    ScriptedCounterSource* raw = source.get();
    sources.push_back(std::move(source));
    MonitorOptions options;
    options.interval = std::chrono::seconds(1);
    options.record_capacity = asked;
    std::unique_ptr<Monitor> monitor;
    ASSERT_EQ(Monitor::CreateWithSources(options, std::move(sources), &monitor), kGpaStatusOk);
    ASSERT_EQ(monitor->Start(), kGpaStatusOk);
    raw->burst = 200'000;  // the Stop batch: 400,000 records, more than the ring was sized for
    ASSERT_EQ(monitor->Stop(), kGpaStatusOk);
    if (asked == 0) {
      EXPECT_EQ(monitor->DroppedRecords(), 0u);
      EXPECT_EQ(ReadAll(*monitor).size(), 400'000u);
    } else {
      EXPECT_EQ(monitor->RecordCapacity(), 1000u);
      EXPECT_EQ(monitor->DroppedRecords(), 400'000u - 1000u);
    }
  }
}

TEST(Monitor, KeepsItsDefaultCapacityForSlowSourcesAndAnExplicitOne) {
  std::unique_ptr<Monitor> monitor;
  std::vector<std::unique_ptr<CounterSource>> sources;
  sources.push_back(std::make_unique<ScriptedCounterSource>("a"));
  ASSERT_EQ(Monitor::CreateWithSources({}, std::move(sources), &monitor), kGpaStatusOk);
  EXPECT_EQ(monitor->RecordCapacity(), kDefaultRecordCapacity);
  MonitorOptions options;
  options.record_capacity = 10;
  sources.clear();
  auto fast = std::make_unique<ScriptedCounterSource>("pm");
  fast->burst = 200'000;
  sources.push_back(std::move(fast));
  ASSERT_EQ(Monitor::CreateWithSources(options, std::move(sources), &monitor), kGpaStatusOk);
  EXPECT_EQ(monitor->RecordCapacity(), 10u);
}

TEST(Monitor, RejectsAnIntervalOutsideItsRangeNamingIt) {
  for (int milliseconds : {0, 9, 3600 * 1000 + 1}) {
    LogCapture log;
    MonitorOptions options;
    options.interval = std::chrono::milliseconds(milliseconds);
    std::vector<std::unique_ptr<CounterSource>> sources;
    sources.push_back(std::make_unique<ScriptedCounterSource>("a"));
    std::unique_ptr<Monitor> monitor;
    EXPECT_EQ(Monitor::CreateWithSources(options, std::move(sources), &monitor), kGpaStatusErrorInvalidParameter);
    EXPECT_NE(log.Text().find("interval " + std::to_string(milliseconds) + " ms"), std::string::npos) << log.Text();
  }
}

TEST(Monitor, RejectsNoSourcesAndNullSources) {
  std::unique_ptr<Monitor> monitor;
  EXPECT_EQ(Monitor::CreateWithSources({}, {}, &monitor), kGpaStatusErrorNoCountersEnabled);
  std::vector<std::unique_ptr<CounterSource>> sources(1);
  EXPECT_EQ(Monitor::CreateWithSources({}, std::move(sources), &monitor), kGpaStatusErrorNullPointer);
  EXPECT_EQ(Monitor::CreateWithSources({}, {}, nullptr), kGpaStatusErrorNullPointer);
}

TEST(Monitor, RejectsAnUnknownCounterNameBeforeLoadingAnyLibrary) {
  LogCapture log;
  MonitorOptions options;
  options.counters = {"gpu_utilization_percent", "gpu_utilisation"};
  options.nvml_library_candidates = {"/nonexistent/libnvidia-ml.so.1"};
  std::unique_ptr<Monitor> monitor;
  EXPECT_EQ(Monitor::Create(options, &monitor), kGpaStatusErrorCounterNotFound);
  EXPECT_EQ(monitor, nullptr);
  EXPECT_NE(log.Text().find("unknown counter 'gpu_utilisation'"), std::string::npos) << log.Text();
}

TEST(Monitor, FailsCleanlyWhenNvmlIsNotInstalled) {
  LogCapture log;
  MonitorOptions options;  // default counters: every NVML one
  options.nvml_library_candidates = {"libopengpa-test-no-such-nvml.so.1"};
  std::unique_ptr<Monitor> monitor;
  EXPECT_EQ(Monitor::Create(options, &monitor), kGpaStatusErrorLibLoadFailed);
  EXPECT_EQ(monitor, nullptr);
  EXPECT_NE(log.Text().find("libopengpa-test-no-such-nvml.so.1"), std::string::npos) << log.Text();
}

}  // namespace
}  // namespace opengpa::monitor
