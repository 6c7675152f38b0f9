// GpaGetFuncTable: version checks and older (smaller) client tables.
#include <cstring>

#include "tests/core/gpa_api_test_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::HasSubstr;

TEST(FunctionTable, FillsEveryEntryForACurrentClient) {
  GpaFunctionTable table{};
  table.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
  table.minor_version = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
  ASSERT_EQ(GpaGetFuncTable(&table), kGpaStatusOk);
  EXPECT_EQ(table.GpaGetVersion, &GpaGetVersion);
  EXPECT_EQ(table.GpaGetSampleResult, &GpaGetSampleResult);
  EXPECT_EQ(table.GpaGetStatusAsStr, &GpaGetStatusAsStr);
#define GPA_FUNCTION_PREFIX(func) EXPECT_EQ(table.func, &func) << #func;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX
}

TEST(FunctionTable, NullTableIsANullPointer) { EXPECT_EQ(GpaGetFuncTable(nullptr), kGpaStatusErrorNullPointer); }

TEST(FunctionTable, OtherMajorVersionIsRejectedAndOursIsReported) {
  GpaFunctionTable table{};
  table.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER + 2;  // 4 is GPA 4's table (tests/gpa4)
  table.minor_version = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
  EXPECT_EQ(GpaGetFuncTable(&table), kGpaStatusErrorLibLoadMajorVersionMismatch);
  EXPECT_EQ(table.major_version, static_cast<GpaUInt32>(GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER));
  EXPECT_EQ(table.GpaGetVersion, nullptr);
}

TEST(FunctionTable, ATableLargerThanOursIsAMinorVersionMismatch) {
  struct NewerTable {
    GpaFunctionTable known;
    void* future_function;
  } table{};
  table.known.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
  table.known.minor_version = sizeof(NewerTable);
  EXPECT_EQ(GpaGetFuncTable(&table), kGpaStatusErrorLibLoadMinorVersionMismatch);
  EXPECT_EQ(table.known.minor_version, GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER);
}

TEST(FunctionTable, AnOlderClientsSmallerTableGetsOnlyTheEntriesThatFit) {
  // An older client whose table ends before GpaGetStatusAsStr; a guard word follows it in memory.
  struct {
    unsigned char table[GPA_FUNCTION_TABLE_SIZE_UP_TO(GpaGetStatusAsStr)];
    std::uint64_t guard;
  } older;
  std::memset(&older, 0xAB, sizeof older);
  GpaFunctionTable header{};
  header.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
  header.minor_version = sizeof older.table;
  std::memcpy(older.table, &header, offsetof(GpaFunctionTable, GpaGetFuncTable));
  ASSERT_EQ(GpaGetFuncTable(older.table), kGpaStatusOk);
  EXPECT_EQ(older.guard, 0xABABABABABABABABull) << "nothing written past the client's table";
  GpaFunctionTable view{};
  std::memcpy(static_cast<void*>(&view), older.table, sizeof older.table);
  EXPECT_EQ(view.GpaGetSampleResult, &GpaGetSampleResult);
  EXPECT_EQ(view.minor_version, GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER) << "tells the client a newer table exists";
}

TEST(FunctionTable, ATableSmallerThanItsHeaderIsAMinorVersionMismatch) {
  GpaFunctionTable table{};
  table.major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
  table.minor_version = 4;
  EXPECT_EQ(GpaGetFuncTable(&table), kGpaStatusErrorLibLoadMinorVersionMismatch);
}

}  // namespace
}  // namespace opengpa::testing
