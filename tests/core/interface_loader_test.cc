// GpaApiManager loads a real built library (libGPUPerfAPITest.so, the fake backend) with dlopen.
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "tests/core/fake_backend.h"

GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

namespace {

using ::testing::HasSubstr;

class InterfaceLoaderTest : public ::testing::Test {
 protected:
  void TearDown() override { GpaApiManager::DeleteInstance(); }
};

TEST_F(InterfaceLoaderTest, InstanceIsASingletonAndDeleteInstanceUnloadsEverything) {
  GpaApiManager* manager = GpaApiManager::Instance();
  EXPECT_EQ(GpaApiManager::Instance(), manager);
  ASSERT_EQ(manager->LoadApi(kGpaApiVulkan, OPENGPA_TEST_LIBRARY), kGpaStatusOk) << manager->GetLastError();
  GpaApiManager::DeleteInstance();
  EXPECT_EQ(gpa_function_table_info, nullptr);
  EXPECT_EQ(GpaApiManager::Instance()->GetFunctionTable(kGpaApiVulkan), nullptr);
}

TEST_F(InterfaceLoaderTest, LibraryNamesFollowGpa) {
  EXPECT_EQ(GpaApiManager::Instance()->GetLibraryFileName(kGpaApiVulkan), "libGPUPerfAPIVK.so");
  EXPECT_EQ(GpaApiManager::Instance()->GetLibraryFileName(kGpaApiOpengl), "libGPUPerfAPIGL.so");
  EXPECT_EQ(GpaApiManager::Instance()->GetLibraryFileName(kGpaApiOpencl), "libGPUPerfAPICL.so");
  EXPECT_EQ(GpaApiManager::Instance()->GetLibraryFileName(kGpaApiCuda), "libGPUPerfAPICUDA.so");
  EXPECT_EQ(GpaApiManager::Instance()->GetLibraryFileName(kGpaApiDirectx12), "");
}

TEST_F(InterfaceLoaderTest, TheFullPathIsTheExecutablesFolderOrTheGivenOne) {
  char self[4096] = {};
  ASSERT_GT(readlink("/proc/self/exe", self, sizeof self - 1), 0);
  const std::string folder = std::string(self).substr(0, std::string(self).rfind('/'));
  EXPECT_EQ(std::string(GpaInterfaceLoaderGetWorkingDirectoryPath()), folder);
  EXPECT_EQ(GpaApiManager::Instance()->GetLibraryFullPath(kGpaApiVulkan), folder + "/libGPUPerfAPIVK.so");
  EXPECT_EQ(GpaApiManager::Instance()->GetLibraryFullPath(kGpaApiOpengl, "/opt/gpa"), "/opt/gpa/libGPUPerfAPIGL.so");
  EXPECT_EQ(GpaApiManager::Instance()->GetLibraryFullPath(kGpaApiOpencl, "/opt/gpa/"), "/opt/gpa/libGPUPerfAPICL.so");
  EXPECT_EQ(GpaApiManager::Instance()->GetLibraryFullPath(kGpaApiDirectx11, "/opt/gpa"), "");
}

TEST_F(InterfaceLoaderTest, LoadsALibraryFileAndFillsItsWholeFunctionTable) {
  GpaApiManager* manager = GpaApiManager::Instance();
  ASSERT_EQ(manager->LoadApi(kGpaApiVulkan, OPENGPA_TEST_LIBRARY), kGpaStatusOk) << manager->GetLastError();
  GpaFunctionTable* table = manager->GetFunctionTable(kGpaApiVulkan);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->major_version, static_cast<GpaUInt32>(GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER));
  EXPECT_EQ(table->minor_version, GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER);
#define GPA_FUNCTION_PREFIX(func) EXPECT_NE(reinterpret_cast<void*>(table->func), nullptr) << #func;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX
  void* library = manager->GetFuncTableInfo(kGpaApiVulkan).lib_handle;
  ASSERT_NE(library, nullptr);
  // Every entry point is also exported under its own name (and the table holds exactly that symbol).
#define GPA_FUNCTION_PREFIX(func) EXPECT_EQ(dlsym(library, #func), reinterpret_cast<void*>(table->func)) << #func;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX
  EXPECT_NE(dlsym(library, "OpenGpaGetCounterFormula"), nullptr);
  EXPECT_EQ(dlsym(library, "_ZN7opengpa13ActiveBackendEv"), nullptr) << "internals stay local";
}

