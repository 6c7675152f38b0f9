// What GPA's own public-API tests check of every GPA library (the error tests of GPA v3's unit tests, written
// here again for OpenGPA): each library is loaded through the interface loader, given no device, and called
// with null and unknown arguments. Every log message ends with '.'; an unknown id is its *NotFound status
// whatever the other arguments, where GPA looks the id up first; the APIs without command lists refuse
// GpaContinueSampleOnCommandList and GpaCopySecondarySamples outright; unknown statuses read as GPA's.
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "gpu_performance_api/opengpa_ext.h"
#include "tests/core/c_table_callers.h"

GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

namespace {

struct Library {
  const char* name;
  const char* path;
  GpaApiType api;
  bool has_command_lists;
};

std::vector<Library> Libraries() {
  std::vector<Library> libraries{{"Test", OPENGPA_TEST_LIBRARY, kGpaApiVulkan, true}};
#ifdef OPENGPA_VK_LIBRARY
  libraries.push_back({"Vulkan", OPENGPA_VK_LIBRARY, kGpaApiVulkan, true});
#endif
#ifdef OPENGPA_GL_LIBRARY
  libraries.push_back({"OpenGL", OPENGPA_GL_LIBRARY, kGpaApiOpengl, false});
#endif
#ifdef OPENGPA_CL_LIBRARY
  libraries.push_back({"OpenCL", OPENGPA_CL_LIBRARY, kGpaApiOpencl, false});
#endif
#ifdef OPENGPA_CUDA_LIBRARY
  libraries.push_back({"CUDA", OPENGPA_CUDA_LIBRARY, kGpaApiCuda, false});
#endif
  return libraries;
}

// Every message the library logs, checked to be a sentence.
std::mutex log_mutex;
std::vector<std::string> unterminated;
int messages = 0;

void CheckMessage(GpaLoggingType, const char* message) {
  std::lock_guard<std::mutex> lock(log_mutex);
  ++messages;
  const std::string text = message != nullptr ? message : "";
  if (text.empty() || text.back() != '.') unterminated.push_back(text);
}

class PublicApiTest : public ::testing::TestWithParam<Library> {
 protected:
  void SetUp() override {
    ASSERT_EQ(GpaApiManager::Instance()->LoadApi(GetParam().api, GetParam().path), kGpaStatusOk)
        << GpaApiManager::Instance()->GetLastError();
    gpa_ = GpaApiManager::Instance()->GetFunctionTable(GetParam().api);
    ASSERT_NE(gpa_, nullptr);
    unterminated.clear();
    messages = 0;
    ASSERT_EQ(gpa_->GpaRegisterLoggingCallback(kGpaLoggingAll, CheckMessage), kGpaStatusOk);
  }
  void TearDown() override {
    if (gpa_ != nullptr) {
      gpa_->GpaDestroy();  // whatever the test left initialized
      gpa_->GpaRegisterLoggingCallback(kGpaLoggingNone, nullptr);
    }
    for (const std::string& message : unterminated) ADD_FAILURE() << "a log message does not end with '.': " << message;
    GpaApiManager::Instance()->UnloadApi(GetParam().api);
  }
  // The status a command-list call returns on an API without command lists, else `with_lists`.
  GpaStatus ListStatus(GpaStatus with_lists) const {
    return GetParam().has_command_lists ? with_lists : kGpaStatusErrorApiNotSupported;
  }

