// The C API's contract on misuse and on machines without NVIDIA software: documented statuses, a log
// message naming the argument, never a crash. (Its success path needs a GPU: tests/device/monitor.)
#include "gpu_performance_api/opengpa_monitor.h"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

namespace {

std::mutex g_log_mutex;
std::string g_log;

void CaptureLog(GpaLoggingType, const char* message) {
  std::lock_guard<std::mutex> lock(g_log_mutex);
  g_log += message;
  g_log += '\n';
}

class MonitorCApi : public ::testing::Test {
 protected:
  void SetUp() override {
    g_log.clear();
    ASSERT_EQ(OpenGpaMonitorRegisterLoggingCallback(kGpaLoggingErrorAndMessage, &CaptureLog), kGpaStatusOk);
    config_.struct_size = sizeof(config_);
    config_.nvml_library = "libopengpa-test-absent-nvml.so.1";
  }
  void TearDown() override { OpenGpaMonitorRegisterLoggingCallback(kGpaLoggingNone, nullptr); }
  std::string Log() {
    std::lock_guard<std::mutex> lock(g_log_mutex);
    return g_log;
  }

  OpenGpaMonitorConfig config_{};
};

TEST_F(MonitorCApi, CreateReportsLibLoadFailedAndLeavesTheHandleNullWithoutNvml) {
  OpenGpaMonitor monitor = reinterpret_cast<OpenGpaMonitor>(0x1234);
  EXPECT_EQ(OpenGpaMonitorCreate(&config_, &monitor), kGpaStatusErrorLibLoadFailed);
  EXPECT_EQ(monitor, nullptr);
  EXPECT_NE(Log().find("libopengpa-test-absent-nvml.so.1"), std::string::npos) << Log();
}

TEST_F(MonitorCApi, CreateRejectsNullPointersNamingThem) {
  OpenGpaMonitor monitor = nullptr;
  EXPECT_EQ(OpenGpaMonitorCreate(nullptr, &monitor), kGpaStatusErrorNullPointer);
  EXPECT_NE(Log().find("config is null"), std::string::npos);
  EXPECT_EQ(OpenGpaMonitorCreate(&config_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_NE(Log().find("monitor is null"), std::string::npos);
  config_.counter_count = 2;
  EXPECT_EQ(OpenGpaMonitorCreate(&config_, &monitor), kGpaStatusErrorNullPointer);
  EXPECT_NE(Log().find("counter_names is null but counter_count is 2"), std::string::npos) << Log();
  const char* names[] = {"power_watts", nullptr};
  config_.counter_names = names;
  EXPECT_EQ(OpenGpaMonitorCreate(&config_, &monitor), kGpaStatusErrorNullPointer);
  EXPECT_NE(Log().find("counter_names[1] is null"), std::string::npos) << Log();
  config_.counter_count = 0;
  config_.device_count = 1;
  EXPECT_EQ(OpenGpaMonitorCreate(&config_, &monitor), kGpaStatusErrorNullPointer);
  EXPECT_NE(Log().find("device_indices is null but device_count is 1"), std::string::npos) << Log();
}

TEST_F(MonitorCApi, CreateRejectsAWrongStructSize) {
  OpenGpaMonitor monitor = nullptr;
  config_.struct_size = 8;
  EXPECT_EQ(OpenGpaMonitorCreate(&config_, &monitor), kGpaStatusErrorInvalidParameter);
  EXPECT_NE(Log().find("struct_size is 8"), std::string::npos) << Log();
}

TEST_F(MonitorCApi, CreateRejectsAnIntervalBelowTenMilliseconds) {
  OpenGpaMonitor monitor = nullptr;
  config_.interval_ms = 5;
  EXPECT_EQ(OpenGpaMonitorCreate(&config_, &monitor), kGpaStatusErrorInvalidParameter);
  EXPECT_NE(Log().find("interval 5 ms"), std::string::npos) << Log();
}

TEST_F(MonitorCApi, CreateRejectsAnUnknownCounterName) {
  OpenGpaMonitor monitor = nullptr;
  const char* names[] = {"no_such_counter"};
  config_.counter_names = names;
  config_.counter_count = 1;
  EXPECT_EQ(OpenGpaMonitorCreate(&config_, &monitor), kGpaStatusErrorCounterNotFound);
  EXPECT_NE(Log().find("unknown counter 'no_such_counter'"), std::string::npos) << Log();
}

TEST_F(MonitorCApi, EveryFunctionRejectsAHandleThatIsNotALiveMonitor) {
  const OpenGpaMonitor bogus = reinterpret_cast<OpenGpaMonitor>(0xdeadbeef);
  GpaUInt32 count = 0;
  GpaUInt64 dropped = 0;
  OpenGpaMonitorCounterInfo counter_info{};
  OpenGpaMonitorDeviceInfo device_info{};
  OpenGpaMonitorRecord records[4];
  GpaUInt32 size = 0;
  GpaUInt16 port = 0;
  EXPECT_EQ(OpenGpaMonitorDestroy(bogus), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorDestroy(nullptr), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorGetCounterCount(bogus, &count), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorGetCounterInfo(bogus, 0, &counter_info), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorGetDeviceCount(bogus, &count), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorGetDeviceInfo(bogus, 0, &device_info), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorStart(bogus), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorStop(bogus), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorRead(bogus, records, 4, &count), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorGetDroppedRecordCount(bogus, &dropped), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorWriteMetricsText(bogus, 1, nullptr, &size), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(OpenGpaMonitorServeMetrics(bogus, "0", &port), kGpaStatusErrorInvalidParameter);
  EXPECT_NE(Log().find("is not a live monitor handle"), std::string::npos);
}

TEST_F(MonitorCApi, OutputPointersAreCheckedBeforeTheHandle) {
  const OpenGpaMonitor bogus = reinterpret_cast<OpenGpaMonitor>(0xdeadbeef);
  EXPECT_EQ(OpenGpaMonitorGetCounterCount(bogus, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(OpenGpaMonitorGetCounterInfo(bogus, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(OpenGpaMonitorGetDeviceCount(bogus, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(OpenGpaMonitorGetDeviceInfo(bogus, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(OpenGpaMonitorRead(bogus, nullptr, 0, nullptr), kGpaStatusErrorNullPointer);
  GpaUInt32 count = 7;
  EXPECT_EQ(OpenGpaMonitorRead(bogus, nullptr, 4, &count), kGpaStatusErrorNullPointer);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(OpenGpaMonitorGetDroppedRecordCount(bogus, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(OpenGpaMonitorWriteMetricsText(bogus, 0, nullptr, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(OpenGpaMonitorServeMetrics(bogus, nullptr, nullptr), kGpaStatusErrorNullPointer);
}

}  // namespace
