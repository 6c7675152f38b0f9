#include "client/gpa_library_search.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace opengpa::client {
namespace {

const std::string kTestLibrary = OPENGPA_TEST_LIBRARY;
const std::string kTestFolder = kTestLibrary.substr(0, kTestLibrary.rfind('/'));
const std::string kTestFile = kTestLibrary.substr(kTestLibrary.rfind('/') + 1);

TEST(GpaLibraryFileName, NamesTheLibraryOfEachApi) {
  EXPECT_EQ(GpaLibraryFileName(kGpaApiVulkan), "libGPUPerfAPIVK.so");
  EXPECT_EQ(GpaLibraryFileName(kGpaApiOpengl), "libGPUPerfAPIGL.so");
  EXPECT_EQ(GpaLibraryFileName(kGpaApiOpencl), "libGPUPerfAPICL.so");
  EXPECT_EQ(GpaLibraryFileName(kGpaApiCuda), "libGPUPerfAPICUDA.so");
  EXPECT_EQ(GpaLibraryFileName(kGpaApiDirectx12), "libGPUPerfAPI?.so");
}

TEST(GpaLibraryPaths, AnExplicitFileIsTheOnlyPath) {
  EXPECT_EQ(GpaLibraryPaths("libGPUPerfAPIVK.so", "/opt/gpa/libGPUPerfAPIVK.so", {kTestFolder}),
            std::vector<std::string>{"/opt/gpa/libGPUPerfAPIVK.so"});
}

TEST(GpaLibraryPaths, AnExplicitFolderGivesTheFileInIt) {
  EXPECT_EQ(GpaLibraryPaths(kTestFile, kTestFolder, {}), std::vector<std::string>{kTestFolder + "/" + kTestFile});
}

TEST(GpaLibraryPaths, FoldersThatHoldTheFileComeFirstThenTheBareNameForTheLoader) {
  EXPECT_EQ(GpaLibraryPaths(kTestFile, "", {"/nonexistent-opengpa-folder", kTestFolder}),
            (std::vector<std::string>{kTestFolder + "/" + kTestFile, kTestFile}));
}

TEST(FoldersBesideExecutable, AreTheProgramsFolderAndTheLibFoldersAboveIt) {
  const std::string own = ExecutableDirectory();
  ASSERT_FALSE(own.empty());
  EXPECT_EQ(FoldersBesideExecutable(), (std::vector<std::string>{own, own + "/../lib", own + "/../../lib"}));
}

}  // namespace
}  // namespace opengpa::client
