// NvPmApi on an offline CUDA context (OpenGpaNvPmCreateContextFromChipName: CUPTI's host API, no GPU): the
// counters a CUDA context offers, their attributes, pass counts, and the refusal to run an experiment.
#include <algorithm>

#include "nvpm_test_fixture.h"

namespace opengpa::testing {
namespace {

class CudaOfflineNvPm : public NvPmTest {
 protected:
  void SetUp() override {
    NvPmTest::SetUp();
    ASSERT_EQ(CreateChipContext("GH100", &context_), NVPM_OK) << LastMessage();
  }
  bool Offers(const char* name) const {
    std::vector<std::string> names = CounterNames(context_);
    return std::find(names.begin(), names.end(), name) != names.end();
  }
  NVPMUINT64 Attribute(const char* name, NVPMATTRIBUTE attribute) const {
    NVPMUINT64 value = 99;
    EXPECT_EQ(api_->GetCounterAttribute(Id(context_, name), attribute, &value), NVPM_OK) << name;
    return value;
  }
  NVPMContext context_ = 0;
};

TEST_F(CudaOfflineNvPm, OffersPerfKitNamesWhoseMeaningCarriesOver) {
  for (const char* name : {"gpu_busy", "gpu_idle", "shader_busy", "sm_inst_executed", "sm_inst_executed_ipc", "SHD SOL",
                           "TEX SOL", "L2 SOL", "FB SOL", "Memory SOL", "GPU Bottleneck"}) {
    EXPECT_TRUE(Offers(name)) << name;
  }
}

TEST_F(CudaOfflineNvPm, OffersEveryGpaCounterUnderItsGpaName) {
  for (const char* name : {"GPUTime", "GPUBusy", "FFMAThreadInstructions", "FetchSize", "SOL_SM", "GPUBottleneck"}) {
    EXPECT_TRUE(Offers(name)) << name;
  }
}

TEST_F(CudaOfflineNvPm, LeavesOutGraphicsUnitsTheDeviceDoesNotHave) {
  for (const char* name : {"IA SOL", "IA Bottleneck", "ZCull SOL", "ROP SOL", "Rasterization SOL",
                           "Primitive Setup SOL", "Stream Out SOL", "Tessellator SOL", "shaded_pixel_count"}) {
    EXPECT_FALSE(Offers(name)) << name;
  }
}

TEST_F(CudaOfflineNvPm, DescribesRatiosSimplifiedExperimentsAndValueTypes) {
  EXPECT_EQ(Attribute("gpu_idle", NVPMA_COUNTER_DISPLAY_HINT), NVPM_CD_RATIO);
  EXPECT_EQ(Attribute("gpu_idle", NVPMA_COUNTER_VALUE_TYPE), NVPM_VALUE_TYPE_UINT64);
  EXPECT_EQ(Attribute("SHD SOL", NVPMA_COUNTER_TYPE), NVPM_CT_SIMEXP);
  EXPECT_EQ(Attribute("SHD SOL", NVPMA_COUNTER_VALUE_TYPE), NVPM_VALUE_TYPE_FLOAT64);
  EXPECT_EQ(Attribute("GPU Bottleneck", NVPMA_COUNTER_TYPE), NVPM_CT_SIMEXP);
  EXPECT_EQ(Attribute("sm_inst_executed", NVPMA_COUNTER_TYPE), NVPM_CT_AGGREGATE);
  EXPECT_EQ(Attribute("FFMAThreadInstructions", NVPMA_COUNTER_DISPLAY_HINT), NVPM_CD_RAW);
}

TEST_F(CudaOfflineNvPm, NamesEveryBottleneckUnitByItsSolCounterId) {
  char name[NVPM_BOTTLENECK_NAME_MAX] = {};
  EXPECT_EQ(api_->GetGPUBottleneckName(context_, Id(context_, "SHD SOL"), name), NVPM_OK);
  EXPECT_STREQ(name, "SHD");
  EXPECT_EQ(api_->GetGPUBottleneckName(context_, Id(context_, "FB SOL"), name), NVPM_OK);
  EXPECT_STREQ(name, "FB");
  EXPECT_EQ(api_->GetGPUBottleneckName(context_, Id(context_, "GPU Bottleneck"), name), NVPM_OK);
  EXPECT_STREQ(name, "none (latency-bound)");
  EXPECT_EQ(api_->GetGPUBottleneckName(context_, Id(context_, "GPUTime"), name), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(api_->GetGPUBottleneckName(context_, 0, nullptr), NVPM_ERROR_INVALID_PARAMETER);
}

TEST_F(CudaOfflineNvPm, CountsPassesThenRefusesToRunWithoutAGpu) {
  ASSERT_EQ(api_->AddCounterByName(context_, "GPU Bottleneck"), NVPM_OK);
  NVPMUINT passes = 0;
  EXPECT_EQ(api_->BeginExperiment(context_, &passes), NVPM_ERROR_CONTEXT_NOT_SUPPORTED);
  EXPECT_GT(passes, 1u);  // the SOL experiments need several passes (docs/sol.md)
  ASSERT_EQ(api_->RemoveAllCounters(context_), NVPM_OK);
  ASSERT_EQ(api_->AddCounterByName(context_, "FFMAThreadInstructions"), NVPM_OK);
  EXPECT_EQ(api_->BeginExperiment(context_, &passes), NVPM_ERROR_CONTEXT_NOT_SUPPORTED);
  EXPECT_EQ(passes, 1u);
  EXPECT_EQ(api_->EndExperiment(context_), NVPM_ERROR_NOT_IN_EXPERIMENT);
}

TEST_F(CudaOfflineNvPm, RefusesAnUnknownChip) {
  NVPMContext context = 0;
  EXPECT_EQ(CreateChipContext("NOT_A_CHIP", &context), NVPM_ERROR_CONTEXT_NOT_SUPPORTED);
  EXPECT_EQ(CreateChipContext("", &context), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(CreateChipContext(nullptr, &context), NVPM_ERROR_INVALID_PARAMETER);
}

TEST_F(CudaOfflineNvPm, RefusesANullCudaContext) {
  NVPMContext context = 0;
  EXPECT_EQ(api_->CreateContextFromCudaContext(0, &context), NVPM_ERROR_INVALID_PARAMETER);
}

}  // namespace
}  // namespace opengpa::testing
