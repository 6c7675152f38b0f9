// Offline CUDA contexts through the exported entry points: a chip name and no GPU lists counters and
// counts passes; collecting samples is refused with the documented status.
#include <cstring>

#include "platform/dynamic_library.h"
#include "tests/cuda/cuda_test_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

class CudaOfflineContextTest : public CudaApiTest {};

TEST_F(CudaOfflineContextTest, TheDeviceIsTheNamedChipAndAnNvidiaGeneration) {
  GpaContextId context = OpenOffline("GH100");
  const char* name = nullptr;
  ASSERT_EQ(GpaGetDeviceName(context, &name), kGpaStatusOk);
  EXPECT_STREQ(name, "NVIDIA GH100 (offline)");
  GpaHwGeneration generation = kGpaHwGenerationNone;
  ASSERT_EQ(GpaGetDeviceGeneration(context, &generation), kGpaStatusOk);
  EXPECT_EQ(generation, kGpaHwGenerationNvidia);
  GpaContextSampleTypeFlags types = 0;
  ASSERT_EQ(GpaGetSupportedSampleTypes(context, &types), kGpaStatusOk);
  EXPECT_EQ(types,
            kGpaContextSampleTypeDiscreteCounter | kGpaContextSampleTypeStreamingCounter);  // GH100 has PM sampling
  EXPECT_EQ(GpaCloseContext(context), kGpaStatusOk);
}

TEST_F(CudaOfflineContextTest, SomethingOtherThanTheOpenInfoIsRefusedWithAHint) {
  GpaUInt64 not_open_info[8] = {};
  GpaContextId context = nullptr;
  EXPECT_EQ(GpaOpenContext(not_open_info, kGpaOpenContextDefaultBit, &context), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(CudaErrorLog::Errors(), HasSubstr("GpaCudaContextOpenInfo"));
}

TEST_F(CudaOfflineContextTest, AChipCuptiDoesNotKnowIsHardwareNotSupported) {
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.chip_name = "GZ999";
  GpaContextId context = nullptr;
  EXPECT_EQ(GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context), kGpaStatusErrorHardwareNotSupported);
  EXPECT_THAT(CudaErrorLog::Errors(), HasSubstr("GZ999"));
}

TEST_F(CudaOfflineContextTest, BeginSessionIsHardwareNotSupportedAndSaysTheContextIsOffline) {
  GpaContextId context = OpenOffline("GH100");
  GpaSessionId session = nullptr;
  ASSERT_EQ(GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk);
  ASSERT_EQ(GpaEnableCounterByName(session, "GPUTime"), kGpaStatusOk);
  EXPECT_EQ(GpaBeginSession(session), kGpaStatusErrorHardwareNotSupported);
  EXPECT_THAT(CudaErrorLog::Errors(), HasSubstr("offline"));
}

TEST_F(CudaOfflineContextTest, RawMetricsAreCountersOnlyWithTheHardwareCountersBit) {
  GpaContextId plain = OpenOffline("GH100");
  GpaUInt32 index = 0;
  EXPECT_EQ(GpaGetCounterIndex(plain, "dram__bytes_read.sum", &index), kGpaStatusErrorCounterNotFound);
  GpaUInt32 derived = 0;
  ASSERT_EQ(GpaGetNumCounters(plain, &derived), kGpaStatusOk);
  GpaCloseContext(plain);

  GpaContextId context = OpenOffline("GH100", kGpaOpenContextEnableHardwareCountersBit);
  GpaUInt32 all = 0;
  ASSERT_EQ(GpaGetNumCounters(context, &all), kGpaStatusOk);
  EXPECT_GT(all - derived, 10000u) << "every CUPTI base metric with its rollups";
  ASSERT_EQ(GpaGetCounterIndex(context, "dram__bytes_read.sum", &index), kGpaStatusOk);
  const char* group = nullptr;
  const char* description = nullptr;
  GpaUsageType usage = kGpaUsageTypeLast;
  GpaDataType type = kGpaDataTypeLast;
  ASSERT_EQ(GpaGetCounterGroup(context, index, &group), kGpaStatusOk);
  ASSERT_EQ(GpaGetCounterDescription(context, index, &description), kGpaStatusOk);
  ASSERT_EQ(GpaGetCounterUsageType(context, index, &usage), kGpaStatusOk);
  ASSERT_EQ(GpaGetCounterDataType(context, index, &type), kGpaStatusOk);
  EXPECT_STREQ(group, "dram");
  EXPECT_THAT(description, HasSubstr("bytes read from DRAM"));
  EXPECT_EQ(usage, kGpaUsageTypeBytes);
  EXPECT_EQ(type, kGpaDataTypeUint64);
  // A raw metric is collected like any counter.
  EXPECT_EQ(PassCount(context, {"dram__bytes_read.sum", "lts__t_sectors.sum"}), 1u);
}

TEST_F(CudaOfflineContextTest, CountersCuptiCannotCollectTogetherFailThePassCountNamingTheMetric) {
  GpaContextId context = OpenOffline("GH100");
  GpaStatus status = kGpaStatusOk;
  EXPECT_EQ(PassCount(context, {"PcieBytes", "FetchSize"}, &status), 0u);
  EXPECT_EQ(status, kGpaStatusErrorHardwareNotSupported);
  EXPECT_THAT(CudaErrorLog::Errors(), HasSubstr("pcie__"));
  // GPUTime counts SM active cycles, which CUPTI will not collect with PCIe either; the range's duration it will.
  EXPECT_EQ(PassCount(context, {"PcieBytes", "ExecutionDuration"}), 1u);
  CudaErrorLog::Clear();
  EXPECT_EQ(PassCount(context, {"PcieBytes", "GPUTime"}, &status), 0u);
  EXPECT_EQ(status, kGpaStatusErrorHardwareNotSupported);
}

TEST_F(CudaOfflineContextTest, ALiveContextWithoutACudaDriverIsDriverNotSupported) {
  std::string absent;
  if (DynamicLibrary::OpenIfLoaded("libcuda.so.1") != nullptr ||
      DynamicLibrary::Open({"libcuda.so.1"}, &absent) != nullptr) {
    GTEST_SKIP() << "a CUDA driver is installed here; tests/device/cuda covers live contexts";
  }
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.context = reinterpret_cast<CUcontext>(&info);  // never dereferenced: the driver is missing
  GpaContextId context = nullptr;
  EXPECT_EQ(GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context), kGpaStatusErrorDriverNotSupported);
  EXPECT_THAT(CudaErrorLog::Errors(), HasSubstr("libcuda.so.1"));
}

}  // namespace
}  // namespace opengpa::testing
