// A GPA 4 client of libGPUPerfAPITest.so: the v4 table through GpaApiManager, GPA initialized, a context open on
// a FakeDevice (tests/core/fake_backend.h) and a discrete-counter session on it.
#ifndef OPENGPA_TESTS_GPA4_GPA4_FIXTURE_H_
#define OPENGPA_TESTS_GPA4_GPA4_FIXTURE_H_

#include <gtest/gtest.h>

#include <cstdint>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "tests/core/fake_backend.h"

namespace opengpa::gpa4_test {

class Gpa4Test : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(GpaApiManager::Instance()->LoadApi(kGpaApiVulkan, OPENGPA_TEST_LIBRARY), kGpaStatusOk)
        << GpaApiManager::Instance()->GetLastError();
    gpa_ = GpaApiManager::Instance()->GetFunctionTable(kGpaApiVulkan);
    ASSERT_NE(gpa_, nullptr);
    ASSERT_EQ(gpa_->major_version, 4u);
    ASSERT_EQ(gpa_->GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusOk);
    device_.sample_types = 0;  // the v3 core's mask: discrete counters need no bit
    ConfigureDevice(device_);
    ASSERT_EQ(gpa_->GpaOpenContext(&device_, kGpaOpenContextDefaultBit, &context_), kGpaStatusOk);
    ASSERT_EQ(gpa_->GpaCreateSession(context_, kGpaSessionSampleTypeDiscreteCounter, &session_), kGpaStatusOk);
  }

  void TearDown() override {
    if (gpa_ != nullptr) gpa_->GpaDestroy();  // closes what is left open
    GpaApiManager::Instance()->UnloadApi(kGpaApiVulkan);
    GpaApiManager::DeleteInstance();
  }

  virtual void ConfigureDevice(fake::FakeDevice&) {}

  // A session id no call ever returned.
  static GpaSessionId UnknownSession() {
    return reinterpret_cast<GpaSessionId>(static_cast<std::uintptr_t>(0xDEADBEEFCAFEull));
  }
  static GpaContextId UnknownContext() {
    return reinterpret_cast<GpaContextId>(static_cast<std::uintptr_t>(0xDEADBEEFCAFEull));
  }

  GpaFunctionTable* gpa_ = nullptr;
  fake::FakeDevice device_;
  GpaContextId context_ = nullptr;
  GpaSessionId session_ = nullptr;
};

}  // namespace opengpa::gpa4_test

#endif  // OPENGPA_TESTS_GPA4_GPA4_FIXTURE_H_
