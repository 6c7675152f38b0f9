// ReserveObjects, BeginExperiment ... EndExperiment: every documented result that one pass can show, on
// llvmpipe (OpenGL's counters all fit in one pass; the results only several passes can show are pinned on the
// test backend, fake_multipass_test.cc).
#include "gl_nvpm_fixture.h"

namespace opengpa::testing {
namespace {

class GlNvPmExperiment : public GlNvPm {
 protected:
  void SetUp() override {
    GlNvPm::SetUp();
    ASSERT_EQ(api_->AddCounterByName(context_, "SamplesPassed"), NVPM_OK);
    ASSERT_EQ(api_->ReserveObjects(context_, 2), NVPM_OK);
  }
  NVPMUINT Begin() {
    NVPMUINT passes = 0;
    EXPECT_EQ(api_->BeginExperiment(context_, &passes), NVPM_OK) << LastMessage();
    EXPECT_EQ(passes, 1u);
    return passes;
  }
};

TEST_F(GlNvPmExperiment, ReserveObjectsRefusesMoreThanAPassHoldsAndWhileRunning) {
  EXPECT_EQ(api_->ReserveObjects(context_, 1u << 30), NVPM_OUT_OF_MEMORY);
  Begin();
  EXPECT_EQ(api_->ReserveObjects(context_, 4), NVPM_ERROR_EXPERIMENT_RUNNING);
  EXPECT_EQ(api_->DeleteObjects(context_), NVPM_ERROR_EXPERIMENT_RUNNING);
}

TEST_F(GlNvPmExperiment, BeginExperimentNeedsCountersAPassCountPointerAndNoRunningExperiment) {
  NVPMUINT passes = 0;
  EXPECT_EQ(api_->BeginExperiment(context_, nullptr), NVPM_ERROR_INVALID_PARAMETER);
  ASSERT_EQ(api_->RemoveAllCounters(context_), NVPM_OK);
  EXPECT_EQ(api_->BeginExperiment(context_, &passes), NVPM_ERROR_NO_COUNTERS);
  ASSERT_EQ(api_->AddCounterByName(context_, "SamplesPassed"), NVPM_OK);
  Begin();
  EXPECT_EQ(api_->BeginExperiment(context_, &passes), NVPM_ERROR_EXPERIMENT_RUNNING);
}

TEST_F(GlNvPmExperiment, PassAndObjectCallsOutsideAnExperimentAreNotInExperiment) {
  EXPECT_EQ(api_->BeginPass(context_, 0), NVPM_ERROR_NOT_IN_EXPERIMENT);
  EXPECT_EQ(api_->EndPass(context_, 0), NVPM_ERROR_NOT_IN_EXPERIMENT);
  EXPECT_EQ(api_->BeginObject(context_, 0), NVPM_ERROR_NOT_IN_EXPERIMENT);
  EXPECT_EQ(api_->EndObject(context_, 0), NVPM_ERROR_NOT_IN_EXPERIMENT);
  EXPECT_EQ(api_->EndExperiment(context_), NVPM_ERROR_NOT_IN_EXPERIMENT);
}

TEST_F(GlNvPmExperiment, BeginPassRefusesAPassBeyondTheCountAndAPassStillOpen) {
  Begin();
  EXPECT_EQ(api_->BeginPass(context_, 1), NVPM_ERROR_INVALID_PASS);
  ASSERT_EQ(api_->BeginPass(context_, 0), NVPM_OK);
  EXPECT_EQ(api_->BeginPass(context_, 0), NVPM_WARNING_PASS_NOT_ENDED);
}

TEST_F(GlNvPmExperiment, ObjectCallsOutsideAPassAreNotInPass) {
  Begin();
  EXPECT_EQ(api_->BeginObject(context_, 0), NVPM_ERROR_NOT_IN_PASS);
  EXPECT_EQ(api_->EndObject(context_, 0), NVPM_ERROR_NOT_IN_PASS);
  EXPECT_EQ(api_->EndPass(context_, 0), NVPM_ERROR_NOT_IN_PASS);
  ASSERT_EQ(api_->BeginPass(context_, 0), NVPM_OK);
  EXPECT_EQ(api_->EndPass(context_, 1), NVPM_ERROR_NOT_IN_PASS);
}

TEST_F(GlNvPmExperiment, BeginObjectRefusesUnreservedObjectsOpenObjectsAndRepeats) {
  Begin();
  ASSERT_EQ(api_->BeginPass(context_, 0), NVPM_OK);
  EXPECT_EQ(api_->BeginObject(context_, 2), NVPM_ERROR_UNKNOWN_OBJECT);
  ASSERT_EQ(api_->BeginObject(context_, 0), NVPM_OK);
  EXPECT_EQ(api_->BeginObject(context_, 1), NVPM_WARNING_OBJECT_NOT_ENDED);
  EXPECT_EQ(api_->EndPass(context_, 0), NVPM_WARNING_OBJECT_NOT_ENDED);
  EXPECT_EQ(api_->EndObject(context_, 1), NVPM_ERROR_UNKNOWN_OBJECT);
  ASSERT_EQ(api_->EndObject(context_, 0), NVPM_OK);
  EXPECT_EQ(api_->BeginObject(context_, 0), NVPM_ERROR_INVALID_OBJECT);  // already measured in this pass
}

TEST_F(GlNvPmExperiment, EndPassBeforeEveryReservedObjectWasMeasuredWarnsAndEndsThePass) {
  Begin();
  ASSERT_EQ(api_->BeginPass(context_, 0), NVPM_OK);
  ASSERT_EQ(api_->BeginObject(context_, 0), NVPM_OK);
  work_.DrawFullScreenTriangle();
  glFinish();
  ASSERT_EQ(api_->EndObject(context_, 0), NVPM_OK);
  EXPECT_EQ(api_->EndPass(context_, 0), NVPM_WARNING_PASS_INCOMPLETE);
  ASSERT_EQ(api_->EndExperiment(context_), NVPM_OK) << LastMessage();
  NVPMUINT64 value = 0, cycles = 0;
  EXPECT_EQ(api_->GetCounterValueByName(context_, "SamplesPassed", 0, &value, &cycles), NVPM_OK);
  EXPECT_EQ(value, NVPMUINT64(kWidth) * kHeight);
  EXPECT_EQ(api_->GetCounterValueByName(context_, "SamplesPassed", 1, &value, &cycles), NVPM_ERROR_INVALID_OBJECT);
}

TEST_F(GlNvPmExperiment, EndExperimentBeforeEveryPassEndedIsIncompleteAndDiscardsIt) {
  Begin();
  ASSERT_EQ(api_->BeginPass(context_, 0), NVPM_OK);
  EXPECT_EQ(api_->EndExperiment(context_), NVPM_ERROR_EXPERIMENT_INCOMPLETE);
  EXPECT_EQ(api_->EndExperiment(context_), NVPM_ERROR_NOT_IN_EXPERIMENT);
  Begin();  // a new experiment can begin
  EXPECT_EQ(api_->EndExperiment(context_), NVPM_ERROR_EXPERIMENT_INCOMPLETE);
}

TEST_F(GlNvPmExperiment, DestroyContextEndsARunningExperiment) {
  Begin();
  ASSERT_EQ(api_->BeginPass(context_, 0), NVPM_OK);
  ASSERT_EQ(api_->BeginObject(context_, 0), NVPM_OK);
  EXPECT_EQ(api_->DestroyContext(context_), NVPM_OK);
  NVPMContext context = 0;
  EXPECT_EQ(api_->CreateContextFromOGLContext(GlHandle(), &context), NVPM_OK) << LastMessage();
}

}  // namespace
}  // namespace opengpa::testing
