// opengpa.hpp over a function table loaded from libGPUPerfAPITest.so.
#include "opengpa/opengpa.hpp"

#include <gtest/gtest.h>

#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "tests/core/fake_backend.h"

namespace {

using opengpa::fake::FakeHardwareValue;

class CppWrapperTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(GpaApiManager::Instance()->LoadApi(kGpaApiVulkan, OPENGPA_TEST_LIBRARY), kGpaStatusOk)
        << GpaApiManager::Instance()->GetLastError();
    table_ = GpaApiManager::Instance()->GetFunctionTable(kGpaApiVulkan);
  }
  void TearDown() override { GpaApiManager::DeleteInstance(); }

  GpaFunctionTable* table_ = nullptr;
  opengpa::fake::FakeDevice device_;
};

TEST_F(CppWrapperTest, ProfilesAMultiPassSessionWithTypedResults) {
  device_.block_limit = 1;
  opengpa::Library gpa(table_);
  opengpa::Context context(gpa, &device_);
  EXPECT_EQ(context.DeviceName(), "OpenGPA Fake Device (FAKE1)");
  EXPECT_EQ(context.Counters().size(), context.CounterCount());
  ASSERT_TRUE(context.FindCounter("FakeTimeMs").has_value());
  EXPECT_FALSE(context.FindCounter("NoSuchCounter").has_value());

  opengpa::Session session(context);
  session.Enable("FakeTotalWork");
  session.Enable(*context.FindCounter("FakeTimeMs"));
  session.Begin();
  ASSERT_EQ(session.PassCount(), 2u);
  for (GpaUInt32 pass = 0; pass < session.PassCount(); ++pass) {
    opengpa::CommandList list(session, pass);
    for (GpaUInt32 id : {10u, 20u}) opengpa::ScopedSample sample(list, id);
    list.End();
  }
  session.End();
  EXPECT_EQ(session.SampleIds(), (std::vector<GpaUInt32>{10, 20}));
  const std::vector<opengpa::CounterValue> values = session.Result(20);
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(std::get<std::uint64_t>(values[0]),
            static_cast<std::uint64_t>(FakeHardwareValue(0, 1) + FakeHardwareValue(1, 1)));
  EXPECT_DOUBLE_EQ(std::get<double>(values[1]), FakeHardwareValue(4, 1) / 1e6);
  EXPECT_DOUBLE_EQ(session.ResultFloat64(10, 1), FakeHardwareValue(4, 0) / 1e6);
  EXPECT_DOUBLE_EQ(opengpa::AsDouble(values[0]), FakeHardwareValue(0, 1) + FakeHardwareValue(1, 1));
}

TEST_F(CppWrapperTest, FailuresThrowAnErrorCarryingTheStatus) {
  opengpa::Library gpa(table_);
  opengpa::Context context(gpa, &device_);
  opengpa::Session session(context);
  try {
    session.Enable("NoSuchCounter");
    FAIL() << "no exception";
  } catch (const opengpa::Error& error) {
    EXPECT_EQ(error.status(), kGpaStatusErrorCounterNotFound);
    EXPECT_NE(std::string(error.what()).find("GpaEnableCounterByName"), std::string::npos) << error.what();
  }
  EXPECT_THROW(session.Begin(), opengpa::Error);  // no counters enabled
}

TEST_F(CppWrapperTest, TypedGetterRejectsTheOtherDataType) {
  opengpa::Library gpa(table_);
  opengpa::Context context(gpa, &device_);
  opengpa::Session session(context);
  session.Enable("FakeTotalWork");
  session.Begin();
  {
    opengpa::CommandList list(session, 0);
    opengpa::ScopedSample sample(list, 0);
  }  // the list ends itself
  session.End();
  try {
    session.ResultFloat64(0, 0);
    FAIL() << "no exception";
  } catch (const opengpa::Error& error) {
    EXPECT_EQ(error.status(), kGpaStatusErrorInvalidDataType);
  }
  EXPECT_THROW(session.ResultUint64(0, 1), opengpa::Error);
}

TEST_F(CppWrapperTest, ObjectsReleaseTheirGpaObjects) {
  {
    opengpa::Library gpa(table_);
    opengpa::Context context(gpa, &device_);
    opengpa::Session session(context);
    session.Enable("FakeTotalWork");
    session.Begin();
    EXPECT_EQ(device_.sessions_alive.load(), 1);
  }
  EXPECT_EQ(device_.sessions_alive.load(), 0);
  opengpa::Library again(table_);  // GpaDestroy ran: initializing again succeeds
}

}  // namespace
