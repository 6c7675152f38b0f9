// libGPUPerfAPICUDA.so initialized for each test, with logged errors captured so that tests can check
// the message names the argument; helpers to open offline contexts (a chip name, no GPU).
#ifndef OPENGPA_TESTS_CUDA_CUDA_TEST_FIXTURE_H_
#define OPENGPA_TESTS_CUDA_CUDA_TEST_FIXTURE_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"

namespace opengpa::testing {

class CudaErrorLog {
 public:
  static void Capture(GpaLoggingType type, const char* message) {
    if ((type & kGpaLoggingError) == 0) return;
    std::lock_guard<std::mutex> lock(Mutex());
    Last() += std::string(message) + "\n";
  }
  // Every error logged since the last Clear, one per line (a failure is logged at each layer it crosses).
  static std::string Errors() {
    std::lock_guard<std::mutex> lock(Mutex());
    return Last();
  }
  static void Clear() {
    std::lock_guard<std::mutex> lock(Mutex());
    Last().clear();
  }

 private:
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
  static std::string& Last() {
    static std::string last;
    return last;
  }
};

class CudaApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CudaErrorLog::Clear();
    ASSERT_EQ(GpaRegisterLoggingCallback(kGpaLoggingError, &CudaErrorLog::Capture), kGpaStatusOk);
    ASSERT_EQ(GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusOk);
  }
  void TearDown() override {
    GpaDestroy();
    GpaRegisterLoggingCallback(kGpaLoggingNone, nullptr);
  }

  GpaContextId OpenOffline(const char* chip, GpaOpenContextFlags flags = kGpaOpenContextDefaultBit) {
    GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
    info.chip_name = chip;
    GpaContextId context = nullptr;
    EXPECT_EQ(GpaOpenContext(&info, flags, &context), kGpaStatusOk) << chip << ": " << CudaErrorLog::Errors();
    return context;
  }

  static std::vector<std::string> CounterNames(GpaContextId context) {
    GpaUInt32 count = 0;
    EXPECT_EQ(GpaGetNumCounters(context, &count), kGpaStatusOk);
    std::vector<std::string> names;
    for (GpaUInt32 i = 0; i < count; ++i) {
      const char* name = nullptr;
      EXPECT_EQ(GpaGetCounterName(context, i, &name), kGpaStatusOk);
      names.emplace_back(name);
    }
    return names;
  }

  // Passes GpaGetPassCount reports with exactly `names` enabled; 0 and the error when it fails.
  static GpaUInt32 PassCount(GpaContextId context, const std::vector<std::string>& names, GpaStatus* status = nullptr) {
    GpaSessionId session = nullptr;
    EXPECT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk);
    for (const std::string& name : names) {
      EXPECT_EQ(GpaEnableCounterByName(session, name.c_str()), kGpaStatusOk) << name;
    }
    GpaUInt32 passes = 0;
    const GpaStatus result = GpaGetPassCount(session, &passes);
    if (status != nullptr) *status = result;
    if (result != kGpaStatusOk) passes = 0;
    GpaDeleteSession(session);
    return passes;
  }
};

}  // namespace opengpa::testing

#endif  // OPENGPA_TESTS_CUDA_CUDA_TEST_FIXTURE_H_
