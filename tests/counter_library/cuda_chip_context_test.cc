// Counter contexts on NVIDIA chips (vendor 0x10DE and a board's PCI device id) through CUPTI's host API,
// checked against libGPUPerfAPICUDA.so's offline context for the same chip: the same counters with the
// same properties, and the same pass counts as a live session's GpaGetPassCount for the same set.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "counter_library_fixture.h"
#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/gpu_perf_api_cuda.h"

namespace opengpa::testing {
namespace {

struct Chip {
  const char* name;
  GpaUInt32 device_id;  // a board of the chip
};

class CudaChipContextTest : public CounterLibraryTest, public ::testing::WithParamInterface<Chip> {
 protected:
  void SetUp() override {
    CounterLibraryTest::SetUp();
    ASSERT_EQ(GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusOk);
    GpaCudaContextOpenInfo info = GPA_CUDA_CONTEXT_OPEN_INFO_INIT;
    info.chip_name = GetParam().name;
    ASSERT_EQ(GpaOpenContext(&info, kGpaOpenContextDefaultBit, &live_), kGpaStatusOk);
    counters_ = Open(static_cast<GpaApiType>(kGpaApiCuda), Device(0x10DE, GetParam().device_id));
    ASSERT_NE(counters_, nullptr);
  }
  void TearDown() override {
    if (live_ != nullptr) GpaCloseContext(live_);
    GpaDestroy();
    CounterLibraryTest::TearDown();
  }

