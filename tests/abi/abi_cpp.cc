// The GPA v3.17 ABI as a C++17 client sees it: the generated pins (abi_pins.h: values, sizes, offsets, slots,
// field and function-pointer types) and abi_extra_pins.h are static_asserts, so a difference fails this
// file's build. The tests below pin what C++ adds: the constructors GPA's C++ clients rely on.
#include <gtest/gtest.h>

#include <cstddef>
#include <type_traits>

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_counters.h"
#include "gpu_performance_api/gpu_perf_api_interface_loader.h"
#include "gpu_performance_api/opengpa_ext.h"
#ifdef ABI_PINS_WITH_VULKAN
#include "gpu_performance_api/gpu_perf_api_vk.h"
#endif

#define ABI_PIN(condition, what) static_assert(condition, what)
#define ABI_ALIGNOF(type) alignof(type)
#define ABI_IS_SIGNED(type) std::is_signed<type>::value

static_assert(sizeof(void*) == 8, "the pins are LP64's (x86_64 and aarch64 Linux)");

#include "tests/abi/abi_extra_pins.h"
#include "tests/abi/abi_pins.h"

GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
GpaFuncTableInfo* gpa_function_table_info = nullptr;

namespace {

TEST(GpaAbi, AFunctionTableStartsWithThisHeadersVersionsAndNoEntryPoints) {
  GpaFunctionTable table;
  EXPECT_EQ(table.major_version, 3u);
  EXPECT_EQ(table.minor_version, 400u);
#define GPA_FUNCTION_PREFIX(func) EXPECT_EQ(table.func, nullptr) << #func;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX
}

TEST(GpaAbi, ACounterLibraryTableStartsWithThisHeadersVersionsAndIsNotInitialized) {
  GpaCounterLibFuncTable table;
  EXPECT_EQ(table.gpa_counter_lib_major_version, 3u);
  EXPECT_EQ(table.gpa_counter_lib_minor_version, 144u);
  EXPECT_FALSE(table.IsInit());
}

TEST(GpaAbi, UuidsCompareFieldByField) {
  GpaUuid a{};
  GpaUuid b{};
  a.data_1 = b.data_1 = 0x12345678ul;
  a.data_4[7] = b.data_4[7] = 9;
  EXPECT_TRUE(a == b);
  b.data_4[7] = 8;
  EXPECT_FALSE(a == b);
}

TEST(GpaAbi, TheFunctionListHasFortyNineEntryPointsInTableOrder) {
  std::size_t count = 0;
  std::size_t previous = 0;
  bool ascending = true;
#define GPA_FUNCTION_PREFIX(func)                                       \
  ascending = ascending && offsetof(GpaFunctionTable, func) > previous; \
  previous = offsetof(GpaFunctionTable, func);                          \
  ++count;
#include "gpu_performance_api/gpu_perf_api_functions.h"
#undef GPA_FUNCTION_PREFIX
  EXPECT_EQ(count, 49u);
  EXPECT_TRUE(ascending);
  EXPECT_EQ(previous + sizeof(void*), sizeof(GpaFunctionTable));
}

}  // namespace
