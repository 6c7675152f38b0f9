// GPA_GetStatusAsStr, GPA_GetDataTypeAsStr, GPA_GetUsageTypeAsStr, and the library's v2 exports.

#include <memory>
#include <string>

#include <climits>

#include "gpu_performance_api/v2/GPUPerfAPIFunctionTypes.h"
#include "platform/dynamic_library.h"
#include "tests/gpa2/c_enum_callers.h"
#include "tests/gpa2/gpa2_test_fixture.h"

namespace opengpa::gpa2test {
namespace {

using ::testing::HasSubstr;

TEST_F(Gpa2Test, GetStatusAsStrNamesEveryStatusAndUnknownValuesAsUnknownError) {
  EXPECT_STREQ(GPA_GetStatusAsStr(GPA_STATUS_OK), "Ok");
  EXPECT_STREQ(GPA_GetStatusAsStr(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN), "Counters Not Open");
  EXPECT_STREQ(GPA_GetStatusAsStr(GPA_STATUS_ERROR_SESSION_NOT_FOUND), "Session Not Found");
  EXPECT_STREQ(GPA_GetStatusAsStr(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED), "Hardware Not Supported");
  for (int status = GPA_STATUS_OK; status <= GPA_STATUS_ERROR_LIB_LOAD_VERION_MISMATCH; ++status) {
    EXPECT_STRNE(GPA_GetStatusAsStr(static_cast<GPA_Status>(status)), "Unknown Error") << status;
  }
  // Values outside the enum come from C (c_enum_callers.c): forming them in C++ would be undefined.
  for (int unknown : {-5, GPA_STATUS_ERROR_LIB_LOAD_VERION_MISMATCH + 1, 1000, INT_MIN, INT_MAX}) {
    EXPECT_STREQ(CallGpa2GetStatusAsStr(unknown), "Unknown Error") << unknown;
  }
}

TEST_F(Gpa2Test, StatusValuesAreThoseOfAmdsLastV2Release) {
  EXPECT_EQ(GPA_STATUS_ERROR_NULL_POINTER, 1);
  EXPECT_EQ(GPA_STATUS_ERROR_SESSION_NOT_FOUND, 20);
  EXPECT_EQ(GPA_STATUS_ERROR_FAILED, 26);
  EXPECT_EQ(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED, 27);
  EXPECT_EQ(GPA_TYPE_UINT64, 3);
  EXPECT_EQ(GPA_USAGE_TYPE_KILOBYTES, 6);
}

TEST_F(Gpa2Test, GetDataTypeAsStrNamesEachType) {
  const char* text = nullptr;
  ASSERT_EQ(GPA_GetDataTypeAsStr(GPA_TYPE_FLOAT64, &text), GPA_STATUS_OK);
  EXPECT_STREQ(text, "gpa_float64");
  ASSERT_EQ(GPA_GetDataTypeAsStr(GPA_TYPE_UINT64, &text), GPA_STATUS_OK);
  EXPECT_STREQ(text, "gpa_uint64");
  ASSERT_EQ(GPA_GetDataTypeAsStr(GPA_TYPE_INT32, &text), GPA_STATUS_OK);
  EXPECT_STREQ(text, "gpa_int32");
}

TEST_F(Gpa2Test, GetDataTypeAsStrOfAnInvalidTypeIsNotFound) {
  const char* text = nullptr;
  EXPECT_EQ(GPA_GetDataTypeAsStr(GPA_TYPE__LAST, &text), GPA_STATUS_ERROR_NOT_FOUND);
  for (int bad : {-1, 7, 1000, INT_MIN, INT_MAX}) {
    text = nullptr;
    EXPECT_EQ(CallGpa2GetDataTypeAsStr(bad, &text), GPA_STATUS_ERROR_NOT_FOUND) << bad;
    EXPECT_EQ(text, nullptr);
    EXPECT_THAT(V2Log::LastError(), HasSubstr("counterDataType")) << bad;
  }
}

TEST_F(Gpa2Test, GetDataTypeAsStrWithNullOutputIsNullPointer) {
  EXPECT_EQ(GPA_GetDataTypeAsStr(GPA_TYPE_UINT64, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Gpa2Test, GetUsageTypeAsStrNamesEachUsage) {
  const char* text = nullptr;
  ASSERT_EQ(GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE_PERCENTAGE, &text), GPA_STATUS_OK);
  EXPECT_STREQ(text, "percentage");
  ASSERT_EQ(GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE_MILLISECONDS, &text), GPA_STATUS_OK);
  EXPECT_STREQ(text, "milliseconds");
}

TEST_F(Gpa2Test, GetUsageTypeAsStrOfAnInvalidUsageIsNotFound) {
  const char* text = nullptr;
  EXPECT_EQ(GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE__LAST, &text), GPA_STATUS_ERROR_NOT_FOUND);
  for (int bad : {-1, 8, 1000, INT_MIN, INT_MAX}) {
    text = nullptr;
    EXPECT_EQ(CallGpa2GetUsageTypeAsStr(bad, &text), GPA_STATUS_ERROR_NOT_FOUND) << bad;
    EXPECT_EQ(text, nullptr);
    EXPECT_THAT(V2Log::LastError(), HasSubstr("counterUsageType")) << bad;
  }
}

TEST_F(Gpa2Test, GetUsageTypeAsStrWithNullOutputIsNullPointer) {
  EXPECT_EQ(GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE_RATIO, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

// A v2 client that loads the library with dlopen finds every v2 name beside the v3 ones.
TEST(Gpa2Exports, TheLibraryExportsEveryV2FunctionBesideTheV3Table) {
  std::string error;
  std::unique_ptr<DynamicLibrary> library = DynamicLibrary::Open({OPENGPA_TEST_LIBRARY}, &error);
  ASSERT_NE(library, nullptr) << error;
  for (const char* name : {"GPA_RegisterLoggingCallback",
                           "GPA_Initialize",
                           "GPA_Destroy",
                           "GPA_OpenContext",
                           "GPA_CloseContext",
                           "GPA_SelectContext",
                           "GPA_GetNumCounters",
                           "GPA_GetCounterName",
                           "GPA_GetCounterDescription",
                           "GPA_GetCounterDataType",
                           "GPA_GetCounterUsageType",
                           "GPA_GetCounterIndex",
                           "GPA_GetDataTypeAsStr",
                           "GPA_GetUsageTypeAsStr",
                           "GPA_EnableCounter",
                           "GPA_DisableCounter",
                           "GPA_GetEnabledCount",
                           "GPA_GetEnabledIndex",
                           "GPA_IsCounterEnabled",
                           "GPA_EnableCounterStr",
                           "GPA_DisableCounterStr",
                           "GPA_EnableAllCounters",
                           "GPA_DisableAllCounters",
                           "GPA_GetPassCount",
                           "GPA_BeginSession",
                           "GPA_EndSession",
                           "GPA_BeginPass",
                           "GPA_EndPass",
                           "GPA_BeginSample",
                           "GPA_EndSample",
                           "GPA_GetSampleCount",
                           "GPA_IsSampleReady",
                           "GPA_IsSessionReady",
                           "GPA_GetSampleUInt64",
                           "GPA_GetSampleUInt32",
                           "GPA_GetSampleFloat64",
                           "GPA_GetSampleFloat32",
                           "GPA_GetStatusAsStr",
                           "OpenGpa2BeginPassOnCommandList",
                           "GpaGetFuncTable"}) {
    EXPECT_NE(library->Symbol(name), nullptr) << name;
  }
  auto status_as_str = library->Get<GPA_GetStatusAsStrPtrType>("GPA_GetStatusAsStr");
  ASSERT_NE(status_as_str, nullptr);
  EXPECT_STREQ(status_as_str(GPA_STATUS_ERROR_NOT_FOUND), "Not Found");
}

}  // namespace
}  // namespace opengpa::gpa2test
