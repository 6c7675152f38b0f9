// AddCounter*, RemoveCounter*: every documented result, on llvmpipe.
#include "gl_nvpm_fixture.h"

namespace opengpa::testing {
namespace {

using GlNvPmCounters = GlNvPm;

TEST_F(GlNvPmCounters, AddCounterByNameRefusesUnknownNamesNullAndDuplicates) {
  EXPECT_EQ(api_->AddCounterByName(context_, "no such counter"), NVPM_ERROR_INVALID_COUNTER);
  EXPECT_EQ(api_->AddCounterByName(context_, nullptr), NVPM_ERROR_INVALID_PARAMETER);
  ASSERT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_OK);
  EXPECT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_WARNING_DUPLICATE);
}

TEST_F(GlNvPmCounters, AddCounterRefusesAnIdOfNoCounterOfTheContext) {
  EXPECT_EQ(api_->AddCounter(context_, 999999), NVPM_ERROR_INVALID_COUNTER);
  EXPECT_EQ(api_->AddCounter(context_, 0), NVPM_ERROR_INVALID_COUNTER);
  EXPECT_EQ(api_->AddCounter(context_, Id(context_, "SamplesPassed")), NVPM_OK);
}

TEST_F(GlNvPmCounters, AddCountersAddsAllOrNone) {
  NVPMCounterID ids[] = {Id(context_, "GPUTime"), 999999};
  EXPECT_EQ(api_->AddCounters(context_, 2, ids), NVPM_ERROR_INVALID_COUNTER);
  EXPECT_EQ(api_->RemoveAllCounters(context_), NVPM_WARNING_NO_COUNTERS);  // none was added
  EXPECT_EQ(api_->AddCounters(context_, 1, nullptr), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(api_->AddCounters(context_, 1, ids), NVPM_OK);
  EXPECT_EQ(api_->RemoveCounter(context_, ids[0]), NVPM_OK);
}

TEST_F(GlNvPmCounters, RemoveCounterOfACounterNotAddedIsAWarningAndChangesNothing) {
  ASSERT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_OK);
  EXPECT_EQ(api_->RemoveCounterByName(context_, "SamplesPassed"), NVPM_WARNING_COUNTER_NOT_ENABLED);
  EXPECT_EQ(api_->RemoveCounter(context_, Id(context_, "SamplesPassed")), NVPM_WARNING_COUNTER_NOT_ENABLED);
  EXPECT_EQ(api_->RemoveCounterByName(context_, "GPUTime"), NVPM_OK);
  EXPECT_EQ(api_->RemoveCounterByName(context_, "GPUTime"), NVPM_WARNING_COUNTER_NOT_ENABLED);
}

TEST_F(GlNvPmCounters, RemoveCounterRefusesUnknownCountersAndNull) {
  EXPECT_EQ(api_->RemoveCounterByName(context_, "no such counter"), NVPM_ERROR_INVALID_COUNTER);
  EXPECT_EQ(api_->RemoveCounterByName(context_, nullptr), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(api_->RemoveCounter(context_, 999999), NVPM_ERROR_INVALID_COUNTER);
}

TEST_F(GlNvPmCounters, RemoveCountersRemovesTheAddedAndWarnsOfTheOthers) {
  NVPMCounterID ids[] = {Id(context_, "GPUTime"), Id(context_, "SamplesPassed")};
  ASSERT_EQ(api_->AddCounter(context_, ids[0]), NVPM_OK);
  EXPECT_EQ(api_->RemoveCounters(context_, 2, ids), NVPM_WARNING_COUNTER_NOT_ENABLED);
  EXPECT_EQ(api_->RemoveAllCounters(context_), NVPM_WARNING_NO_COUNTERS);
  NVPMCounterID unknown[] = {999999};
  EXPECT_EQ(api_->RemoveCounters(context_, 1, unknown), NVPM_ERROR_INVALID_COUNTER);
  EXPECT_EQ(api_->RemoveCounters(context_, 1, nullptr), NVPM_ERROR_INVALID_PARAMETER);
}

TEST_F(GlNvPmCounters, RemoveAllCountersWithNoneAddedIsAWarning) {
  EXPECT_EQ(api_->RemoveAllCounters(context_), NVPM_WARNING_NO_COUNTERS);
  ASSERT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_OK);
  EXPECT_EQ(api_->RemoveAllCounters(context_), NVPM_OK);
}

TEST_F(GlNvPmCounters, CountersCannotChangeWhileAnExperimentRuns) {
  ASSERT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_OK);
  NVPMUINT passes = 0;
  ASSERT_EQ(api_->BeginExperiment(context_, &passes), NVPM_OK);
  NVPMCounterID ids[] = {Id(context_, "SamplesPassed")};
  EXPECT_EQ(api_->AddCounterByName(context_, "SamplesPassed"), NVPM_ERROR_EXPERIMENT_RUNNING);
  EXPECT_EQ(api_->AddCounter(context_, ids[0]), NVPM_ERROR_EXPERIMENT_RUNNING);
  EXPECT_EQ(api_->AddCounters(context_, 1, ids), NVPM_ERROR_EXPERIMENT_RUNNING);
  EXPECT_EQ(api_->RemoveCounterByName(context_, "GPUTime"), NVPM_ERROR_EXPERIMENT_RUNNING);
  EXPECT_EQ(api_->RemoveCounters(context_, 1, ids), NVPM_ERROR_EXPERIMENT_RUNNING);
  EXPECT_EQ(api_->RemoveAllCounters(context_), NVPM_ERROR_EXPERIMENT_RUNNING);
}

}  // namespace
}  // namespace opengpa::testing
