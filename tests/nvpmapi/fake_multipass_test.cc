// What only several passes can show, on the test backend (libGPUPerfAPITest.so through
// OpenGpaNvPmCreateContextFromGpaLibrary): with one counter of a block per pass, FakeTotalWork
// (FakeCycles + FakeItems, both of block 0) needs two passes, and FakeBusyPercent and FakeScaledBytes (both
// reading block 1) cannot share one. Fake hardware counter h of sample slot s reads (h + 1) * 1000 + 7 s + 3.
#include <climits>

#include "c_enum_callers.h"
#include "nvpm_test_fixture.h"
#include "tests/core/fake_backend.h"

namespace opengpa::testing {
namespace {

double FakeTotalWork(int slot) {
  return fake::FakeHardwareValue(0, static_cast<std::uint32_t>(slot)) +
         fake::FakeHardwareValue(1, static_cast<std::uint32_t>(slot));
}

class FakeNvPm : public NvPmTest {
 protected:
  void SetUp() override {
    NvPmTest::SetUp();
    device_.block_limit = 1;
    auto create = reinterpret_cast<OpenGpaNvPmCreateContextFromGpaLibrary_Pfn>(
        dlsym(library_, "OpenGpaNvPmCreateContextFromGpaLibrary"));
    ASSERT_NE(create, nullptr);
    ASSERT_EQ(create(OPENGPA_TEST_LIBRARY, &device_, &context_), NVPM_OK) << LastMessage();
    ASSERT_EQ(api_->AddCounterByName(context_, "FakeTotalWork"), NVPM_OK);
    ASSERT_EQ(api_->ReserveObjects(context_, 3), NVPM_OK);
    ASSERT_EQ(api_->BeginExperiment(context_, &passes_), NVPM_OK) << LastMessage();
  }

  void Object(NVPMUINT object) {
    ASSERT_EQ(api_->BeginObject(context_, object), NVPM_OK);
    ASSERT_EQ(api_->EndObject(context_, object), NVPM_OK);
  }

