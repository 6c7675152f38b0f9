// A GPA v2 instance on the fake backend for each test: GPA_Initialize in SetUp, GPA_Destroy in TearDown,
// every message of the v2 logging callback captured so tests can check what an error says.
#ifndef OPENGPA_TESTS_GPA2_GPA2_TEST_FIXTURE_H_
#define OPENGPA_TESTS_GPA2_GPA2_TEST_FIXTURE_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "gpu_performance_api/v2/GPUPerfAPI-OpenGPA.h"
#include "gpu_performance_api/v2/GPUPerfAPI.h"
#include "tests/core/fake_backend.h"

namespace opengpa::gpa2test {

class V2Log {
 public:
  static void Capture(GPA_Logging_Type type, const char* message) {
    std::lock_guard<std::mutex> lock(Mutex());
    Messages().push_back({type, message});
  }
  static std::string LastError() {
    std::lock_guard<std::mutex> lock(Mutex());
    for (auto it = Messages().rbegin(); it != Messages().rend(); ++it) {
      if (it->type == GPA_LOGGING_ERROR) return it->text;
    }
    return {};
  }
  static bool Has(GPA_Logging_Type type, const std::string& text) {
    std::lock_guard<std::mutex> lock(Mutex());
    for (const auto& message : Messages()) {
      if (message.type == type && message.text.find(text) != std::string::npos) return true;
    }
    return false;
  }
  static void Clear() {
    std::lock_guard<std::mutex> lock(Mutex());
    Messages().clear();
  }

 private:
  struct Message {
    GPA_Logging_Type type;
    std::string text;
  };
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
  static std::vector<Message>& Messages() {
    static std::vector<Message> messages;
    return messages;
  }
};

// Error messages name the v2 function (and the argument or state at fault).
MATCHER_P(Mentions, text, "") { return arg.find(text) != std::string::npos; }

class Gpa2Test : public ::testing::Test {
 protected:
  void SetUp() override {
    V2Log::Clear();
    ASSERT_EQ(GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_MESSAGE, &V2Log::Capture), GPA_STATUS_OK);
    ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
  }
  void TearDown() override {
    GPA_Destroy();
    GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, nullptr);
  }

  void Open(fake::FakeDevice& device) { ASSERT_EQ(GPA_OpenContext(&device), GPA_STATUS_OK) << V2Log::LastError(); }
  void Open() { Open(device_); }

  gpa_uint32 Index(const char* name) {
    gpa_uint32 index = ~0u;
    EXPECT_EQ(GPA_GetCounterIndex(name, &index), GPA_STATUS_OK) << name;
    return index;
  }

  // A begun session on the open context with `counters` enabled by name.
  gpa_uint32 BeginSessionWith(const std::vector<const char*>& counters) {
    for (const char* name : counters) EXPECT_EQ(GPA_EnableCounterStr(name), GPA_STATUS_OK) << name;
    gpa_uint32 session = 0;
    EXPECT_EQ(GPA_BeginSession(&session), GPA_STATUS_OK) << V2Log::LastError();
    return session;
  }

  // One pass with `sample_ids`, each begun and ended.
  void RecordPass(const std::vector<gpa_uint32>& sample_ids) {
    ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK) << V2Log::LastError();
    for (gpa_uint32 id : sample_ids) {
      ASSERT_EQ(GPA_BeginSample(id), GPA_STATUS_OK) << V2Log::LastError();
      ASSERT_EQ(GPA_EndSample(), GPA_STATUS_OK) << V2Log::LastError();
    }
    ASSERT_EQ(GPA_EndPass(), GPA_STATUS_OK) << V2Log::LastError();
  }

  // A whole session (GPA_GetPassCount passes of `sample_ids`) with `counters`, ended; its id.
  gpa_uint32 RecordSession(const std::vector<const char*>& counters, const std::vector<gpa_uint32>& sample_ids) {
    const gpa_uint32 session = BeginSessionWith(counters);
    gpa_uint32 passes = 0;
    EXPECT_EQ(GPA_GetPassCount(&passes), GPA_STATUS_OK);
    for (gpa_uint32 pass = 0; pass < passes; ++pass) RecordPass(sample_ids);
    EXPECT_EQ(GPA_EndSession(), GPA_STATUS_OK) << V2Log::LastError();
    return session;
  }

  fake::FakeDevice device_;
};

}  // namespace opengpa::gpa2test

#endif  // OPENGPA_TESTS_GPA2_GPA2_TEST_FIXTURE_H_
