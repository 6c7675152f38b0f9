// Every refusal of libGPUPerfAPICounters.so: the status gpu_perf_api_counters.h documents (or GPA's usual
// one for that argument), a logged message that ends with '.', and no crash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "counter_library_fixture.h"
#include "tests/counter_library/c_enum_callers.h"

namespace opengpa::testing {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;

class CounterLibraryErrorTest : public CounterLibraryTest {
 protected:
  void SetUp() override {
    CounterLibraryTest::SetUp();
    context_ = Open(kGpaApiVulkan, Device(0x1002, 0x744C));
    ASSERT_NE(context_, nullptr);
    ASSERT_EQ(lib_.GpaCounterLibGetNumCounters(context_, &count_), kGpaStatusOk);
    ClearErrors();
  }
  // The status is `expected` and a message containing `words` was logged, ending with '.'.
  void ExpectRefused(GpaStatus status, GpaStatus expected, const char* words) {
    EXPECT_EQ(status, expected);
    const std::string log = Errors();
    EXPECT_THAT(log, HasSubstr(words));
    EXPECT_THAT(log, EndsWith(".\n"));
    ClearErrors();
  }

  GpaCounterContext context_ = nullptr;
  GpaUInt32 count_ = 0;
};

TEST_F(CounterLibraryErrorTest, FunctionTableChecksItsVersions) {
  ExpectRefused(GpaCounterLibGetFuncTable(nullptr), kGpaStatusErrorNullPointer, "gpa_counter_lib_function_table");
  GpaCounterLibFuncTable table;
  table.gpa_counter_lib_major_version = 2;
  ExpectRefused(GpaCounterLibGetFuncTable(&table), kGpaStatusErrorLibLoadMajorVersionMismatch, "major_version 2");
  EXPECT_EQ(table.gpa_counter_lib_major_version, GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION);  // says what it wants
  EXPECT_EQ(table.GpaCounterLibGetVersion, nullptr);
  // A table larger than v3's is GPA 4.3's (160 bytes, tests/counter_library_v4); one larger than that is refused,
  // and the size the library serves is written back.
  std::array<unsigned char, 256> bigger{};
  const GpaUInt32 bigger_header[2] = {GPA_COUNTER_LIB_FUNC_TABLE_MAJOR_VERSION, 168};
  std::memcpy(bigger.data(), bigger_header, sizeof bigger_header);
  ExpectRefused(GpaCounterLibGetFuncTable(bigger.data()), kGpaStatusErrorLibLoadMinorVersionMismatch, "table size");
  GpaUInt32 written_back[2] = {0, 0};
  std::memcpy(written_back, bigger.data(), sizeof written_back);
  EXPECT_EQ(written_back[1], 160u);

  // An older client's smaller table is a prefix: filled up to its size, nothing past it written.
  GpaCounterLibFuncTable older;
  older.gpa_counter_lib_minor_version = offsetof(GpaCounterLibFuncTable, GpaCounterLibGetNumCounters);
  older.GpaCounterLibGetNumCounters = reinterpret_cast<GpaCounterLibGetNumCountersPtrType>(std::uintptr_t{1});
  ASSERT_EQ(GpaCounterLibGetFuncTable(&older), kGpaStatusOk);
  EXPECT_EQ(older.GpaCounterLibCloseCounterContext, &GpaCounterLibCloseCounterContext);
  EXPECT_EQ(older.GpaCounterLibGetNumCounters, reinterpret_cast<GpaCounterLibGetNumCountersPtrType>(std::uintptr_t{1}));

  // A current table gets every entry point in AMD's slot order.
  GpaCounterLibFuncTable current;
  ASSERT_EQ(GpaCounterLibGetFuncTable(&current), kGpaStatusOk);
  EXPECT_EQ(current.GpaCounterLibGetVersion, &GpaCounterLibGetVersion);
  EXPECT_EQ(current.GpaCounterLibGetCountersByPass, &GpaCounterLibGetCountersByPass);
  EXPECT_EQ(current.GpaCounterLibComputeDerivedCounterResult, &GpaCounterLibComputeDerivedCounterResult);
}

TEST_F(CounterLibraryErrorTest, VersionNeedsEveryOutput) {
  GpaUInt32 major = 0, minor = 0, build = 0, update = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetVersion(&major, &minor, &build, &update), kGpaStatusOk);
  EXPECT_EQ(major, 3u);
  ExpectRefused(lib_.GpaCounterLibGetVersion(&major, &minor, nullptr, &update), kGpaStatusErrorNullPointer,
                "build_number");
}