TEST_F(InterfaceLoaderTest, LoadedTableDrivesAWholeProfile) {
  GpaApiManager* manager = GpaApiManager::Instance();
  ASSERT_EQ(manager->LoadApi(kGpaApiVulkan, OPENGPA_TEST_LIBRARY), kGpaStatusOk) << manager->GetLastError();
  GpaFunctionTable* gpa = manager->GetFunctionTable(kGpaApiVulkan);
  ASSERT_EQ(gpa->GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusOk);
  opengpa::fake::FakeDevice device;
  GpaContextId context = nullptr;
  ASSERT_EQ(gpa->GpaOpenContext(&device, kGpaOpenContextDefaultBit, &context), kGpaStatusOk);
  GpaSessionId session = nullptr;
  ASSERT_EQ(gpa->GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk);
  ASSERT_EQ(gpa->GpaEnableCounterByName(session, "faketotalwork"), kGpaStatusOk);
  ASSERT_EQ(gpa->GpaBeginSession(session), kGpaStatusOk);
  GpaCommandListId list = nullptr;
  ASSERT_EQ(gpa->GpaBeginCommandList(session, 0, GPA_NULL_COMMAND_LIST, kGpaCommandListNone, &list), kGpaStatusOk);
  ASSERT_EQ(gpa->GpaBeginSample(42, list), kGpaStatusOk);
  ASSERT_EQ(gpa->GpaEndSample(list), kGpaStatusOk);
  ASSERT_EQ(gpa->GpaEndCommandList(list), kGpaStatusOk);
  ASSERT_EQ(gpa->GpaEndSession(session), kGpaStatusOk);
  GpaUInt64 value = 0;
  ASSERT_EQ(gpa->GpaGetSampleResult(session, 42, sizeof value, &value), kGpaStatusOk);
  const double expected = opengpa::fake::FakeHardwareValue(0, 0) + opengpa::fake::FakeHardwareValue(1, 0);
  EXPECT_EQ(value, static_cast<GpaUInt64>(expected));
  EXPECT_EQ(gpa->GpaDestroy(), kGpaStatusOk);
}

TEST_F(InterfaceLoaderTest, LoadsTheApisLibraryByNameFromADirectory) {
  // A directory holding "libGPUPerfAPICL.so" (a link to the test library).
  char directory[] = "/tmp/opengpa-loader-XXXXXX";
  ASSERT_NE(mkdtemp(directory), nullptr);
  const std::string link = std::string(directory) + "/libGPUPerfAPICL.so";
  ASSERT_EQ(symlink(OPENGPA_TEST_LIBRARY, link.c_str()), 0);
  GpaApiManager* manager = GpaApiManager::Instance();
  EXPECT_EQ(manager->LoadApi(kGpaApiOpencl, directory), kGpaStatusOk) << manager->GetLastError();
  EXPECT_NE(manager->GetFunctionTable(kGpaApiOpencl), nullptr);
  manager->UnloadApi(kGpaApiOpencl);
  unlink(link.c_str());
  rmdir(directory);
}

TEST_F(InterfaceLoaderTest, AMissingLibraryIsALoadFailureNamingIt) {
  GpaApiManager* manager = GpaApiManager::Instance();
  // The build directory holds libGPUPerfAPITest.so, not libGPUPerfAPICUDA.so (unless CUDA was built).
  const GpaStatus status = manager->LoadApi(kGpaApiCuda, "/nonexistent-opengpa-dir");
  EXPECT_EQ(status, kGpaStatusErrorLibLoadFailed);
  EXPECT_THAT(manager->GetLastError(), HasSubstr("libGPUPerfAPICUDA.so"));
  EXPECT_EQ(manager->GetFunctionTable(kGpaApiCuda), nullptr);
}

TEST_F(InterfaceLoaderTest, ApiWithoutAnOpenGpaLibraryIsNotSupported) {
  EXPECT_EQ(GpaApiManager::Instance()->LoadApi(kGpaApiDirectx11), kGpaStatusErrorApiNotSupported);
}

TEST_F(InterfaceLoaderTest, LoadingTwiceIsLibAlreadyLoadedAndKeepsTheFirstTableAndUnloadForgetsIt) {
  GpaApiManager* manager = GpaApiManager::Instance();
  ASSERT_EQ(manager->LoadApi(kGpaApiOpencl, OPENGPA_TEST_LIBRARY), kGpaStatusOk);
  GpaFunctionTable* first = manager->GetFunctionTable(kGpaApiOpencl);
  ASSERT_EQ(manager->LoadApi(kGpaApiOpencl, OPENGPA_TEST_LIBRARY), kGpaStatusErrorLibAlreadyLoaded);
  EXPECT_EQ(manager->GetFunctionTable(kGpaApiOpencl), first);
  manager->UnloadApi(kGpaApiOpencl);
  EXPECT_EQ(manager->GetFunctionTable(kGpaApiOpencl), nullptr);
  // Unloaded, it loads again.
  EXPECT_EQ(manager->LoadApi(kGpaApiOpencl, OPENGPA_TEST_LIBRARY), kGpaStatusOk);
  EXPECT_NE(manager->GetFunctionTable(kGpaApiOpencl), nullptr);
}

TEST_F(InterfaceLoaderTest, TheExecutablesFolderIsSearchedFirstThenTheLoadersPath) {
  // Nothing named libGPUPerfAPIVK.so beside this test or on the loader's path (the build puts libraries in
  // lib/): the load fails and says what it tried.
  GpaApiManager* manager = GpaApiManager::Instance();
  ASSERT_EQ(manager->LoadApi(kGpaApiVulkan), kGpaStatusErrorLibLoadFailed);
  EXPECT_THAT(manager->GetLastError(), HasSubstr("libGPUPerfAPIVK.so"));
  // A link beside the executable is found without any path.
  const std::string beside = GpaApiManager::Instance()->GetLibraryFullPath(kGpaApiVulkan);
  ASSERT_EQ(symlink(OPENGPA_TEST_LIBRARY, beside.c_str()), 0) << beside;
  const GpaStatus status = manager->LoadApi(kGpaApiVulkan);
  unlink(beside.c_str());
  EXPECT_EQ(status, kGpaStatusOk) << manager->GetLastError();
  EXPECT_NE(manager->GetFunctionTable(kGpaApiVulkan), nullptr);
}

}  // namespace
