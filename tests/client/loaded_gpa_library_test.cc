#include "client/loaded_gpa_library.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace opengpa::client {
namespace {

using ::testing::HasSubstr;

TEST(LoadedGpaLibrary, LoadsTheFirstPathThatOpensAndGivesItsFunctionTable) {
  std::string error;
  auto library = LoadedGpaLibrary::Load({"/nonexistent/libGPUPerfAPIVK.so", OPENGPA_TEST_LIBRARY}, &error);
  ASSERT_NE(library, nullptr) << error;
  EXPECT_EQ(library->Path(), OPENGPA_TEST_LIBRARY);
  GpaUInt32 major = 0, minor = 0, build = 0, update = 0;
  ASSERT_NE(library->Table().GpaGetVersion, nullptr);
  EXPECT_EQ(library->Table().GpaGetVersion(&major, &minor, &build, &update), kGpaStatusOk);
  EXPECT_EQ(major, 3u);
}

TEST(LoadedGpaLibrary, FindsTheOpenGpaExtensionsBesideTheTable) {
  std::string error;
  auto library = LoadedGpaLibrary::Load({OPENGPA_TEST_LIBRARY}, &error);
  ASSERT_NE(library, nullptr) << error;
  EXPECT_NE(library->Extensions().get_counter_formula, nullptr);
  EXPECT_NE(library->Extensions().get_counter_hardware_unit, nullptr);
}

TEST(LoadedGpaLibrary, ListsEveryFailedAttemptWhenNoneLoads) {
  std::string error;
  EXPECT_EQ(LoadedGpaLibrary::Load({"/nonexistent/a.so", "/nonexistent/b.so"}, &error), nullptr);
  EXPECT_THAT(error, HasSubstr("\n  /nonexistent/a.so"));
  EXPECT_THAT(error, HasSubstr("\n  /nonexistent/b.so"));
}

TEST(LoadedGpaLibrary, RefusesALibraryWithoutGpaGetFuncTable) {
  std::string error;
  EXPECT_EQ(LoadedGpaLibrary::Load({"libm.so.6"}, &error), nullptr);
  EXPECT_THAT(error, HasSubstr("libm.so.6: does not export GpaGetFuncTable"));
}

TEST(LoadedGpaLibrary, SaysSoWhenGivenNoPath) {
  std::string error;
  EXPECT_EQ(LoadedGpaLibrary::Load({}, &error), nullptr);
  EXPECT_THAT(error, HasSubstr("no path to try"));
}

}  // namespace
}  // namespace opengpa::client