TEST_F(CounterLibraryErrorTest, OpenRefusesWhatItCannotServe) {
  GpaCounterContext context = nullptr;
  const GpaCounterContextHardwareInfo amd = Device(0x1002, 0x744C);
  ExpectRefused(lib_.GpaCounterLibOpenCounterContext(kGpaApiVulkan, amd, 0, 1, nullptr), kGpaStatusErrorNullPointer,
                "gpa_virtual_context");
  ExpectRefused(lib_.GpaCounterLibOpenCounterContext(kGpaApiVulkan, amd, 0, 0, &context),
                kGpaStatusErrorInvalidParameter, "generate_asic_specific_counters must be 1");
  ExpectRefused(
      lib_.GpaCounterLibOpenCounterContext(kGpaApiVulkan, amd, kGpaOpenContextHideDerivedCountersBit, 1, &context),
      kGpaStatusErrorInvalidParameter, "no counter would be exposed");
  ExpectRefused(lib_.GpaCounterLibOpenCounterContext(kGpaApiDirectx12, amd, 0, 1, &context),
                kGpaStatusErrorApiNotSupported, "DirectX");
  ExpectRefused(lib_.GpaCounterLibOpenCounterContext(static_cast<GpaApiType>(kGpaApiCuda), amd, 0, 1, &context),
                kGpaStatusErrorHardwareNotSupported, "vendor_id 0x10DE");
  ExpectRefused(lib_.GpaCounterLibOpenCounterContext(static_cast<GpaApiType>(kGpaApiCuda), Device(0x10DE, 0x1234), 0, 1,
                                                     &context),
                kGpaStatusErrorHardwareNotSupported, "device_id 0x1234");
  GpaCounterContextHardwareInfo no_attributes = amd;
  no_attributes.gpa_hardware_attribute_count = 2;
  ExpectRefused(lib_.GpaCounterLibOpenCounterContext(kGpaApiVulkan, no_attributes, 0, 1, &context),
                kGpaStatusErrorNullPointer, "gpa_hardware_attributes");
  EXPECT_EQ(context, nullptr);
}

// Values outside the enums come from C (c_enum_callers.c): forming them in C++ would be undefined.
TEST_F(CounterLibraryErrorTest, ApiValuesOutsideGpaApiTypeFromCAreInvalidParameters) {
  const GpaCounterContextHardwareInfo amd = Device(0x1002, 0x744C);
  for (int api : {0x7777, -1, INT_MIN, INT_MAX, static_cast<int>(kGpaApiDeprecated), static_cast<int>(kGpaApiLast)}) {
    GpaCounterContext context = nullptr;
    ExpectRefused(CallCounterLibOpenCounterContext(api, amd, &context), kGpaStatusErrorInvalidParameter,
                  "not a GpaApiType");
    EXPECT_EQ(context, nullptr) << api;
  }
}

