// libGPUPerfAPICounters.so as a GPA 4.3 client reaches it: compiled against include/v4 only, the table filled by
// GpaCounterLibGetFuncTable with the versions GPA 4.3's header sets (major 3, 160 bytes), refusals captured.
#ifndef OPENGPA_TESTS_COUNTER_LIBRARY_V4_COUNTER_LIBRARY_V4_FIXTURE_H_
#define OPENGPA_TESTS_COUNTER_LIBRARY_V4_COUNTER_LIBRARY_V4_FIXTURE_H_

#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "gpu_performance_api/opengpa_counters_ext.h"
#include "gpu_performance_api/opengpa_ext.h"

namespace opengpa::testing {

class CounterLibraryV4Test : public ::testing::Test {
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
                         GpaOpenContextFlags flags = kGpaOpenContextDefaultBit,
                         GpaSessionSampleType type = kGpaSessionSampleTypeDiscreteCounter) {
    GpaCounterContext context = nullptr;
    EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(api, type, info, flags, &context), kGpaStatusOk) << Errors();
    if (context != nullptr) opened_.push_back(context);
    return context;
  }

  GpaUInt32 IndexOf(GpaCounterContext context, const char* name) {
    GpaCounterParam param{};
    param.is_derived_counter = true;
    param.derived_counter_name = name;
    GpaUInt32 index = ~0u;
    EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(context, &param, &index), kGpaStatusOk) << name << ": " << Errors();
    return index;
  }

  // The hardware counters behind `counter` (in GetCounterInfo's order) in a context opened with the hardware
  // counters enabled: their names and their indices h (what a GpaSpmCounterInfo's event_index names).
  struct HardwareInput {
    std::string name;
    GpaUInt32 h = 0;
  };
  std::vector<HardwareInput> InputsOf(GpaCounterContext with_hardware, GpaUInt32 counter) {
    const GpaCounterInfo* info = nullptr;
    EXPECT_EQ(lib_.GpaCounterLibGetCounterInfo(with_hardware, counter, &info), kGpaStatusOk);
    std::vector<HardwareInput> inputs;
    if (info == nullptr || !info->is_derived_counter) return inputs;
    for (GpaUInt32 k = 0; k < info->gpa_derived_counter->gpa_hw_counter_count; ++k) {
      const GpaHwCounter& hw = info->gpa_derived_counter->gpa_hw_counters[k];
      GpaCounterParam param{};
      param.is_derived_counter = false;
      param.gpa_hw_counter = hw;
      GpaUInt32 index = 0;
      EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(with_hardware, &param, &index), kGpaStatusOk) << Errors();
      const char* name = nullptr;
      EXPECT_EQ(lib_.GpaCounterLibGetCounterName(with_hardware, index, &name), kGpaStatusOk);
      inputs.push_back({name != nullptr ? name : "",
                        hw.is_timing_block ? hw.gpu_time_bottom_to_bottom_duration : hw.gpa_hw_block_event_id});
    }
    return inputs;
  }

  static std::string Errors() {
    std::lock_guard<std::mutex> lock(ErrorMutex());
    std::string all;
    for (const std::string& e : ErrorList()) all += e + "\n";
    return all;
  }
  static void ClearErrors() {
    std::lock_guard<std::mutex> lock(ErrorMutex());
    ErrorList().clear();
  }

  GpaCounterLibFuncTable lib_;
  std::vector<GpaCounterContext> opened_;

 private:
  static std::mutex& ErrorMutex() {
    static std::mutex mutex;
    return mutex;
  }
  static std::vector<std::string>& ErrorList() {
    static std::vector<std::string> errors;
    return errors;
  }
  static void Capture(GpaLoggingType, const char* message) {
    std::lock_guard<std::mutex> lock(ErrorMutex());
    ErrorList().emplace_back(message);
  }
};

// A GpaSpmData over `columns` (event_index = hardware counter h), each with `samples` values, as float64s.
struct SpmSeriesBuilder {
  std::vector<GpaUInt64> timestamps;
  std::vector<GpaSpmCounterInfo> infos;
  std::vector<double> values;

  SpmSeriesBuilder(std::size_t samples) : timestamps(samples) {
    for (std::size_t t = 0; t < samples; ++t) timestamps[t] = 1000 * (t + 1);
  }
  void Column(GpaUInt32 h, const std::vector<double>& series) {
    infos.push_back({0, 0, static_cast<GpaUInt32>(values.size()), h});
    values.insert(values.end(), series.begin(), series.end());
  }
  GpaSpmData Data() const {
    GpaSpmData data{};
    data.number_of_timestamps = static_cast<GpaUInt32>(timestamps.size());
    data.number_of_spm_counter_info = static_cast<GpaUInt32>(infos.size());
    data.number_of_counter_data = static_cast<GpaUInt32>(values.size());
    data.number_of_bytes_per_counter_data = sizeof(double);
    data.timestamps = timestamps.data();
    data.spm_counter_info = infos.data();
    data.counter_data_16bit = reinterpret_cast<const GpaUInt16*>(values.data());
    return data;
  }
};

}  // namespace opengpa::testing

#endif  // OPENGPA_TESTS_COUNTER_LIBRARY_V4_COUNTER_LIBRARY_V4_FIXTURE_H_
