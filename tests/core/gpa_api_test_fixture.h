// A GPA instance on the fake backend for each test: initialized in SetUp, destroyed in TearDown,
// with every logged error captured so tests can check that the message names the argument.
#ifndef OPENGPA_TESTS_CORE_GPA_API_TEST_FIXTURE_H_
#define OPENGPA_TESTS_CORE_GPA_API_TEST_FIXTURE_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/opengpa_ext.h"
#include "tests/core/fake_backend.h"

namespace opengpa::testing {

class ErrorLog {
 public:
  static void Capture(GpaLoggingType type, const char* message) {
    if ((type & kGpaLoggingError) == 0) return;
    std::lock_guard<std::mutex> lock(Mutex());
    Messages().emplace_back(message);
  }
  static std::string Last() {
    std::lock_guard<std::mutex> lock(Mutex());
    return Messages().empty() ? std::string() : Messages().back();
  }
  static std::size_t Count() {
    std::lock_guard<std::mutex> lock(Mutex());
    return Messages().size();
  }
  static void Clear() {
    std::lock_guard<std::mutex> lock(Mutex());
    Messages().clear();
  }

 private:
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
  static std::vector<std::string>& Messages() {
    static std::vector<std::string> messages;
    return messages;
  }
};

class GpaApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ErrorLog::Clear();
    ASSERT_EQ(GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, &ErrorLog::Capture), kGpaStatusOk);
    ASSERT_EQ(GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusOk);
  }
  void TearDown() override {
    GpaDestroy();
    GpaRegisterLoggingCallback(kGpaLoggingNone, nullptr);
  }

  GpaContextId OpenContext(fake::FakeDevice& device, GpaOpenContextFlags flags = kGpaOpenContextDefaultBit) {
    GpaContextId context = nullptr;
    EXPECT_EQ(GpaOpenContext(&device, flags, &context), kGpaStatusOk) << ErrorLog::Last();
    return context;
  }
  GpaContextId OpenContext() { return OpenContext(device_); }

  GpaSessionId CreateSession(GpaContextId context) {
    GpaSessionId session = nullptr;
    EXPECT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk)
        << ErrorLog::Last();
    return session;
  }

  GpaUInt32 CounterIndex(GpaContextId context, const char* name) {
    GpaUInt32 index = ~0u;
    EXPECT_EQ(GpaGetCounterIndex(context, name, &index), kGpaStatusOk) << name;
    return index;
  }

  // A session on a fresh context with `counters` enabled (by name), begun.
  GpaSessionId BegunSession(const std::vector<const char*>& counters) {
    context_ = OpenContext();
    GpaSessionId session = CreateSession(context_);
    for (const char* name : counters) EXPECT_EQ(GpaEnableCounterByName(session, name), kGpaStatusOk) << name;
    EXPECT_EQ(GpaBeginSession(session), kGpaStatusOk) << ErrorLog::Last();
    return session;
  }

  GpaUInt32 PassCount(GpaSessionId session) {
    GpaUInt32 passes = 0;
    EXPECT_EQ(GpaGetPassCount(session, &passes), kGpaStatusOk);
    return passes;
  }

  // Records `sample_ids` on one command list (kGpaCommandListNone) in every pass.
  void RecordAllPasses(GpaSessionId session, const std::vector<GpaUInt32>& sample_ids) {
    const GpaUInt32 passes = PassCount(session);
    for (GpaUInt32 pass = 0; pass < passes; ++pass) RecordPass(session, pass, sample_ids);
  }
  void RecordPass(GpaSessionId session, GpaUInt32 pass, const std::vector<GpaUInt32>& sample_ids) {
    GpaCommandListId list = nullptr;
    ASSERT_EQ(GpaBeginCommandList(session, pass, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk)
        << ErrorLog::Last();
    for (GpaUInt32 id : sample_ids) {
      ASSERT_EQ(GpaBeginSample(id, list), kGpaStatusOk) << ErrorLog::Last();
      ASSERT_EQ(GpaEndSample(list), kGpaStatusOk) << ErrorLog::Last();
    }
    ASSERT_EQ(GpaEndCommandList(list), kGpaStatusOk) << ErrorLog::Last();
  }

  // One sample's results as raw 64-bit words.
  std::vector<GpaUInt64> Results(GpaSessionId session, GpaUInt32 sample_id) {
    std::size_t size = 0;
    EXPECT_EQ(GpaGetSampleResultSize(session, sample_id, &size), kGpaStatusOk) << ErrorLog::Last();
    std::vector<GpaUInt64> values(size / sizeof(GpaUInt64));
    EXPECT_EQ(GpaGetSampleResult(session, sample_id, size, values.data()), kGpaStatusOk) << ErrorLog::Last();
    return values;
  }

  static double AsDouble(GpaUInt64 bits) {
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }

  fake::FakeDevice device_;
  GpaContextId context_ = nullptr;
};

// A value no GPA library ever hands out: tests that garbage ids are reported, not followed.
template <typename Handle>
Handle GarbageId() {
  return reinterpret_cast<Handle>(static_cast<std::uintptr_t>(0xDEADBEEFCAFEull));
}

}  // namespace opengpa::testing

#endif  // OPENGPA_TESTS_CORE_GPA_API_TEST_FIXTURE_H_
