// Init, Shutdown, the export table, contexts, enumeration, names and attributes: every documented result,
// on llvmpipe.
#include <cstring>

#include "gl_nvpm_fixture.h"

namespace opengpa::testing {
namespace {

using GlNvPmLibrary = GlNvPm;

TEST_F(GlNvPmLibrary, EveryCallBeforeInitIsNotInitialized) {
  ASSERT_EQ(api_->Shutdown(), NVPM_OK);
  NVPMContext context = 0;
  NVPMUINT length = 0;
  EXPECT_EQ(api_->Shutdown(), NVPM_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(api_->CreateContextFromOGLContext(GlHandle(), &context), NVPM_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(api_->GetCounterName(1, nullptr, &length), NVPM_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(api_->Init(), NVPM_OK);
}

TEST_F(GlNvPmLibrary, InitTwiceIsAlreadyInitialized) { EXPECT_EQ(api_->Init(), NVPM_ERROR_ALREADY_INITIALIZED); }

TEST_F(GlNvPmLibrary, ShutdownClosesContextsAndForgetsThem) {
  ASSERT_EQ(api_->Shutdown(), NVPM_OK);
  ASSERT_EQ(api_->Init(), NVPM_OK);
  EXPECT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_ERROR_INVALID_CONTEXT);
  NVPMContext context = 0;
  EXPECT_EQ(api_->CreateContextFromOGLContext(GlHandle(), &context), NVPM_OK) << LastMessage();
}

TEST_F(GlNvPmLibrary, ExportTableRefusesAnUnknownIdAndNullPointers) {
  auto get = reinterpret_cast<NVPMGetExportTable_Pfn>(dlsym(library_, "NVPMGetExportTable"));
  ASSERT_NE(get, nullptr);
  NVPM_UUID unknown = ETID_NvPmApi;
  unknown.Data1 ^= 1;
  void* table = nullptr;
  EXPECT_EQ(get(&unknown, &table), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(get(nullptr, &table), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(get(&ETID_NvPmApi, nullptr), NVPM_ERROR_INVALID_PARAMETER);
  ASSERT_EQ(get(&ETID_NvPmApi, &table), NVPM_OK);
  EXPECT_EQ(static_cast<const NvPmApi*>(table)->struct_size, sizeof(NvPmApi));
}

TEST_F(GlNvPmLibrary, GetExtendedErrorReturnsTheLastFailure) {
  EXPECT_EQ(api_->AddCounterByName(context_, "no such counter"), NVPM_ERROR_INVALID_COUNTER);
  NVPMUINT error = 0;
  ASSERT_EQ(api_->GetExtendedError(&error), NVPM_OK);
  EXPECT_EQ(error, static_cast<NVPMUINT>(NVPM_ERROR_INVALID_COUNTER));
  EXPECT_NE(LastMessage().find("no such counter"), std::string::npos) << LastMessage();
  EXPECT_EQ(api_->GetExtendedError(nullptr), NVPM_ERROR_INVALID_PARAMETER);
}

TEST_F(GlNvPmLibrary, CreateContextRefusesNullsAContextOpenTwiceAndOneNotCurrent) {
  NVPMContext context = 0;
  EXPECT_EQ(api_->CreateContextFromOGLContext(0, &context), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(api_->CreateContextFromOGLContext(GlHandle(), nullptr), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(api_->CreateContextFromOGLContext(GlHandle(), &context), NVPM_ERROR_INVALID_PARAMETER);
  EGLContext other = gl_->CreateOtherContext();
  ASSERT_NE(other, EGL_NO_CONTEXT);
  EXPECT_EQ(api_->CreateContextFromOGLContext(reinterpret_cast<APIContextHandle>(other), &context),
            NVPM_ERROR_CONTEXT_NOT_SUPPORTED);
  EXPECT_FALSE(LastMessage().empty());
  eglDestroyContext(gl_->display(), other);
}

TEST_F(GlNvPmLibrary, EveryContextCallRefusesAHandleNoCreateReturned) {
  const NVPMContext bad = context_ + 1000;
  NVPMUINT passes = 0;
  NVPMCounterID id = 0;
  NVPMUINT64 value = 0, cycles = 0;
  EXPECT_EQ(api_->DestroyContext(bad), NVPM_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(api_->EnumCountersByContext(bad, [](NVPMCounterID, const char*) { return 0; }), NVPM_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(api_->GetCounterIDByContext(bad, "GPUTime", &id), NVPM_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(api_->AddCounterByName(bad, "GPUTime"), NVPM_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(api_->RemoveAllCounters(bad), NVPM_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(api_->ReserveObjects(bad, 1), NVPM_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(api_->BeginExperiment(bad, &passes), NVPM_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(api_->BeginPass(bad, 0), NVPM_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(api_->BeginObject(bad, 0), NVPM_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(api_->Sample(bad, nullptr, nullptr), NVPM_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(api_->GetCounterValue(bad, 1, 0, &value, &cycles), NVPM_ERROR_INVALID_CONTEXT);
  ASSERT_EQ(api_->DestroyContext(context_), NVPM_OK);
  EXPECT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_ERROR_INVALID_CONTEXT);
}

TEST_F(GlNvPmLibrary, EnumerationRefusesANullCallbackAndStopsWhenTheCallbackSays) {
  EXPECT_EQ(api_->EnumCountersByContext(context_, nullptr), NVPM_ERROR_BAD_ENUMERATOR);
  EXPECT_EQ(api_->EnumCountersByContextUserData(context_, nullptr, nullptr), NVPM_ERROR_BAD_ENUMERATOR);
  int calls = 0;
  EXPECT_EQ(api_->EnumCountersByContextUserData(
                context_,
                [](NVPMCounterID, const char*, void* user) {
                  ++*static_cast<int*>(user);
                  return 1;
                },
                &calls),
            NVPM_WARNING_ENDED_EARLY);
  EXPECT_EQ(calls, 1);
}

TEST_F(GlNvPmLibrary, EnumerationListsTheGlBackendsCountersAndPerfKitNames) {
  std::vector<std::string> names = CounterNames(context_);
  for (const char* name : {"GPUTime", "SamplesPassed", "PSPixelsIn", "shaded_pixel_count", "setup_primitive_count"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
  // No cycle counters on OpenGL: no cycle ratios, no simplified experiments.
  for (const char* name : {"gpu_idle", "gpu_busy", "SHD SOL", "GPU Bottleneck"}) {
    EXPECT_EQ(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

TEST_F(GlNvPmLibrary, GetCounterNameFollowsTheLengthProtocol) {
  const NVPMCounterID id = Id(context_, "SamplesPassed");
  NVPMUINT length = 0;
  EXPECT_EQ(api_->GetCounterName(id, nullptr, nullptr), NVPM_ERROR_INVALID_PARAMETER);
  ASSERT_EQ(api_->GetCounterName(id, nullptr, &length), NVPM_OK);
  EXPECT_EQ(length, std::strlen("SamplesPassed") + 1);
  char small[4] = {'x', 'x', 'x', 'x'};
  NVPMUINT small_length = sizeof small;
  EXPECT_EQ(api_->GetCounterName(id, small, &small_length), NVPM_ERROR_STRING_TOO_SMALL);
  EXPECT_EQ(small_length, length);
  EXPECT_EQ(small[0], 'x');  // nothing written
  std::vector<char> name(length);
  ASSERT_EQ(api_->GetCounterName(id, name.data(), &length), NVPM_OK);
  EXPECT_STREQ(name.data(), "SamplesPassed");
  EXPECT_EQ(api_->GetCounterName(999999, nullptr, &length), NVPM_ERROR_INVALID_COUNTER);
  EXPECT_EQ(api_->GetCounterName(0, nullptr, &length), NVPM_ERROR_INVALID_COUNTER);
}

TEST_F(GlNvPmLibrary, GetCounterDescriptionFollowsTheLengthProtocol) {
  const NVPMCounterID id = Id(context_, "GPUTime");
  NVPMUINT length = 0;
  ASSERT_EQ(api_->GetCounterDescription(id, nullptr, &length), NVPM_OK);
  EXPECT_GT(length, 1u);
  char small[2];
  NVPMUINT small_length = sizeof small;
  EXPECT_EQ(api_->GetCounterDescription(id, small, &small_length), NVPM_ERROR_STRING_TOO_SMALL);
  EXPECT_EQ(api_->GetCounterDescription(999999, nullptr, &length), NVPM_ERROR_INVALID_COUNTER);
  EXPECT_EQ(api_->GetCounterDescription(id, small, nullptr), NVPM_ERROR_INVALID_PARAMETER);
}

TEST_F(GlNvPmLibrary, GetCounterIdByContextRefusesUnknownNamesAndNulls) {
  NVPMCounterID id = 0;
  EXPECT_EQ(api_->GetCounterIDByContext(context_, "no such counter", &id), NVPM_ERROR_COUNTER_NOT_FOUND);
  EXPECT_EQ(api_->GetCounterIDByContext(context_, nullptr, &id), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(api_->GetCounterIDByContext(context_, "GPUTime", nullptr), NVPM_ERROR_INVALID_PARAMETER);
}

TEST_F(GlNvPmLibrary, GetCounterAttributeAnswersTypeDisplayAndValueTypeOnly) {
  const NVPMCounterID id = Id(context_, "GPUTime");
  NVPMUINT64 value = 0;
  ASSERT_EQ(api_->GetCounterAttribute(id, NVPMA_COUNTER_VALUE_TYPE, &value), NVPM_OK);
  EXPECT_EQ(value, NVPM_VALUE_TYPE_FLOAT64);
  ASSERT_EQ(api_->GetCounterAttribute(Id(context_, "SamplesPassed"), NVPMA_COUNTER_VALUE_TYPE, &value), NVPM_OK);
  EXPECT_EQ(value, NVPM_VALUE_TYPE_UINT64);
  ASSERT_EQ(api_->GetCounterAttribute(id, NVPMA_COUNTER_DISPLAY, &value), NVPM_OK);
  EXPECT_EQ(value, NVPM_CD_RAW);
  ASSERT_EQ(api_->GetCounterAttribute(id, NVPMA_COUNTER_TYPE, &value), NVPM_OK);
  EXPECT_EQ(value, NVPM_CT_GPU);
  EXPECT_EQ(api_->GetCounterAttribute(id, NVPMA_COUNTER_DOMAIN, &value), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(api_->GetCounterAttribute(id, NVPMA_COUNTER_MAX, &value), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(api_->GetCounterAttribute(id, NVPMA_COUNTER_TYPE, nullptr), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(api_->GetCounterAttribute(999999, NVPMA_COUNTER_TYPE, &value), NVPM_ERROR_INVALID_COUNTER);
}

TEST_F(GlNvPmLibrary, CallsWithNothingToOfferSayWhy) {
  float megahertz = 0;
  EXPECT_EQ(api_->GetCounterClockRateByContext(context_, "GPUTime", &megahertz), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(api_->RegisterNewDataProviderCallback(nullptr), NVPM_ERROR_INVALID_PARAMETER);
  EXPECT_FALSE(LastMessage().empty());
  EXPECT_EQ(api_->SetWarningLevel(3), NVPM_OK);
}

}  // namespace
}  // namespace opengpa::testing
