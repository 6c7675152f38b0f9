// libGPUPerfAPICounters.so reached the way AMD's clients reach it (GpaCounterLibGetFuncTable), with the
// errors it logs captured so tests can check that each refusal says why.
#ifndef OPENGPA_TESTS_COUNTER_LIBRARY_COUNTER_LIBRARY_FIXTURE_H_
#define OPENGPA_TESTS_COUNTER_LIBRARY_COUNTER_LIBRARY_FIXTURE_H_

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "gpu_performance_api/opengpa_counters_ext.h"
#include "gpu_performance_api/opengpa_ext.h"

namespace opengpa::testing {

class CounterLibraryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ClearErrors();
    ASSERT_EQ(OpenGpaCounterLibRegisterLoggingCallback(kGpaLoggingError, &Capture), kGpaStatusOk);
    ASSERT_EQ(GpaCounterLibGetFuncTable(&lib_), kGpaStatusOk);
    ASSERT_TRUE(lib_.IsInit());
  }
  void TearDown() override {
    for (GpaCounterContext context : opened_) lib_.GpaCounterLibCloseCounterContext(context);
    OpenGpaCounterLibRegisterLoggingCallback(kGpaLoggingNone, nullptr);
  }

  static GpaCounterContextHardwareInfo Device(GpaUInt32 vendor, GpaUInt32 device) {
    GpaCounterContextHardwareInfo info{};
    info.vendor_id = vendor;
    info.device_id = device;
    return info;
  }

  // A context closed at TearDown; nullptr (and a test failure) when it does not open.
  GpaCounterContext Open(GpaApiType api, GpaCounterContextHardwareInfo info,
                         GpaOpenContextFlags flags = kGpaOpenContextDefaultBit) {
    GpaCounterContext context = nullptr;
    EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(api, info, flags, 1, &context), kGpaStatusOk) << Errors();
    if (context != nullptr) opened_.push_back(context);
    return context;
  }

  std::vector<std::string> Names(GpaCounterContext context) {
    GpaUInt32 count = 0;
    EXPECT_EQ(lib_.GpaCounterLibGetNumCounters(context, &count), kGpaStatusOk);
    std::vector<std::string> names;
    for (GpaUInt32 i = 0; i < count; ++i) {
      const char* name = nullptr;
      EXPECT_EQ(lib_.GpaCounterLibGetCounterName(context, i, &name), kGpaStatusOk);
      names.emplace_back(name != nullptr ? name : "");
    }
    return names;
  }

  GpaUInt32 IndexOf(GpaCounterContext context, const char* name) {
    GpaCounterParam param{};
    param.is_derived_counter = true;
    param.derived_counter_name = name;
    GpaUInt32 index = ~0u;
    EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(context, &param, &index), kGpaStatusOk) << name << ": " << Errors();
    return index;
  }

  // Names of the hardware counters behind `counter`, through their indices in a context opened with the
  // hardware counters enabled (`with_hardware`).
  std::vector<std::string> HardwareNamesBehind(GpaCounterContext with_hardware, GpaUInt32 counter) {
    const GpaCounterInfo* info = nullptr;
    EXPECT_EQ(lib_.GpaCounterLibGetCounterInfo(with_hardware, counter, &info), kGpaStatusOk);
    std::vector<std::string> names;
    if (info == nullptr || !info->is_derived_counter) return names;
    for (GpaUInt32 k = 0; k < info->gpa_derived_counter->gpa_hw_counter_count; ++k) {
      GpaCounterParam param{};
      param.is_derived_counter = false;
      param.gpa_hw_counter = info->gpa_derived_counter->gpa_hw_counters[k];
      GpaUInt32 index = 0;
      EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(with_hardware, &param, &index), kGpaStatusOk) << Errors();
      const char* name = nullptr;
      EXPECT_EQ(lib_.GpaCounterLibGetCounterName(with_hardware, index, &name), kGpaStatusOk);
      names.emplace_back(name != nullptr ? name : "");
    }
    return names;
  }

  static std::string Errors() {
    std::lock_guard<std::mutex> lock(Mutex());
    return Log();
  }
  static void ClearErrors() {
    std::lock_guard<std::mutex> lock(Mutex());
    Log().clear();
  }

  // The callback SetUp registers (tests that register one themselves use it too).
  static void Capture(GpaLoggingType, const char* message) {
    std::lock_guard<std::mutex> lock(Mutex());
    Log() += std::string(message) + "\n";
  }

  GpaCounterLibFuncTable lib_;
  std::vector<GpaCounterContext> opened_;

 private:
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
  static std::string& Log() {
    static std::string log;
    return log;
  }
};

}  // namespace opengpa::testing

#endif  // OPENGPA_TESTS_COUNTER_LIBRARY_COUNTER_LIBRARY_FIXTURE_H_