  fake::FakeDevice device_;
  NVPMContext context_ = 0;
  NVPMUINT passes_ = 0;
};

TEST_F(FakeNvPm, ExperimentPassesAreTheLibrarysPassesAndObjectsReadEveryPass) {
  ASSERT_EQ(passes_, 2u);
  for (NVPMUINT pass = 0; pass < passes_; ++pass) {
    ASSERT_EQ(api_->BeginPass(context_, pass), NVPM_OK);
    for (NVPMUINT object = 0; object < 3; ++object) Object(object);
    ASSERT_EQ(api_->EndPass(context_, pass), NVPM_OK);
  }
  ASSERT_EQ(api_->EndExperiment(context_), NVPM_OK) << LastMessage();
  for (NVPMUINT object = 0; object < 3; ++object) {
    NVPMUINT64 value = 0, cycles = 0;
    ASSERT_EQ(api_->GetCounterValueByName(context_, "FakeTotalWork", object, &value, &cycles), NVPM_OK);
    EXPECT_EQ(double(value), FakeTotalWork(int(object))) << "object " << object;
  }
}

TEST_F(FakeNvPm, AttributesOutsideNvpmattributeFromCAreInvalidParameters) {
  // Read as an int and range-checked (UBSan's enum check, in the sanitizer run, fails the test otherwise).
  const NVPMCounterID id = Id(context_, "FakeTotalWork");
  NVPMUINT64 value = 0;
  ASSERT_EQ(CallGetCounterAttribute(api_, id, NVPMA_COUNTER_TYPE, &value), NVPM_OK);
  for (int bad : {-1, 5, 1000, INT_MIN, INT_MAX}) {
    EXPECT_EQ(CallGetCounterAttribute(api_, id, bad, &value), NVPM_ERROR_INVALID_PARAMETER) << bad;
    EXPECT_NE(LastMessage().find("attribute " + std::to_string(bad) + " is not offered"), std::string::npos)
        << LastMessage();
  }
}

TEST_F(FakeNvPm, BeginPassOfAPassOtherThanTheNextIsPassSkipped) {
  EXPECT_EQ(api_->BeginPass(context_, 1), NVPM_ERROR_PASS_SKIPPED);
  ASSERT_EQ(api_->BeginPass(context_, 0), NVPM_OK);
  ASSERT_EQ(api_->EndPass(context_, 0), NVPM_WARNING_PASS_INCOMPLETE);
  EXPECT_EQ(api_->BeginPass(context_, 0), NVPM_ERROR_PASS_SKIPPED);
  EXPECT_EQ(api_->BeginPass(context_, 2), NVPM_ERROR_INVALID_PASS);
  EXPECT_EQ(api_->BeginPass(context_, 1), NVPM_OK);
}

TEST_F(FakeNvPm, AnObjectPassZeroDidNotMeasureIsDrawCountChangedAndHasNoValue) {
  ASSERT_EQ(api_->BeginPass(context_, 0), NVPM_OK);
  Object(0);
  Object(1);
  EXPECT_EQ(api_->EndPass(context_, 0), NVPM_WARNING_PASS_INCOMPLETE);
  ASSERT_EQ(api_->BeginPass(context_, 1), NVPM_OK);
  Object(0);
  Object(1);
  ASSERT_EQ(api_->BeginObject(context_, 2), NVPM_OK);
  EXPECT_EQ(api_->EndObject(context_, 2), NVPM_WARNING_DRAW_COUNT_CHANGED);
  EXPECT_EQ(api_->EndPass(context_, 1), NVPM_OK);
  ASSERT_EQ(api_->EndExperiment(context_), NVPM_OK) << LastMessage();
  NVPMUINT64 value = 0, cycles = 0;
  EXPECT_EQ(api_->GetCounterValueByName(context_, "FakeTotalWork", 2, &value, &cycles), NVPM_ERROR_INVALID_OBJECT);
  ASSERT_EQ(api_->GetCounterValueByName(context_, "FakeTotalWork", 1, &value, &cycles), NVPM_OK);
  EXPECT_EQ(double(value), FakeTotalWork(1));
}

TEST_F(FakeNvPm, ALaterPassThatSkipsAnObjectOfPassZeroLeavesTheExperimentIncomplete) {
  ASSERT_EQ(api_->BeginPass(context_, 0), NVPM_OK);
  Object(0);
  Object(1);
  EXPECT_EQ(api_->EndPass(context_, 0), NVPM_WARNING_PASS_INCOMPLETE);
  ASSERT_EQ(api_->BeginPass(context_, 1), NVPM_OK);
  Object(0);
  EXPECT_EQ(api_->EndPass(context_, 1), NVPM_WARNING_PASS_INCOMPLETE);
  // GPA keeps no sample a pass skipped: the experiment is discarded, and says which pass.
  EXPECT_EQ(api_->EndExperiment(context_), NVPM_ERROR_EXPERIMENT_INCOMPLETE);
  EXPECT_NE(LastMessage().find("pass 1"), std::string::npos) << LastMessage();
  EXPECT_EQ(api_->EndExperiment(context_), NVPM_ERROR_NOT_IN_EXPERIMENT);
}

TEST_F(FakeNvPm, EndExperimentBeforeTheLastPassIsIncomplete) {
  ASSERT_EQ(api_->BeginPass(context_, 0), NVPM_OK);
  for (NVPMUINT object = 0; object < 3; ++object) Object(object);
  ASSERT_EQ(api_->EndPass(context_, 0), NVPM_OK);
  EXPECT_EQ(api_->EndExperiment(context_), NVPM_ERROR_EXPERIMENT_INCOMPLETE);
  NVPMUINT64 value = 0, cycles = 0;
  EXPECT_EQ(api_->GetCounterValueByName(context_, "FakeTotalWork", 0, &value, &cycles), NVPM_ERROR_EXPERIMENT_NOT_RUN);
}

TEST_F(FakeNvPm, RealTimeMeasuresCountersThatShareNoPassInTurn) {
  ASSERT_EQ(api_->EndExperiment(context_), NVPM_ERROR_EXPERIMENT_INCOMPLETE);
  ASSERT_EQ(api_->RemoveAllCounters(context_), NVPM_OK);
  ASSERT_EQ(api_->AddCounterByName(context_, "FakeBusyPercent"), NVPM_OK);
  ASSERT_EQ(api_->AddCounterByName(context_, "FakeScaledBytes"), NVPM_OK);
  ASSERT_EQ(api_->AddCounterByName(context_, "FakeTotalWork"), NVPM_OK);  // two passes: never in real time
  ASSERT_EQ(api_->Sample(context_, nullptr, nullptr), NVPM_OK);
  std::vector<NVPMCounterID> read;
  for (int frame = 0; frame < 4; ++frame) {
    NVPMSampleValue samples[4];
    NVPMUINT count = 4;
    ASSERT_EQ(api_->Sample(context_, samples, &count), NVPM_OK) << LastMessage();
    ASSERT_EQ(count, 1u) << "frame " << frame;
    read.push_back(samples[0].unCounterID);
  }
  const NVPMCounterID busy = Id(context_, "FakeBusyPercent");
  const NVPMCounterID bytes = Id(context_, "FakeScaledBytes");
  EXPECT_EQ(read, (std::vector<NVPMCounterID>{busy, bytes, busy, bytes}));
  NVPMUINT64 value = 0, cycles = 0;
  EXPECT_EQ(api_->GetCounterValueByName(context_, "FakeTotalWork", 0, &value, &cycles), NVPM_ERROR_EXPERIMENT_NOT_RUN);
}

}  // namespace
}  // namespace opengpa::testing
