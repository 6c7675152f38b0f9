// A v2 client of libGPUPerfAPICUDA.so without a GPU: GPA_OpenContext takes the GpaCudaContextOpenInfo* of the
// v3 library (an OpenGPA extension to v2); with a chip name it opens an offline context that lists the chip's
// counters and counts passes through CUPTI's host API. v2 sees the counters and pass counts a v3 client sees.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"
#include "gpu_performance_api/v2/GPUPerfAPI.h"

namespace opengpa::gpa2test {
namespace {

class CudaGpa2Test : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
    v2_info_.chip_name = "GH100";
    v3_info_.chip_name = "GH100";
  }
  void TearDown() override { GPA_Destroy(); }

  // Passes of `names` through v3 (a session on a v3 context of the same chip) and through v2.
  void ComparePassCounts(GpaContextId v3_context, const std::vector<const char*>& names) {
    GpaSessionId session = nullptr;
    ASSERT_EQ(GpaCreateSession(v3_context, kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk);
    ASSERT_EQ(GPA_DisableAllCounters(), GPA_STATUS_OK);
    for (const char* name : names) {
      ASSERT_EQ(GpaEnableCounterByName(session, name), kGpaStatusOk) << name;
      ASSERT_EQ(GPA_EnableCounterStr(name), GPA_STATUS_OK) << name;
    }
    GpaUInt32 v3_passes = 0;
    gpa_uint32 v2_passes = 0;
    const GpaStatus v3_status = GpaGetPassCount(session, &v3_passes);
    const GPA_Status v2_status = GPA_GetPassCount(&v2_passes);
    if (v3_status == kGpaStatusOk) {
      EXPECT_EQ(v2_status, GPA_STATUS_OK);
      EXPECT_EQ(v2_passes, v3_passes) << names.size() << " counters from " << names.front();
    } else {
      EXPECT_EQ(v3_status, kGpaStatusErrorHardwareNotSupported);  // CUPTI cannot collect them together
      EXPECT_EQ(v2_status, GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    }
    GpaDeleteSession(session);
  }

  GpaCudaContextOpenInfo v2_info_ = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  GpaCudaContextOpenInfo v3_info_ = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
};

TEST_F(CudaGpa2Test, AnOfflineContextListsTheCountersOfTheV3ContextOfTheSameChip) {
  ASSERT_EQ(GPA_OpenContext(&v2_info_), GPA_STATUS_OK);
  GpaContextId v3_context = nullptr;
  ASSERT_EQ(GpaOpenContext(&v3_info_, kGpaOpenContextDefaultBit, &v3_context), kGpaStatusOk);
  GpaUInt32 v3_count = 0;
  gpa_uint32 v2_count = 0;
  ASSERT_EQ(GpaGetNumCounters(v3_context, &v3_count), kGpaStatusOk);
  ASSERT_EQ(GPA_GetNumCounters(&v2_count), GPA_STATUS_OK);
  ASSERT_EQ(v2_count, v3_count);
  EXPECT_GT(v2_count, 50u);  // catalogs/cuda.json and cuda_sol.json on GH100
  for (gpa_uint32 i = 0; i < v2_count; ++i) {
    const char* v2_name = nullptr;
    const char* v3_name = nullptr;
    GpaUsageType v3_usage;
    GPA_Usage_Type v2_usage;
    ASSERT_EQ(GPA_GetCounterName(i, &v2_name), GPA_STATUS_OK);
    ASSERT_EQ(GpaGetCounterName(v3_context, i, &v3_name), kGpaStatusOk);
    EXPECT_STREQ(v2_name, v3_name);  // the CUDA catalogs already use v2 names where v2 has one
    ASSERT_EQ(GPA_GetCounterUsageType(i, &v2_usage), GPA_STATUS_OK);
    ASSERT_EQ(GpaGetCounterUsageType(v3_context, i, &v3_usage), kGpaStatusOk);
    const std::map<GpaUsageType, GPA_Usage_Type> expected = {{kGpaUsageTypeNanoseconds, GPA_USAGE_TYPE_MILLISECONDS},
                                                             {kGpaUsageTypePercentage, GPA_USAGE_TYPE_PERCENTAGE},
                                                             {kGpaUsageTypeBytes, GPA_USAGE_TYPE_BYTES},
                                                             {kGpaUsageTypeKilobytes, GPA_USAGE_TYPE_KILOBYTES},
                                                             {kGpaUsageTypeItems, GPA_USAGE_TYPE_ITEMS},
                                                             {kGpaUsageTypeCycles, GPA_USAGE_TYPE_CYCLES},
                                                             {kGpaUsageTypeRatio, GPA_USAGE_TYPE_RATIO}};
    ASSERT_EQ(expected.count(v3_usage), 1u) << v2_name;
    EXPECT_EQ(v2_usage, expected.at(v3_usage)) << v2_name;
  }
  EXPECT_EQ(GpaCloseContext(v3_context), kGpaStatusOk);
}

TEST_F(CudaGpa2Test, PassCountsAreThoseOfTheV3Path) {
  ASSERT_EQ(GPA_OpenContext(&v2_info_), GPA_STATUS_OK);
  GpaContextId v3_context = nullptr;
  ASSERT_EQ(GpaOpenContext(&v3_info_, kGpaOpenContextDefaultBit, &v3_context), kGpaStatusOk);
  ComparePassCounts(v3_context, {"GPUTime"});
  ComparePassCounts(v3_context, {"FetchSize", "WriteSize", "L2CacheHit", "Wavefronts"});
  ComparePassCounts(v3_context, {"GPUBusy", "SMBusy", "IPC", "AchievedOccupancy", "DRAMThroughput", "L2Throughput"});
  ComparePassCounts(v3_context, {"PcieBytes", "FetchSize"});  // not collectable together
  EXPECT_EQ(GpaCloseContext(v3_context), kGpaStatusOk);
}

TEST_F(CudaGpa2Test, SamplingAnOfflineContextFailsAtBeginSession) {
  ASSERT_EQ(GPA_OpenContext(&v2_info_), GPA_STATUS_OK);
  ASSERT_EQ(GPA_EnableCounterStr("GPUTime"), GPA_STATUS_OK);
  gpa_uint32 session = 0;
  EXPECT_EQ(GPA_BeginSession(&session), GPA_STATUS_ERROR_FAILED);  // no GPU: logged by the library
  EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_SAMPLING_NOT_STARTED);
}

TEST_F(CudaGpa2Test, AChipCuptiDoesNotKnowIsHardwareNotSupported) {
  v2_info_.chip_name = "GZ999";
  EXPECT_EQ(GPA_OpenContext(&v2_info_), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
}

TEST_F(CudaGpa2Test, SomethingOtherThanTheOpenInfoFails) {
  gpa_uint64 not_open_info[8] = {};
  EXPECT_EQ(GPA_OpenContext(not_open_info), GPA_STATUS_ERROR_FAILED);
}

}  // namespace
}  // namespace opengpa::gpa2test