TEST_F(CounterLibraryErrorTest, HardwareBlocksOutsideGpaHwBlockFromCNameNoCounter) {
  GpaUInt32 index = ~0u;
  for (int block : {-1, INT_MIN, INT_MAX, static_cast<int>(kGpaHwBlockCount) + 1}) {
    ExpectRefused(CallCounterLibGetIndexOfBlockEvent(context_, block, 0, &index), kGpaStatusErrorCounterNotFound,
                  "names none of");
  }
  // The block non-AMD hardware counters carry (counter_context.h) is found through the same int comparison:
  // the event of a hardware counter that is not a time, behind one of the derived counters.
  GpaUInt32 event = ~0u;
  for (GpaUInt32 i = 0; i < count_ && event == ~0u; ++i) {
    const GpaCounterInfo* info = nullptr;
    ASSERT_EQ(lib_.GpaCounterLibGetCounterInfo(context_, i, &info), kGpaStatusOk);
    if (!info->is_derived_counter) continue;
    for (GpaUInt32 k = 0; k < info->gpa_derived_counter->gpa_hw_counter_count; ++k) {
      const GpaHwCounter& hardware = info->gpa_derived_counter->gpa_hw_counters[k];
      if (!hardware.is_timing_block) event = hardware.gpa_hw_block_event_id;
    }
  }
  ASSERT_NE(event, ~0u) << "no derived counter reads a hardware counter that is not a time";
  ExpectRefused(CallCounterLibGetIndexOfBlockEvent(context_, kGpaHwBlockCount, event, &index),
                kGpaStatusErrorCounterNotFound, "kGpaOpenContextEnableHardwareCountersBit");
  GpaCounterContext with_hardware =
      Open(kGpaApiVulkan, Device(0x1002, 0x744C), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(with_hardware, nullptr);
  ASSERT_EQ(CallCounterLibGetIndexOfBlockEvent(with_hardware, kGpaHwBlockCount, event, &index), kGpaStatusOk)
      << Errors();
  EXPECT_LT(index, ~0u);
}

// Logging types are bits: from C any int is a combination, and bits GPA does not define select nothing.
TEST_F(CounterLibraryErrorTest, LoggingTypesOutsideGpaLoggingTypeFromCAreBitMasks) {
  for (int types : {0x10000, -1, INT_MIN}) {
    EXPECT_EQ(CallCounterLibRegisterLoggingCallback(types, nullptr), kGpaStatusErrorNullPointer) << types;
  }
  ClearErrors();
  ASSERT_EQ(CallCounterLibRegisterLoggingCallback(INT_MIN | kGpaLoggingError, &Capture), kGpaStatusOk);
  GpaUInt32 count = 0;
  ExpectRefused(lib_.GpaCounterLibGetNumCounters(nullptr, &count), kGpaStatusErrorNullPointer, "gpa_virtual_context");
}

TEST_F(CounterLibraryErrorTest, UnknownNullAndClosedContextsAreRefused) {
  GpaUInt32 count = 0;
  ExpectRefused(lib_.GpaCounterLibGetNumCounters(nullptr, &count), kGpaStatusErrorNullPointer, "gpa_virtual_context");
  const auto made_up = reinterpret_cast<GpaCounterContext>(std::uintptr_t{0x1234});
  ExpectRefused(lib_.GpaCounterLibGetNumCounters(made_up, &count), kGpaStatusErrorContextNotOpen, "is not open");
  ExpectRefused(lib_.GpaCounterLibCloseCounterContext(made_up), kGpaStatusErrorContextNotOpen, "is not open");
  ExpectRefused(lib_.GpaCounterLibCloseCounterContext(nullptr), kGpaStatusErrorNullPointer, "gpa_virtual_context");

  GpaCounterContext closing = nullptr;
  ASSERT_EQ(lib_.GpaCounterLibOpenCounterContext(kGpaApiOpencl, Device(0x10DE, 0x2330), 0, 1, &closing), kGpaStatusOk);
  ASSERT_EQ(lib_.GpaCounterLibCloseCounterContext(closing), kGpaStatusOk);
  ExpectRefused(lib_.GpaCounterLibGetNumCounters(closing, &count), kGpaStatusErrorContextNotOpen, "is not open");
  ExpectRefused(lib_.GpaCounterLibCloseCounterContext(closing), kGpaStatusErrorContextNotOpen, "is not open");
  ExpectRefused(lib_.GpaCounterLibGetNumCounters(context_, nullptr), kGpaStatusErrorNullPointer, "gpa_counter_count");
}

TEST_F(CounterLibraryErrorTest, PerCounterQueriesCheckIndexAndOutput) {
  const char* text = nullptr;
  GpaDataType type{};
  GpaUsageType usage{};
  GpaUuid uuid{};
  GpaCounterSampleType sample_type{};
  const GpaCounterInfo* info = nullptr;
  ExpectRefused(lib_.GpaCounterLibGetCounterName(context_, count_, &text), kGpaStatusErrorIndexOutOfRange,
                "gpa_counter_index");
  ExpectRefused(lib_.GpaCounterLibGetCounterGroup(context_, count_, &text), kGpaStatusErrorIndexOutOfRange,
                "gpa_counter_index");
  ExpectRefused(lib_.GpaCounterLibGetCounterDescription(context_, count_ + 5, &text), kGpaStatusErrorIndexOutOfRange,
                "gpa_counter_index");
  ExpectRefused(lib_.GpaCounterLibGetCounterDataType(context_, count_, &type), kGpaStatusErrorIndexOutOfRange, ">=");
  ExpectRefused(lib_.GpaCounterLibGetCounterUsageType(context_, count_, &usage), kGpaStatusErrorIndexOutOfRange, ">=");
  ExpectRefused(lib_.GpaCounterLibGetCounterUuid(context_, count_, &uuid), kGpaStatusErrorIndexOutOfRange, ">=");
  ExpectRefused(lib_.GpaCounterLibGetCounterSampleType(context_, count_, &sample_type), kGpaStatusErrorIndexOutOfRange,
                ">=");
  ExpectRefused(lib_.GpaCounterLibGetCounterInfo(context_, count_, &info), kGpaStatusErrorFailed,
                ">=");  // AMD's status

  ExpectRefused(lib_.GpaCounterLibGetCounterName(context_, 0, nullptr), kGpaStatusErrorNullPointer, "gpa_counter_name");
  ExpectRefused(lib_.GpaCounterLibGetCounterGroup(context_, 0, nullptr), kGpaStatusErrorNullPointer,
                "gpa_counter_group");
  ExpectRefused(lib_.GpaCounterLibGetCounterDescription(context_, 0, nullptr), kGpaStatusErrorNullPointer,
                "gpa_counter_description");
  ExpectRefused(lib_.GpaCounterLibGetCounterDataType(context_, 0, nullptr), kGpaStatusErrorNullPointer,
                "gpa_counter_data_type");
  ExpectRefused(lib_.GpaCounterLibGetCounterUsageType(context_, 0, nullptr), kGpaStatusErrorNullPointer,
                "gpa_counter_usage_type");
  ExpectRefused(lib_.GpaCounterLibGetCounterUuid(context_, 0, nullptr), kGpaStatusErrorNullPointer, "gpa_counter_uuid");
  ExpectRefused(lib_.GpaCounterLibGetCounterSampleType(context_, 0, nullptr), kGpaStatusErrorNullPointer,
                "gpa_counter_sample_type");
  ExpectRefused(lib_.GpaCounterLibGetCounterInfo(context_, 0, nullptr), kGpaStatusErrorNullPointer, "gpa_counter_info");
}

TEST_F(CounterLibraryErrorTest, CounterIndexLookupsThatFindNothing) {
  GpaUInt32 index = 0;
  GpaCounterParam param{};
  param.is_derived_counter = true;
  param.derived_counter_name = "NoSuchCounter";
  ExpectRefused(lib_.GpaCounterLibGetCounterIndex(context_, &param, &index), kGpaStatusErrorCounterNotFound,
                "NoSuchCounter");
  ExpectRefused(lib_.GpaCounterLibGetCounterIndex(context_, nullptr, &index), kGpaStatusErrorNullPointer,
                "gpa_counter_info");
  ExpectRefused(lib_.GpaCounterLibGetCounterIndex(context_, &param, nullptr), kGpaStatusErrorNullPointer,
                "gpa_counter_index");
  param.derived_counter_name = nullptr;
  ExpectRefused(lib_.GpaCounterLibGetCounterIndex(context_, &param, &index), kGpaStatusErrorNullPointer,
                "derived_counter_name");

  // A real AMD block (SQ) exists on no device this library serves.
  GpaCounterParam hardware{};
  hardware.is_derived_counter = false;
  hardware.gpa_hw_counter.gpa_hw_block = kGpaHwBlockSq;
  ExpectRefused(lib_.GpaCounterLibGetCounterIndex(context_, &hardware, &index), kGpaStatusErrorCounterNotFound,
                "names none of");
  // A hardware counter that exists but is not exposed without kGpaOpenContextEnableHardwareCountersBit.
  const GpaCounterInfo* info = nullptr;
  ASSERT_EQ(lib_.GpaCounterLibGetCounterInfo(context_, 0, &info), kGpaStatusOk);
  hardware.gpa_hw_counter = info->gpa_derived_counter->gpa_hw_counters[0];
  ExpectRefused(lib_.GpaCounterLibGetCounterIndex(context_, &hardware, &index), kGpaStatusErrorCounterNotFound,
                "kGpaOpenContextEnableHardwareCountersBit");
}

TEST_F(CounterLibraryErrorTest, DerivedResultNeedsOneValuePerHardwareCounter) {
  const GpaUInt32 reuse = IndexOf(context_, "VSVertexReuse");  // two hardware counters
  const GpaUInt64 values[3] = {1, 2, 3};
  double result = 0;
  // AMD's statuses: Failed for a count that does not match and for an index that is no counter.
  ExpectRefused(lib_.GpaCounterLibComputeDerivedCounterResult(context_, reuse, values, 3, &result),
                kGpaStatusErrorFailed, "gpa_hw_counter_result_count 3");
  ExpectRefused(lib_.GpaCounterLibComputeDerivedCounterResult(context_, reuse, values, 0, &result),
                kGpaStatusErrorInvalidParameter, "gpa_hw_counter_result_count is 0");
  ExpectRefused(lib_.GpaCounterLibComputeDerivedCounterResult(context_, reuse, nullptr, 2, &result),
                kGpaStatusErrorNullPointer, "gpa_hw_counter_result");
  ExpectRefused(lib_.GpaCounterLibComputeDerivedCounterResult(context_, reuse, values, 2, nullptr),
                kGpaStatusErrorNullPointer, "gpa_derived_counter_result");
  ExpectRefused(lib_.GpaCounterLibComputeDerivedCounterResult(context_, count_, values, 2, &result),
                kGpaStatusErrorFailed, "gpa_derived_counter_index");
}

TEST_F(CounterLibraryErrorTest, PassQueriesCheckTheirIndicesAndBuffers) {
  GpaUInt32 passes = 0;
  const GpaUInt32 bad[] = {0, count_};
  ExpectRefused(lib_.GpaCounterLibGetPassCount(context_, nullptr, 2, &passes), kGpaStatusErrorNullPointer,
                "gpa_counter_indices");
  ExpectRefused(lib_.GpaCounterLibGetPassCount(context_, bad, 2, &passes), kGpaStatusErrorIndexOutOfRange,
                "gpa_counter_indices[1]");
  ExpectRefused(lib_.GpaCounterLibGetPassCount(context_, bad, 1, nullptr), kGpaStatusErrorNullPointer,
                "number_of_pass_req");
  ExpectRefused(lib_.GpaCounterLibGetPassCount(context_, nullptr, 0, &passes), kGpaStatusErrorNullPointer,
                "gpa_counter_indices");
  ExpectRefused(lib_.GpaCounterLibGetPassCount(context_, bad, 0, &passes), kGpaStatusErrorInvalidParameter,
                "gpa_counter_count is 0");

  GpaUInt32 pass_count = 0;
  GpaUInt32 per_pass[1] = {};
  ExpectRefused(lib_.GpaCounterLibGetCountersByPass(context_, 1, bad, nullptr, nullptr, nullptr),
                kGpaStatusErrorNullPointer, "pass_count");
  ExpectRefused(lib_.GpaCounterLibGetCountersByPass(context_, 2, bad, &pass_count, nullptr, nullptr),
                kGpaStatusErrorIndexOutOfRange, "gpa_counter_indices[1]");
  ExpectRefused(lib_.GpaCounterLibGetCountersByPass(context_, 0, bad, &pass_count, nullptr, nullptr),
                kGpaStatusErrorInvalidParameter, "gpa_counter_count is 0");
  pass_count = 0;  // room for no pass, one needed
  ExpectRefused(lib_.GpaCounterLibGetCountersByPass(context_, 1, bad, &pass_count, per_pass, nullptr),
                kGpaStatusErrorInvalidParameter, "less than the 1 passes needed");
  pass_count = 1;
  GpaUInt32 indices[4] = {};
  GpaPassCounter wrong_pass{};
  wrong_pass.pass_index = 3;  // only pass 0 exists
  wrong_pass.counter_count = 4;
  wrong_pass.counter_indices = indices;
  ExpectRefused(lib_.GpaCounterLibGetCountersByPass(context_, 1, bad, &pass_count, per_pass, &wrong_pass),
                kGpaStatusErrorInvalidParameter, "pass_index 3");
}

}  // namespace
}  // namespace opengpa::testing
