// GpaGetFuncTable from a GPA 4 client: the same library fills the v4 table (72 entries, GPA 4.3's order) or,
// asked for major version 3, the v3 one; other versions and sizes are refused as GPA documents.
#include <dlfcn.h>

#include <cstring>

#include "tests/gpa4/gpa4_fixture.h"

GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

namespace opengpa::gpa4_test {
namespace {

using GetFuncTable = GpaStatus (*)(void*);

// The library's GpaGetFuncTable, resolved as GPA's loader does; the handle stays open for the test.
GetFuncTable LoadGetFuncTable(const char* path) {
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return nullptr;
  return reinterpret_cast<GetFuncTable>(dlsym(library, "GpaGetFuncTable"));
}

TEST(Gpa4Table, TheV4TableIsGpa43sSizeAndEveryEntryIsFilled) {
  GetFuncTable get = LoadGetFuncTable(OPENGPA_TEST_LIBRARY);
  ASSERT_NE(get, nullptr);
  GpaFunctionTable table;
  ASSERT_EQ(get(&table), kGpaStatusOk);
  EXPECT_EQ(table.major_version, 4u);
  EXPECT_EQ(table.minor_version, 584u);
#define GPA_FUNCTION_PREFIX(func) EXPECT_NE(table.func, nullptr) << #func;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX
}

TEST(Gpa4Table, TheSameLibraryStillFillsTheV3TableForMajorVersion3) {
  GetFuncTable get = LoadGetFuncTable(OPENGPA_TEST_LIBRARY);
  ASSERT_NE(get, nullptr);
  struct {
    GpaUInt32 major_version;
    GpaUInt32 minor_version;
    void* entries[49];  // GPA v3.17's 49 entry points
  } v3{3, 400, {}};
  ASSERT_EQ(get(&v3), kGpaStatusOk);
  EXPECT_EQ(v3.major_version, 3u);
  EXPECT_EQ(v3.minor_version, 400u);
  for (void* entry : v3.entries) EXPECT_NE(entry, nullptr);
  // v3's slot 9 is GpaGetNumCounters (context), v4's slot 9 GpaUpdateDeviceInformation: different functions.
  GpaFunctionTable v4;
  ASSERT_EQ(get(&v4), kGpaStatusOk);
  EXPECT_NE(v3.entries[9], reinterpret_cast<void*>(v4.GpaGetNumCounters));
}

TEST(Gpa4Table, AnotherMajorVersionIsRefusedAndTheLibrarysVersionsReturned) {
  GetFuncTable get = LoadGetFuncTable(OPENGPA_TEST_LIBRARY);
  ASSERT_NE(get, nullptr);
  GpaFunctionTable table;
  table.major_version = 5;
  EXPECT_EQ(get(&table), kGpaStatusErrorLibLoadMajorVersionMismatch);
  EXPECT_EQ(table.major_version, 3u);  // the library's own (v3) table, as GPA answers
  EXPECT_EQ(table.GpaGetFuncTable, nullptr);
}

TEST(Gpa4Table, AV4TableLargerThanGpa43sIsRefused) {
  GetFuncTable get = LoadGetFuncTable(OPENGPA_TEST_LIBRARY);
  ASSERT_NE(get, nullptr);
  GpaFunctionTable table;
  table.minor_version = sizeof(GpaFunctionTable) + 8;
  EXPECT_EQ(get(&table), kGpaStatusErrorLibLoadMinorVersionMismatch);
  EXPECT_EQ(table.minor_version, 584u);
  EXPECT_EQ(table.GpaGetFuncTable, nullptr);
}

TEST(Gpa4Table, AnEarlierSmallerV4TableGetsTheEntriesThatFit) {
  GetFuncTable get = LoadGetFuncTable(OPENGPA_TEST_LIBRARY);
  ASSERT_NE(get, nullptr);
  GpaFunctionTable table;
  table.minor_version = static_cast<GpaUInt32>(GPA_FUNCTION_TABLE_SIZE_UP_TO(GpaGetDeviceMaxWaveSlots));
  ASSERT_EQ(get(&table), kGpaStatusOk);
  EXPECT_NE(table.GpaGetDeviceGeneration, nullptr);
  EXPECT_EQ(table.GpaGetDeviceMaxWaveSlots, nullptr);
  EXPECT_EQ(table.GpaGetDeviceMaxLdsBytes, nullptr);
}

#ifdef OPENGPA_CL_LIBRARY
TEST(Gpa4Table, TheOpenClLibraryServesNoV4TableBecauseGpa4HasNoOpenCl) {
  GetFuncTable get = LoadGetFuncTable(OPENGPA_CL_LIBRARY);
  ASSERT_NE(get, nullptr);
  GpaFunctionTable table;
  EXPECT_EQ(get(&table), kGpaStatusErrorLibLoadMajorVersionMismatch);
  EXPECT_EQ(table.major_version, 3u);
}
#endif

TEST(Gpa4Table, TheV4LoaderNamesLibrariesByGpa4sApiNumbers) {
  EXPECT_EQ(kGpaApiVulkan, 3);
  EXPECT_STREQ(GpaInterfaceLoaderGetLibraryFileName(kGpaApiVulkan), "libGPUPerfAPIVK.so");
  EXPECT_STREQ(GpaInterfaceLoaderGetLibraryFileName(kGpaApiOpengl), "libGPUPerfAPIGL.so");
  EXPECT_STREQ(GpaInterfaceLoaderGetLibraryFileName(kGpaApiCuda), "libGPUPerfAPICUDA.so");
  EXPECT_STREQ(GpaInterfaceLoaderGetLibraryFileName(kGpaApiNoSupport), "");
}

}  // namespace
}  // namespace opengpa::gpa4_test

#if defined(OPENGPA_VK_LIBRARY)
namespace opengpa::gpa4_test {
namespace {

// GpaVkContextOpenInfo2 without its resolvers: refused before any Vulkan call, so no device is needed.
TEST(Gpa4Vulkan, OpenInfo2IsReadWithItsFlagAndItsResolversMustBeSet) {
  ASSERT_EQ(GpaApiManager::Instance()->LoadApi(kGpaApiVulkan, OPENGPA_VK_LIBRARY), kGpaStatusOk);
  GpaFunctionTable* gpa = GpaApiManager::Instance()->GetFunctionTable(kGpaApiVulkan);
  ASSERT_NE(gpa, nullptr);
  ASSERT_EQ(gpa->GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusOk);
  struct {
    void* handles[3];
    void* get_instance_proc_addr;
    void* get_device_proc_addr;
  } info2{{reinterpret_cast<void*>(1), reinterpret_cast<void*>(2), reinterpret_cast<void*>(3)}, nullptr, nullptr};
  GpaContextId context = nullptr;
  EXPECT_EQ(gpa->GpaOpenContext(&info2, 0x10000000 /* kGpaOpenContextVkUseInfoType2 */, &context),
            kGpaStatusErrorNullPointer);
  EXPECT_EQ(gpa->GpaOpenContext(&info2, 0x20000000, &context), kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(gpa->GpaDestroy(), kGpaStatusOk);
  GpaApiManager::Instance()->UnloadApi(kGpaApiVulkan);
  GpaApiManager::DeleteInstance();
}

}  // namespace
}  // namespace opengpa::gpa4_test
#endif
