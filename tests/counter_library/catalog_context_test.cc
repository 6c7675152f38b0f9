// Counter contexts on the Vulkan, OpenGL and OpenCL catalogs, checked against the catalog files
// themselves: every counter in catalog order with its group, description, type and usage; the hardware
// counters behind a derived counter; one pass for any set; a derived result against its formula by hand.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "counter_library_fixture.h"

namespace opengpa::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

nlohmann::json ReadCatalog(const std::string& file) {
  std::ifstream in(std::string(OPENGPA_CATALOG_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

struct CatalogCase {
  GpaApiType api;
  const char* file;
};

class CatalogContextTest : public CounterLibraryTest, public ::testing::WithParamInterface<CatalogCase> {};

TEST_P(CatalogContextTest, ListsEveryCatalogCounterInOrderWithItsProperties) {
  // Any vendor but NVIDIA's: their catalogs do not depend on it (an AMD id here, an Intel one in the next test;
  // an NVIDIA board on Vulkan or OpenGL adds its chip's sampler counters, tests/python/test_counters_offline.py).
  GpaCounterContext context = Open(GetParam().api, Device(0x1002, 0x744C));
  ASSERT_NE(context, nullptr);
  const nlohmann::json catalog = ReadCatalog(GetParam().file);
  GpaUInt32 count = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetNumCounters(context, &count), kGpaStatusOk);
  ASSERT_EQ(count, catalog["counters"].size());
  for (GpaUInt32 i = 0; i < count; ++i) {
    const nlohmann::json& expected = catalog["counters"][i];
    const char* text = nullptr;
    ASSERT_EQ(lib_.GpaCounterLibGetCounterName(context, i, &text), kGpaStatusOk);
    EXPECT_EQ(text, expected["name"].get<std::string>());
    ASSERT_EQ(lib_.GpaCounterLibGetCounterGroup(context, i, &text), kGpaStatusOk);
    EXPECT_EQ(text, expected["group"].get<std::string>());
    ASSERT_EQ(lib_.GpaCounterLibGetCounterDescription(context, i, &text), kGpaStatusOk);
    EXPECT_EQ(text, expected["description"].get<std::string>());
    GpaDataType type = kGpaDataTypeLast;
    ASSERT_EQ(lib_.GpaCounterLibGetCounterDataType(context, i, &type), kGpaStatusOk);
    EXPECT_EQ(type, expected["type"] == "uint64" ? kGpaDataTypeUint64 : kGpaDataTypeFloat64) << expected["name"];
    GpaCounterSampleType sample_type{};
    ASSERT_EQ(lib_.GpaCounterLibGetCounterSampleType(context, i, &sample_type), kGpaStatusOk);
    EXPECT_EQ(sample_type, kGpaCounterSampleTypeDiscrete);
    const GpaCounterInfo* info = nullptr;
    ASSERT_EQ(lib_.GpaCounterLibGetCounterInfo(context, i, &info), kGpaStatusOk);
    ASSERT_TRUE(info->is_derived_counter);
    EXPECT_GE(info->gpa_derived_counter->gpa_hw_counter_count, 1u);
    GpaUsageType usage{};
    ASSERT_EQ(lib_.GpaCounterLibGetCounterUsageType(context, i, &usage), kGpaStatusOk);
    EXPECT_EQ(info->gpa_derived_counter->counter_usage_type, usage);
  }
}

TEST_P(CatalogContextTest, AnySetIsOnePassHoldingEveryHardwareCounterBehindIt) {
  GpaCounterContext context = Open(GetParam().api, Device(0x8086, 0x56A0));
  ASSERT_NE(context, nullptr);
  GpaUInt32 count = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetNumCounters(context, &count), kGpaStatusOk);
  std::vector<GpaUInt32> all(count);
  for (GpaUInt32 i = 0; i < count; ++i) all[i] = i;
  GpaUInt32 passes = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetPassCount(context, all.data(), count, &passes), kGpaStatusOk);
  EXPECT_EQ(passes, 1u);
  ASSERT_EQ(lib_.GpaCounterLibGetPassCount(context, all.data(), 1, &passes), kGpaStatusOk);
  EXPECT_EQ(passes, 1u);

  GpaUInt32 pass_count = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetCountersByPass(context, count, all.data(), &pass_count, nullptr, nullptr),
            kGpaStatusOk);
  ASSERT_EQ(pass_count, 1u);
  GpaUInt32 in_pass = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetCountersByPass(context, count, all.data(), &pass_count, &in_pass, nullptr),
            kGpaStatusOk);
  std::vector<GpaUInt32> indices(in_pass);
  GpaPassCounter pass{};  // the caller names the pass and the room it gives, as AMD's clients do
  pass.pass_index = 0;
  pass.counter_count = in_pass;
  pass.counter_indices = indices.data();
  ASSERT_EQ(lib_.GpaCounterLibGetCountersByPass(context, count, all.data(), &pass_count, &in_pass, &pass),
            kGpaStatusOk);
  EXPECT_EQ(pass.pass_index, 0u);
  EXPECT_EQ(pass.counter_count, in_pass);

  // The pass holds exactly the distinct hardware counters behind the set (as GpaHwCounter names them).
  std::vector<GpaUInt32> behind;
  for (GpaUInt32 i = 0; i < count; ++i) {
    const GpaCounterInfo* info = nullptr;
    ASSERT_EQ(lib_.GpaCounterLibGetCounterInfo(context, i, &info), kGpaStatusOk);
    for (GpaUInt32 k = 0; k < info->gpa_derived_counter->gpa_hw_counter_count; ++k) {
      const GpaHwCounter& hw = info->gpa_derived_counter->gpa_hw_counters[k];
      behind.push_back(hw.is_timing_block ? hw.gpu_time_bottom_to_bottom_duration : hw.gpa_hw_block_event_id);
    }
  }
  std::sort(behind.begin(), behind.end());
  behind.erase(std::unique(behind.begin(), behind.end()), behind.end());
  EXPECT_EQ(indices, behind);
}