  const GpaFunctionTable* gpa_ = nullptr;
  const GpaContextId bad_context_ = reinterpret_cast<GpaContextId>(0xBADF00D);
  const GpaSessionId bad_session_ = reinterpret_cast<GpaSessionId>(0xBADF00D);
  const GpaCommandListId bad_list_ = reinterpret_cast<GpaCommandListId>(0xBADF00D);
  const GpaCommandListId bad_secondary_ = reinterpret_cast<GpaCommandListId>(0xBA4F00D);
};

TEST_P(PublicApiTest, LoggingNeedsACallbackUnlessItIsTurnedOff) {
  EXPECT_EQ(gpa_->GpaRegisterLoggingCallback(kGpaLoggingError, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaRegisterLoggingCallback(kGpaLoggingNone, nullptr), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaRegisterLoggingCallback(kGpaLoggingAll, CheckMessage), kGpaStatusOk);
}

TEST_P(PublicApiTest, InitializeAndDestroyPairUp) {
  EXPECT_EQ(gpa_->GpaDestroy(), kGpaStatusErrorGpaNotInitialized);
  EXPECT_EQ(gpa_->GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusErrorGpaAlreadyInitialized);
  EXPECT_EQ(gpa_->GpaDestroy(), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaDestroy(), kGpaStatusErrorGpaNotInitialized);
  EXPECT_EQ(gpa_->GpaInitialize(kGpaInitializeSimultaneousQueuesEnableBit), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaDestroy(), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaInitialize(0xBADF00D), kGpaStatusErrorInvalidParameter);
  EXPECT_GT(messages, 0) << "the errors were logged";
}

TEST_P(PublicApiTest, OpenAndCloseRejectNullAndUnknownContexts) {
  ASSERT_EQ(gpa_->GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaCloseContext(nullptr), kGpaStatusErrorNullPointer);
  GpaContextId context = nullptr;
  EXPECT_EQ(gpa_->GpaOpenContext(nullptr, kGpaOpenContextDefaultBit, &context), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaCloseContext(bad_context_), kGpaStatusErrorContextNotFound);
}

TEST_P(PublicApiTest, ContextQueriesCheckTheirOutputsBeforeTheContext) {
  GpaContextSampleTypeFlags types = 0;
  GpaUInt32 device_id = 0, revision_id = 0;
  const char* name = nullptr;
  GpaHwGeneration generation = kGpaHwGenerationNone;
  EXPECT_EQ(gpa_->GpaGetSupportedSampleTypes(nullptr, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetSupportedSampleTypes(nullptr, &types), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetSupportedSampleTypes(bad_context_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetSupportedSampleTypes(bad_context_, &types), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(gpa_->GpaGetDeviceAndRevisionId(nullptr, &device_id, &revision_id), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceAndRevisionId(bad_context_, &device_id, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceAndRevisionId(bad_context_, nullptr, &revision_id), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceAndRevisionId(bad_context_, &device_id, &revision_id), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(gpa_->GpaGetDeviceName(nullptr, &name), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceName(bad_context_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceName(bad_context_, &name), kGpaStatusErrorContextNotFound);
  EXPECT_EQ(gpa_->GpaGetDeviceGeneration(nullptr, &generation), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceGeneration(bad_context_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDeviceGeneration(bad_context_, &generation), kGpaStatusErrorContextNotFound);
}

TEST_P(PublicApiTest, CounterQueriesCheckTheirOutputsBeforeTheContextAndTheIndexAfterIt) {
  const GpaUInt32 indices[] = {0, static_cast<GpaUInt32>(-1)};
  GpaUInt32 count = 0, index = 0;
  EXPECT_EQ(gpa_->GpaGetNumCounters(nullptr, &count), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetNumCounters(bad_context_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetNumCounters(bad_context_, &count), kGpaStatusErrorContextNotFound);
  for (const char* counter : {"GPUTime", "Wavefronts"}) {
    EXPECT_EQ(gpa_->GpaGetCounterIndex(nullptr, counter, &index), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetCounterIndex(bad_context_, counter, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetCounterIndex(bad_context_, counter, &index), kGpaStatusErrorContextNotFound);
  }
  EXPECT_EQ(gpa_->GpaGetCounterIndex(bad_context_, nullptr, &index), kGpaStatusErrorNullPointer);
  for (GpaUInt32 i : indices) {
    const char* text = nullptr;
    GpaDataType type = kGpaDataTypeLast;
    GpaUsageType usage = kGpaUsageTypeLast;
    GpaUuid uuid{};
    GpaCounterSampleType sample_type = kGpaCounterSampleTypeDiscrete;
    EXPECT_EQ(gpa_->GpaGetCounterName(nullptr, i, &text), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetCounterName(bad_context_, i, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetCounterName(bad_context_, i, &text), kGpaStatusErrorContextNotFound);
    EXPECT_EQ(gpa_->GpaGetCounterGroup(bad_context_, i, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetCounterGroup(bad_context_, i, &text), kGpaStatusErrorContextNotFound);
    EXPECT_EQ(gpa_->GpaGetCounterDescription(bad_context_, i, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetCounterDescription(bad_context_, i, &text), kGpaStatusErrorContextNotFound);
    EXPECT_EQ(gpa_->GpaGetCounterDataType(bad_context_, i, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetCounterDataType(bad_context_, i, &type), kGpaStatusErrorContextNotFound);
    EXPECT_EQ(gpa_->GpaGetCounterUsageType(bad_context_, i, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetCounterUsageType(bad_context_, i, &usage), kGpaStatusErrorContextNotFound);
    EXPECT_EQ(gpa_->GpaGetCounterUuid(bad_context_, i, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetCounterUuid(bad_context_, i, &uuid), kGpaStatusErrorContextNotFound);
    EXPECT_EQ(gpa_->GpaGetCounterSampleType(bad_context_, i, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetCounterSampleType(bad_context_, i, &sample_type), kGpaStatusErrorContextNotFound);
  }
  const char* text = nullptr;
  EXPECT_EQ(gpa_->GpaGetDataTypeAsStr(kGpaDataTypeFloat64, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDataTypeAsStr(static_cast<GpaDataType>(0xFFFF), nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetDataTypeAsStr(kGpaDataTypeUint64, &text), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaGetDataTypeAsStr(kGpaDataTypeLast, &text), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaGetUsageTypeAsStr(kGpaUsageTypeLast, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetUsageTypeAsStr(kGpaUsageTypeKilobytes, &text), kGpaStatusOk);
  EXPECT_EQ(gpa_->GpaGetUsageTypeAsStr(kGpaUsageTypeLast, &text), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa_->GpaGetUsageTypeAsStr(static_cast<GpaUsageType>(0xFFFF), &text), kGpaStatusErrorInvalidParameter);
}

TEST_P(PublicApiTest, SessionsCheckTheContextThenTheSampleType) {
  GpaSessionId session = nullptr;
  // The extension types (opengpa_ext.h) and -1 lie outside GpaSessionSampleType: passed from C (c_table_callers.c).
  for (int type :
       {static_cast<int>(kGpaSessionSampleTypeDiscreteCounter), static_cast<int>(kGpaSessionSampleTypeStreamingCounter),
        static_cast<int>(kGpaSessionSampleTypeStreamingCounterAndSqtt), -1}) {
    EXPECT_EQ(CallTableCreateSession(gpa_, nullptr, type, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(CallTableCreateSession(gpa_, nullptr, type, &session), kGpaStatusErrorNullPointer);
    EXPECT_EQ(CallTableCreateSession(gpa_, bad_context_, type, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(CallTableCreateSession(gpa_, bad_context_, type, &session), kGpaStatusErrorContextNotFound);
  }
  EXPECT_EQ(gpa_->GpaDeleteSession(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaDeleteSession(bad_session_), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaBeginSession(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaBeginSession(bad_session_), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaEndSession(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaEndSession(bad_session_), kGpaStatusErrorSessionNotFound);
}

TEST_P(PublicApiTest, AnUnknownSessionIsNotFoundWhateverTheOtherArguments) {
  for (GpaUInt32 index : {0u, 0x7FFFFFFFu}) {
    EXPECT_EQ(gpa_->GpaEnableCounter(nullptr, index), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaEnableCounter(bad_session_, index), kGpaStatusErrorSessionNotFound);
    EXPECT_EQ(gpa_->GpaDisableCounter(nullptr, index), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaDisableCounter(bad_session_, index), kGpaStatusErrorSessionNotFound);
    EXPECT_EQ(gpa_->GpaIsCounterEnabled(nullptr, index), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaIsCounterEnabled(bad_session_, index), kGpaStatusErrorSessionNotFound);
    GpaUInt32 enabled = 0;
    EXPECT_EQ(gpa_->GpaGetEnabledIndex(nullptr, index, &enabled), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetEnabledIndex(nullptr, index, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetEnabledIndex(bad_session_, index, nullptr), kGpaStatusErrorSessionNotFound);
    EXPECT_EQ(gpa_->GpaGetEnabledIndex(bad_session_, index, &enabled), kGpaStatusErrorSessionNotFound);
  }
  for (const char* name : {static_cast<const char*>(nullptr), "noCounter", "GPUTime", "Wavefronts"}) {
    EXPECT_EQ(gpa_->GpaEnableCounterByName(nullptr, name), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaEnableCounterByName(bad_session_, name), kGpaStatusErrorSessionNotFound);
    EXPECT_EQ(gpa_->GpaDisableCounterByName(nullptr, name), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaDisableCounterByName(bad_session_, name), kGpaStatusErrorSessionNotFound);
  }
  EXPECT_EQ(gpa_->GpaEnableAllCounters(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaEnableAllCounters(bad_session_), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaDisableAllCounters(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaDisableAllCounters(bad_session_), kGpaStatusErrorSessionNotFound);
  GpaUInt32 value = 0;
  EXPECT_EQ(gpa_->GpaGetPassCount(nullptr, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetPassCount(nullptr, &value), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetPassCount(bad_session_, nullptr), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetPassCount(bad_session_, &value), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetNumEnabledCounters(nullptr, &value), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetNumEnabledCounters(bad_session_, nullptr), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetNumEnabledCounters(bad_session_, &value), kGpaStatusErrorSessionNotFound);
}

TEST_P(PublicApiTest, CommandListsAndSamplesCheckTheSessionOrListFirst) {
  GpaCommandListId list = nullptr;
  void* command_list = this;
  EXPECT_EQ(gpa_->GpaBeginCommandList(nullptr, 0, nullptr, kGpaCommandListNone, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaBeginCommandList(nullptr, 0x7FFFFFFF, command_list, kGpaCommandListNone, nullptr),
            kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaBeginCommandList(nullptr, 0x7FFFFFFF, nullptr, kGpaCommandListPrimary, nullptr),
            kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaBeginCommandList(nullptr, 0x7FFFFFFF, command_list, kGpaCommandListPrimary, &list),
            kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaBeginCommandList(bad_session_, 0x7FFFFFFF, command_list, kGpaCommandListPrimary, &list),
            kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaBeginCommandList(bad_session_, 0, nullptr, kGpaCommandListNone, nullptr),
            kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaBeginCommandList(bad_session_, 0x7FFFFFFF, command_list, kGpaCommandListNone, nullptr),
            kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaBeginCommandList(bad_session_, 0x7FFFFFFF, nullptr, kGpaCommandListPrimary, nullptr),
            kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaEndCommandList(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaEndCommandList(bad_list_), kGpaStatusErrorCommandListNotFound);
  EXPECT_EQ(gpa_->GpaBeginSample(0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaBeginSample(0, bad_list_), kGpaStatusErrorCommandListNotFound);
  EXPECT_EQ(gpa_->GpaEndSample(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaEndSample(bad_list_), kGpaStatusErrorCommandListNotFound);
  GpaUInt32 value = 0;
  EXPECT_EQ(gpa_->GpaGetSampleCount(nullptr, &value), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetSampleCount(bad_session_, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetSampleCount(bad_session_, &value), kGpaStatusErrorSessionNotFound);
  EXPECT_EQ(gpa_->GpaGetSampleId(nullptr, 0, &value), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetSampleId(bad_session_, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetSampleId(bad_session_, 0, &value), kGpaStatusErrorSessionNotFound);
}

TEST_P(PublicApiTest, ContinuingAndCopyingSamplesAreNotSupportedWithoutCommandLists) {
  for (GpaUInt32 sample : {0u, 0x7FFFFFFFu}) {
    EXPECT_EQ(gpa_->GpaContinueSampleOnCommandList(sample, nullptr), ListStatus(kGpaStatusErrorNullPointer));
    EXPECT_EQ(gpa_->GpaContinueSampleOnCommandList(sample, bad_list_), ListStatus(kGpaStatusErrorCommandListNotFound));
  }
  GpaUInt32 new_ids = 0;
  for (GpaUInt32 count : {0u, 1u, 0x7FFFFFFFu}) {
    GpaUInt32* ids = count == 1 ? &new_ids : nullptr;
    EXPECT_EQ(gpa_->GpaCopySecondarySamples(nullptr, nullptr, count, ids), ListStatus(kGpaStatusErrorNullPointer));
    EXPECT_EQ(gpa_->GpaCopySecondarySamples(nullptr, bad_secondary_, count, ids),
              ListStatus(kGpaStatusErrorNullPointer));
    EXPECT_EQ(gpa_->GpaCopySecondarySamples(bad_list_, nullptr, count, ids),
              ListStatus(kGpaStatusErrorCommandListNotFound));
    EXPECT_EQ(gpa_->GpaCopySecondarySamples(bad_list_, bad_list_, count, ids),
              ListStatus(kGpaStatusErrorCommandListNotFound));
    EXPECT_EQ(gpa_->GpaCopySecondarySamples(bad_list_, bad_secondary_, count, ids),
              ListStatus(kGpaStatusErrorCommandListNotFound));
  }
}

TEST_P(PublicApiTest, ResultQueriesCheckTheSessionThenTheirOutput) {
  size_t size = 0;
  void* buffer = this;
  for (GpaUInt32 index : {0u, 0x7FFFFFFFu}) {
    EXPECT_EQ(gpa_->GpaIsPassComplete(nullptr, index), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaIsPassComplete(bad_session_, index), kGpaStatusErrorSessionNotFound);
    EXPECT_EQ(gpa_->GpaGetSampleResultSize(nullptr, index, &size), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetSampleResultSize(bad_session_, index, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetSampleResultSize(bad_session_, index, &size), kGpaStatusErrorSessionNotFound);
    EXPECT_EQ(gpa_->GpaGetSampleResult(nullptr, index, 0, buffer), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetSampleResult(bad_session_, index, 0x7FFFFFFF, nullptr), kGpaStatusErrorNullPointer);
    EXPECT_EQ(gpa_->GpaGetSampleResult(bad_session_, index, 0, buffer), kGpaStatusErrorSessionNotFound);
  }
  EXPECT_EQ(gpa_->GpaIsSessionComplete(nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaIsSessionComplete(bad_session_), kGpaStatusErrorSessionNotFound);
}

TEST_P(PublicApiTest, StatusStringsNameGpasStatusesAndReadAsGpasForOthers) {
  for (GpaStatus status : {kGpaStatusOk, kGpaStatusMax}) {
    const std::string text = gpa_->GpaGetStatusAsStr(status);
    EXPECT_EQ(text.rfind("GPA Status:", 0), 0u) << text;
    EXPECT_NE(text, "GPA Status: Unknown Status.");
  }
  for (int value = kGpaStatusMin; value <= kGpaStatusErrorNullPointer; ++value) {
    const std::string text = gpa_->GpaGetStatusAsStr(static_cast<GpaStatus>(value));
    EXPECT_EQ(text.rfind("GPA Error:", 0), 0u) << text;
    EXPECT_NE(text, "GPA Error: Unknown Error.") << value;
  }
  EXPECT_STREQ(gpa_->GpaGetStatusAsStr(static_cast<GpaStatus>(1024)), "GPA Status: Unknown Status.");
  EXPECT_STREQ(gpa_->GpaGetStatusAsStr(static_cast<GpaStatus>(-1024)), "GPA Error: Unknown Error.");
}

TEST_P(PublicApiTest, VersionNeedsEveryOutput) {
  GpaUInt32 major = 0, minor = 0, build = 0, update = 0;
  EXPECT_EQ(gpa_->GpaGetVersion(nullptr, nullptr, nullptr, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetVersion(&major, &minor, &build, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa_->GpaGetVersion(&major, &minor, &build, &update), kGpaStatusOk);
}

TEST_P(PublicApiTest, TheFunctionTableIsCheckedAndFilledAsGpaDoes) {
  EXPECT_EQ(gpa_->GpaGetFuncTable(nullptr), kGpaStatusErrorNullPointer);
  GpaFunctionTable table;
  ASSERT_EQ(gpa_->GpaGetFuncTable(&table), kGpaStatusOk);
  EXPECT_EQ(table.major_version, GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER);
  EXPECT_EQ(table.minor_version, GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER);
  EXPECT_EQ(table.minor_version, 49 * sizeof(void*) + 2 * sizeof(GpaUInt32));
  table.major_version = 1024;
  table.minor_version = 0;
  ASSERT_EQ(gpa_->GpaGetFuncTable(&table), kGpaStatusErrorLibLoadMajorVersionMismatch);
  EXPECT_EQ(table.major_version, GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER);
  EXPECT_EQ(table.minor_version, GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER);
  table.minor_version = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER + 1024;
  ASSERT_EQ(table.GpaGetFuncTable(&table), kGpaStatusErrorLibLoadMinorVersionMismatch);
  EXPECT_EQ(table.minor_version, GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER);
  GpaFunctionTable older;
  older.minor_version -= sizeof(void*);
  ASSERT_EQ(gpa_->GpaGetFuncTable(&older), kGpaStatusOk);
  EXPECT_NE(older.GpaGetVersion, nullptr);
  EXPECT_EQ(older.GpaGetDeviceGeneration, nullptr) << "the last entry point is not written into a smaller table";
}

INSTANTIATE_TEST_SUITE_P(Libraries, PublicApiTest, ::testing::ValuesIn(Libraries()),
                         [](const ::testing::TestParamInfo<Library>& info) { return std::string(info.param.name); });

}  // namespace
