// What GpaOpenContext accepts for CUDA: a GpaCudaContextOpenInfo, never a bare CUcontext.
#include "backends/cuda/cuda_open_info.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "platform/logging.h"

namespace opengpa::cuda {
namespace {

using ::testing::HasSubstr;

std::string g_last_error;
void CaptureError(GpaLoggingType /*type*/, const char* message) { g_last_error = message; }

class CudaOpenInfoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_last_error.clear();
    SetLoggingCallback(kGpaLoggingError, &CaptureError);
  }
  void TearDown() override { SetLoggingCallback(kGpaLoggingNone, nullptr); }
};

TEST_F(CudaOpenInfoTest, AnOfflineChipIsRead) {
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.chip_name = "GH100";
  OpenRequest request;
  ASSERT_EQ(ReadOpenInfo(&info, &request), kGpaStatusOk);
  EXPECT_EQ(request.context, nullptr);
  EXPECT_EQ(request.chip_name, "GH100");
  EXPECT_EQ(request.max_samples_per_pass, GPA_CUDA_DEFAULT_MAX_SAMPLES_PER_PASS);
}

TEST_F(CudaOpenInfoTest, AContextAndASampleCapacityAreRead) {
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.context = reinterpret_cast<CUcontext>(0x1234);
  info.max_samples_per_pass = 100;
  OpenRequest request;
  ASSERT_EQ(ReadOpenInfo(&info, &request), kGpaStatusOk);
  EXPECT_EQ(request.context, reinterpret_cast<CUcontext>(0x1234));
  EXPECT_EQ(request.max_samples_per_pass, 100u);
}

TEST_F(CudaOpenInfoTest, SomethingOtherThanTheOpenInfoIsRefusedWithAHint) {
  struct NotOpenInfo {
    GpaUInt32 words[16] = {};
  } other;
  OpenRequest request;
  EXPECT_EQ(ReadOpenInfo(&other, &request), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(g_last_error, HasSubstr("not a GpaCudaContextOpenInfo"));
  EXPECT_THAT(g_last_error, HasSubstr("not the CUcontext"));
}

TEST_F(CudaOpenInfoTest, AStructSizeSmallerThanTheStructIsRefused) {
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  info.chip_name = "GH100";
  info.struct_size = 8;
  OpenRequest request;
  EXPECT_EQ(ReadOpenInfo(&info, &request), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(g_last_error, HasSubstr("struct_size 8"));
}

TEST_F(CudaOpenInfoTest, NeitherContextNorChipIsRefused) {
  GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
  OpenRequest request;
  EXPECT_EQ(ReadOpenInfo(&info, &request), kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(g_last_error, HasSubstr("neither a context nor a chip_name"));
  info.chip_name = "";
  EXPECT_EQ(ReadOpenInfo(&info, &request), kGpaStatusErrorInvalidParameter);
}

}  // namespace
}  // namespace opengpa::cuda