TEST_P(CatalogContextTest, HardwareCountersAreExposedAfterTheDerivedOnesWhenEnabled) {
  GpaCounterContext derived_only = Open(GetParam().api, Device(0x8086, 0x56A0));
  GpaCounterContext with_hardware =
      Open(GetParam().api, Device(0x8086, 0x56A0), kGpaOpenContextEnableHardwareCountersBit);
  GpaCounterContext hardware_only =
      Open(GetParam().api, Device(0x8086, 0x56A0),
           kGpaOpenContextEnableHardwareCountersBit | kGpaOpenContextHideDerivedCountersBit);
  ASSERT_NE(hardware_only, nullptr);
  const auto derived = Names(derived_only);
  const auto all = Names(with_hardware);
  const auto hardware = Names(hardware_only);
  ASSERT_EQ(all.size(), derived.size() + hardware.size());
  EXPECT_EQ(std::vector<std::string>(all.begin(), all.begin() + derived.size()), derived);
  EXPECT_EQ(std::vector<std::string>(all.begin() + derived.size(), all.end()), hardware);
  // A hardware counter's info is the hardware counter itself; it has no derived result.
  const GpaCounterInfo* info = nullptr;
  ASSERT_EQ(lib_.GpaCounterLibGetCounterInfo(hardware_only, 0, &info), kGpaStatusOk);
  EXPECT_FALSE(info->is_derived_counter);
  GpaCounterParam param{};
  param.gpa_hw_counter = *info->gpa_hw_counter;
  GpaUInt32 index = 99;
  ASSERT_EQ(lib_.GpaCounterLibGetCounterIndex(hardware_only, &param, &index), kGpaStatusOk);
  EXPECT_EQ(index, 0u);
  const GpaUInt64 value = 7;
  double result = 0;
  EXPECT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(hardware_only, 0, &value, 1, &result), kGpaStatusErrorFailed);
  EXPECT_THAT(Errors(), ::testing::HasSubstr("is a hardware counter, not derived"));
}

INSTANTIATE_TEST_SUITE_P(Apis, CatalogContextTest,
                         ::testing::Values(CatalogCase{kGpaApiVulkan, "vulkan.json"},
                                           CatalogCase{kGpaApiOpengl, "opengl.json"},
                                           CatalogCase{kGpaApiOpencl, "opencl.json"}),
                         [](const auto& info) {
                           return std::string(info.param.file).substr(0, std::strlen(info.param.file) - 5);
                         });

TEST_F(CounterLibraryTest, VulkanVertexReuseNamesItsTwoStatisticsAndFollowsItsFormula) {
  GpaCounterContext context = Open(kGpaApiVulkan, Device(0x1002, 0x744C), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  const GpaUInt32 reuse = IndexOf(context, "vsvertexreuse");  // case-insensitive, as GpaGetCounterIndex
  // Hardware counters are listed in ascending hardware order: input assembly before vertex shader.
  EXPECT_THAT(HardwareNamesBehind(context, reuse), ElementsAre("input_assembly_vertices", "vertex_shader_invocations"));
  // max(min((IAVertices - VSInvocations) / max(IAVertices, 1) * 100, 100), 0)
  const GpaUInt64 values[] = {1000, 250};
  double result = -1;
  ASSERT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context, reuse, values, 2, &result), kGpaStatusOk);
  EXPECT_DOUBLE_EQ(result, (1000.0 - 250.0) / 1000.0 * 100.0);
  const GpaUInt64 more_invocations[] = {100, 400};  // clamped at 0
  ASSERT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context, reuse, more_invocations, 2, &result), kGpaStatusOk);
  EXPECT_DOUBLE_EQ(result, 0.0);
}

TEST_F(CounterLibraryTest, OpenClQueueLatencyIsItsFormulaOverTheMarkerTimes) {
  GpaCounterContext context = Open(kGpaApiOpencl, Device(0x10DE, 0x2330), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  const GpaUInt32 latency = IndexOf(context, "QueueToStartLatency");
  const auto names = HardwareNamesBehind(context, latency);
  ASSERT_THAT(names, UnorderedElementsAre("BeginMarkerEnd", "BeginMarkerQueued"));
  // max(BeginMarkerEnd - BeginMarkerQueued, 0), the values given in the order GetCounterInfo lists them.
  const bool end_first = names[0] == "BeginMarkerEnd";
  const GpaUInt64 values[] = {end_first ? 5000u : 1200u, end_first ? 1200u : 5000u};
  double result = 0;
  ASSERT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context, latency, values, 2, &result), kGpaStatusOk);
  EXPECT_DOUBLE_EQ(result, 3800.0);
}

}  // namespace
}  // namespace opengpa::testing