  // What libGPUPerfAPICUDA.so's GpaGetPassCount says for a session with exactly `indices` enabled.
  GpaUInt32 LivePassCount(const std::vector<GpaUInt32>& indices, GpaStatus expected_status = kGpaStatusOk) {
    GpaSessionId session = nullptr;
    EXPECT_EQ(GpaCreateSession(live_, kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk);
    for (GpaUInt32 index : indices) EXPECT_EQ(GpaEnableCounter(session, index), kGpaStatusOk);
    GpaUInt32 passes = 0;
    EXPECT_EQ(GpaGetPassCount(session, &passes), expected_status);
    GpaDeleteSession(session);
    return passes;
  }

  std::vector<GpaUInt32> GroupIndices(const char* group) {
    GpaUInt32 count = 0;
    EXPECT_EQ(lib_.GpaCounterLibGetNumCounters(counters_, &count), kGpaStatusOk);
    std::vector<GpaUInt32> indices;
    for (GpaUInt32 i = 0; i < count; ++i) {
      const char* name = nullptr;
      EXPECT_EQ(lib_.GpaCounterLibGetCounterGroup(counters_, i, &name), kGpaStatusOk);
      if (std::string(name) == group) indices.push_back(i);
    }
    return indices;
  }

  GpaContextId live_ = nullptr;
  GpaCounterContext counters_ = nullptr;
};

TEST_P(CudaChipContextTest, ListsTheCountersOfTheLiveLibrarysOfflineContext) {
  GpaUInt32 live_count = 0;
  GpaUInt32 count = 0;
  ASSERT_EQ(GpaGetNumCounters(live_, &live_count), kGpaStatusOk);
  ASSERT_EQ(lib_.GpaCounterLibGetNumCounters(counters_, &count), kGpaStatusOk);
  ASSERT_EQ(count, live_count);
  EXPECT_GT(count, 40u) << GetParam().name;
  for (GpaUInt32 i = 0; i < count; ++i) {
    const char* live_text = nullptr;
    const char* text = nullptr;
    ASSERT_EQ(GpaGetCounterName(live_, i, &live_text), kGpaStatusOk);
    ASSERT_EQ(lib_.GpaCounterLibGetCounterName(counters_, i, &text), kGpaStatusOk);
    EXPECT_STREQ(text, live_text);
    ASSERT_EQ(GpaGetCounterGroup(live_, i, &live_text), kGpaStatusOk);
    ASSERT_EQ(lib_.GpaCounterLibGetCounterGroup(counters_, i, &text), kGpaStatusOk);
    EXPECT_STREQ(text, live_text);
    ASSERT_EQ(GpaGetCounterDescription(live_, i, &live_text), kGpaStatusOk);
    ASSERT_EQ(lib_.GpaCounterLibGetCounterDescription(counters_, i, &text), kGpaStatusOk);
    EXPECT_STREQ(text, live_text);
    GpaDataType live_type{}, type{};
    ASSERT_EQ(GpaGetCounterDataType(live_, i, &live_type), kGpaStatusOk);
    ASSERT_EQ(lib_.GpaCounterLibGetCounterDataType(counters_, i, &type), kGpaStatusOk);
    EXPECT_EQ(type, live_type);
    GpaUsageType live_usage{}, usage{};
    ASSERT_EQ(GpaGetCounterUsageType(live_, i, &live_usage), kGpaStatusOk);
    ASSERT_EQ(lib_.GpaCounterLibGetCounterUsageType(counters_, i, &usage), kGpaStatusOk);
    EXPECT_EQ(usage, live_usage);
    GpaUuid live_uuid{}, uuid{};
    ASSERT_EQ(GpaGetCounterUuid(live_, i, &live_uuid), kGpaStatusOk);
    ASSERT_EQ(lib_.GpaCounterLibGetCounterUuid(counters_, i, &uuid), kGpaStatusOk);
    EXPECT_EQ(std::memcmp(&uuid, &live_uuid, sizeof uuid), 0) << text;
  }
}

TEST_P(CudaChipContextTest, PassCountsEqualTheLiveLibrarysForTheSameSets) {
  const std::vector<std::vector<GpaUInt32>> sets = {
      {IndexOf(counters_, "GPUTime")},
      {IndexOf(counters_, "GPUBusy"), IndexOf(counters_, "CSBusy")},
      GroupIndices("Timing"),
      GroupIndices("GlobalMemory"),
      GroupIndices("ComputeUnit"),         // 6-8 passes
      GroupIndices("ComputeShader"),       // 2-3 passes
      GroupIndices("MemoryCacheSectors"),  // 2 passes; the placement takes 3
  };
  for (const auto& set : sets) {
    if (set.empty()) continue;
    GpaUInt32 passes = 0;
    ASSERT_EQ(lib_.GpaCounterLibGetPassCount(counters_, set.data(), static_cast<GpaUInt32>(set.size()), &passes),
              kGpaStatusOk)
        << Errors();
    EXPECT_EQ(passes, LivePassCount(set)) << set.size() << " counters from index " << set.front();
    EXPECT_GE(passes, 1u);

    // Counters by pass: every hardware counter behind the set lands in some pass, and the placement takes
    // at least as many passes as CUPTI's schedule of the whole set.
    GpaUInt32 pass_count = 0;
    ASSERT_EQ(lib_.GpaCounterLibGetCountersByPass(counters_, static_cast<GpaUInt32>(set.size()), set.data(),
                                                  &pass_count, nullptr, nullptr),
              kGpaStatusOk);
    EXPECT_GE(pass_count, passes);
    std::vector<GpaUInt32> sizes(pass_count);
    ASSERT_EQ(lib_.GpaCounterLibGetCountersByPass(counters_, static_cast<GpaUInt32>(set.size()), set.data(),
                                                  &pass_count, sizes.data(), nullptr),
              kGpaStatusOk);
    std::vector<std::vector<GpaUInt32>> storage(pass_count);
    std::vector<GpaPassCounter> by_pass(pass_count);
    for (GpaUInt32 p = 0; p < pass_count; ++p) {
      storage[p].resize(sizes[p]);
      by_pass[p].pass_index = p;
      by_pass[p].counter_count = sizes[p];
      by_pass[p].counter_indices = storage[p].data();
    }
    ASSERT_EQ(lib_.GpaCounterLibGetCountersByPass(counters_, static_cast<GpaUInt32>(set.size()), set.data(),
                                                  &pass_count, sizes.data(), by_pass.data()),
              kGpaStatusOk);
    std::vector<GpaUInt32> placed;
    for (const auto& pass : storage) placed.insert(placed.end(), pass.begin(), pass.end());
    std::sort(placed.begin(), placed.end());
    placed.erase(std::unique(placed.begin(), placed.end()), placed.end());
    std::vector<GpaUInt32> behind;
    for (GpaUInt32 counter : set) {
      const GpaCounterInfo* info = nullptr;
      ASSERT_EQ(lib_.GpaCounterLibGetCounterInfo(counters_, counter, &info), kGpaStatusOk);
      for (GpaUInt32 k = 0; k < info->gpa_derived_counter->gpa_hw_counter_count; ++k) {
        const GpaHwCounter& hw = info->gpa_derived_counter->gpa_hw_counters[k];
        behind.push_back(hw.is_timing_block ? hw.gpu_time_bottom_to_bottom_duration : hw.gpa_hw_block_event_id);
      }
    }
    std::sort(behind.begin(), behind.end());
    behind.erase(std::unique(behind.begin(), behind.end()), behind.end());
    EXPECT_EQ(placed, behind);
  }
}

TEST_P(CudaChipContextTest, GpuBusyIsItsFormulaOverTwoCuptiMetrics) {
  GpaCounterContext with_hardware = Open(static_cast<GpaApiType>(kGpaApiCuda), Device(0x10DE, GetParam().device_id),
                                         kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(with_hardware, nullptr);
  const GpaUInt32 busy = IndexOf(with_hardware, "GPUBusy");
  // max(min(gr__cycles_active.avg / gr__cycles_elapsed.avg * 100, 100), 0); CUPTI's .avg values are float64
  // hardware counters, so they travel as their doubles' bits.
  const auto names = HardwareNamesBehind(with_hardware, busy);
  ASSERT_THAT(names, ::testing::UnorderedElementsAre("gr__cycles_active.avg", "gr__cycles_elapsed.avg"));
  const double active = 750.5;
  const double elapsed = 1000.0;
  GpaUInt64 values[2];
  std::memcpy(&values[names[0] == "gr__cycles_active.avg" ? 0 : 1], &active, sizeof active);
  std::memcpy(&values[names[0] == "gr__cycles_active.avg" ? 1 : 0], &elapsed, sizeof elapsed);
  double result = 0;
  ASSERT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(with_hardware, busy, values, 2, &result), kGpaStatusOk)
      << Errors();
  EXPECT_DOUBLE_EQ(result, 75.05);
}

TEST_P(CudaChipContextTest, ASetCuptiCannotScheduleIsRefusedAsTheLiveLibraryRefusesIt) {
  // Every derived counter together: CUPTI does not combine some units (PCIe with SM counters), and both
  // libraries say so with the same status.
  GpaUInt32 count = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetNumCounters(counters_, &count), kGpaStatusOk);
  std::vector<GpaUInt32> all(count);
  for (GpaUInt32 i = 0; i < count; ++i) all[i] = i;
  GpaUInt32 passes = 0;
  const GpaStatus status = lib_.GpaCounterLibGetPassCount(counters_, all.data(), count, &passes);
  if (status == kGpaStatusOk) {
    EXPECT_EQ(passes, LivePassCount(all));
  } else {
    EXPECT_EQ(status, kGpaStatusErrorHardwareNotSupported);
    EXPECT_THAT(Errors(), ::testing::HasSubstr("GpaCounterLibGetPassCount"));
    LivePassCount(all, status);
  }
}

INSTANTIATE_TEST_SUITE_P(Chips, CudaChipContextTest,
                         ::testing::Values(Chip{"GH100", 0x2330}, Chip{"AD102", 0x2684}, Chip{"GA100", 0x20B5}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace opengpa::testing
