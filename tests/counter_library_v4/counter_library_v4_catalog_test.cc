// The v4 table over the Vulkan and OpenGL catalogs: the same contexts, counters and engine as the v3 table of the
// same library (one registry: a context opened through either table answers through the other), GPA 4's API
// numbering (kGpaApiVulkan is 3, OpenCL is gone), GPA 4's block count and UUID layout, and derived results,
// once and over a time series, against values worked out by hand from the catalog formulas.
#include <gmock/gmock.h>

#include <array>
#include <cstring>
#include <map>
#include <string>

#include "tests/counter_library_v4/counter_library_v4_fixture.h"
#include "tests/counter_library_v4/v3_table_callers.h"

namespace opengpa::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

// GPA v3.17's view of the same library (this test sees only include/v4), called from C (v3_table_callers.h): the
// v3 table's Open (slot 2) takes the ASIC flag instead of a sample type, and v3 numbers Vulkan 5; its GpaUuid is
// 24 bytes.
constexpr GpaUInt32 kV3TableSize = 8 + 17 * sizeof(void*);
constexpr int kV3Vulkan = 5;

class CatalogV4Test : public CounterLibraryV4Test {
 protected:
  std::vector<std::string> Names(GpaCounterContext context) {
    GpaUInt32 count = 0;
    EXPECT_EQ(lib_.GpaCounterLibGetNumCounters(context, &count), kGpaStatusOk);
    std::vector<std::string> names;
    for (GpaUInt32 i = 0; i < count; ++i) {
      const char* name = nullptr;
      EXPECT_EQ(lib_.GpaCounterLibGetCounterName(context, i, &name), kGpaStatusOk);
      names.emplace_back(name != nullptr ? name : "");
    }
    return names;
  }
  // Values in GetCounterInfo's order from a name -> value map.
  std::vector<GpaUInt64> ValuesFor(GpaCounterContext with_hardware, GpaUInt32 counter,
                                   const std::map<std::string, GpaUInt64>& by_name) {
    std::vector<GpaUInt64> values;
    for (const HardwareInput& input : InputsOf(with_hardware, counter)) values.push_back(by_name.at(input.name));
    return values;
  }
};

TEST_F(CatalogV4Test, AContextOpenedThroughTheV3TableIsTheSameContextToTheV4Table) {
  std::array<void*, 18> v3_table{};
  const GpaUInt32 header[2] = {3, kV3TableSize};
  std::memcpy(v3_table.data(), header, sizeof header);
  ASSERT_EQ(GpaCounterLibGetFuncTable(v3_table.data()), kGpaStatusOk);
  GpaCounterContext from_v3 = nullptr;
  ASSERT_EQ(CallV3Open(v3_table[1 + 2], kV3Vulkan, Device(0x1002, 0x744C), kGpaOpenContextDefaultBit, 1, &from_v3),
            kGpaStatusOk);
  opened_.push_back(from_v3);
  GpaCounterContext from_v4 = Open(kGpaApiVulkan, Device(0x1002, 0x744C));
  ASSERT_NE(from_v4, nullptr);
  EXPECT_EQ(Names(from_v3), Names(from_v4));
  EXPECT_GT(Names(from_v4).size(), 10u);

  // The UUIDs agree field by field (v3's data_1 is 8 bytes on LP64 Linux, GPA 4's 4).
  for (GpaUInt32 i = 0; i < Names(from_v4).size(); ++i) {
    V3Uuid old{};
    GpaUuid now{};
    ASSERT_EQ(CallV3GetCounterUuid(v3_table[1 + 11], from_v3, i, &old), kGpaStatusOk);
    ASSERT_EQ(lib_.GpaCounterLibGetCounterUuid(from_v4, i, &now), kGpaStatusOk);
    EXPECT_EQ(now.data_1, old.data_1);
    EXPECT_EQ(now.data_2, old.data_2);
    EXPECT_EQ(now.data_3, old.data_3);
    EXPECT_EQ(std::memcmp(now.data_4, old.data_4, 8), 0);
  }
}

TEST_F(CatalogV4Test, Gpa4sVulkanValue3OpensTheVulkanCatalogNotOpenCl) {
  GpaCounterContext vulkan = Open(kGpaApiVulkan, Device(0x1002, 0x744C));
  ASSERT_NE(vulkan, nullptr);
  const auto names = Names(vulkan);
  EXPECT_THAT(names, ::testing::Contains("VSVerticesIn"));
  EXPECT_THAT(names, ::testing::Not(::testing::Contains("QueueToStartLatency")));  // opencl.json's
  GpaCounterContext opengl = Open(kGpaApiOpengl, Device(0x1002, 0x744C));
  ASSERT_NE(opengl, nullptr);
  EXPECT_THAT(Names(opengl), ::testing::Contains("SamplesPassed"));
}

TEST_F(CatalogV4Test, HardwareCountersNameGpa4sBlockCountAsTheirBlock) {
  GpaCounterContext context = Open(kGpaApiVulkan, Device(0x1002, 0x744C), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  const GpaUInt32 reuse = IndexOf(context, "VSVertexReuse");
  const GpaCounterInfo* info = nullptr;
  ASSERT_EQ(lib_.GpaCounterLibGetCounterInfo(context, reuse, &info), kGpaStatusOk);
  ASSERT_TRUE(info->is_derived_counter);
  ASSERT_EQ(info->gpa_derived_counter->gpa_hw_counter_count, 2u);
  for (GpaUInt32 k = 0; k < 2; ++k) {
    const GpaHwCounter& hw = info->gpa_derived_counter->gpa_hw_counters[k];
    EXPECT_FALSE(hw.is_timing_block);
    EXPECT_EQ(hw.gpa_hw_block, kGpaHwBlockCount);
    EXPECT_EQ(static_cast<int>(hw.gpa_hw_block), 56);
    GpaCounterParam param{};
    param.gpa_hw_counter = hw;
    GpaUInt32 index = 0;
    EXPECT_EQ(lib_.GpaCounterLibGetCounterIndex(context, &param, &index), kGpaStatusOk) << Errors();
  }
  EXPECT_THAT(InputsOf(context, reuse), ::testing::SizeIs(2));
}

TEST_F(CatalogV4Test, CatalogDevicesOfferDiscreteCountersOnly) {
  GpaSupportedSampleTypeInfo info{};
  info.vendor_id = 0x1002;
  info.device_id = 0x744C;
  for (GpaApiType api : {kGpaApiVulkan, kGpaApiOpengl}) {
    GpaContextSampleTypeFlags types = 0xFF;
    ASSERT_EQ(lib_.GpaCounterLibGetSupportedSampleTypes(api, &info, &types), kGpaStatusOk) << Errors();
    EXPECT_EQ(types, static_cast<GpaContextSampleTypeFlags>(kGpaContextSampleTypeDiscreteCounter)) << api;
  }
}

TEST_F(CatalogV4Test, VertexReuseAndPixelsPerPrimitiveAreTheirFormulasOverTheValuesGiven) {
  GpaCounterContext context = Open(kGpaApiVulkan, Device(0x1002, 0x744C), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  // VSVertexReuse = max(min((input_assembly_vertices - vertex_shader_invocations) / max(input_assembly_vertices, 1)
  // * 100, 100), 0): 1000 vertices in, 250 shaded -> 75 %.
  const GpaUInt32 reuse = IndexOf(context, "VSVertexReuse");
  EXPECT_THAT(InputsOf(context, reuse), ::testing::SizeIs(2));
  std::vector<GpaUInt64> values =
      ValuesFor(context, reuse, {{"input_assembly_vertices", 1000}, {"vertex_shader_invocations", 250}});
  double result = -1;
  ASSERT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context, reuse, values.data(), 2, &result), kGpaStatusOk);
  EXPECT_DOUBLE_EQ(result, 75.0);
  // PSPixelsPerPrimitive = fragment_shader_invocations / max(clipping_primitives, 1): 900 / 300 = 3.
  const GpaUInt32 ppp = IndexOf(context, "PSPixelsPerPrimitive");
  values = ValuesFor(context, ppp, {{"fragment_shader_invocations", 900}, {"clipping_primitives", 300}});
  ASSERT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context, ppp, values.data(), 2, &result), kGpaStatusOk);
  EXPECT_DOUBLE_EQ(result, 3.0);
}

TEST_F(CatalogV4Test, AMaliG1sCountersAndItsAttributesReachTheV4TableToo) {
  // Arm's vendor id and a Mali-G1-Ultra's product id, with 12 shader cores and 2 L2 slices as attributes (GPA 4's
  // enum and OpenGPA's extension values, which mean the same in both sets): the 124 derived counters of Arm's
  // reference beside the API's own, on Vulkan and OpenGL (docs/arm-mali.md).
  GpaHardwareAttribute attributes[] = {{kGpaHardwareAttributeNumComputeUnits, 12},
                                       {kGpaHardwareAttributeL2SliceCount, 2}};
  GpaCounterContextHardwareInfo g1 = Device(0x13B5, 0xE800);
  g1.gpa_hardware_attributes = attributes;
  g1.gpa_hardware_attribute_count = 2;
  for (GpaApiType api : {kGpaApiVulkan, kGpaApiOpengl}) {
    const std::vector<std::string> api_only = Names(Open(api, Device(0x1002, 0x744C)));
    EXPECT_EQ(Names(Open(api, g1)).size(), api_only.size() + 124) << api;
  }
  GpaCounterContext context = Open(kGpaApiVulkan, g1, kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  // "Shader core clock ratio": 6000 active cycles summed over the 12 cores = 500 per core, of 1000 GPU active
  // cycles = 50 %.
  const GpaUInt32 any_util = IndexOf(context, "MaliAnyUtil");
  std::vector<GpaUInt64> values = ValuesFor(context, any_util, {{"MaliAnyActiveCy", 6000}, {"MaliGPUActiveCy", 1000}});
  double result = -1;
  ASSERT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context, any_util, values.data(), 2, &result), kGpaStatusOk)
      << Errors();
  EXPECT_DOUBLE_EQ(result, 50.0);
  // "Read stall rate": 300 stall cycles over 2 slices = 150 of 1000 GPU active cycles = 15 %.
  const GpaUInt32 stall_rate = IndexOf(context, "MaliExtBusRdStallRate");
  values = ValuesFor(context, stall_rate, {{"MaliExtBusRdStallCy", 300}, {"MaliGPUActiveCy", 1000}});
  ASSERT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context, stall_rate, values.data(), 2, &result),
            kGpaStatusOk);
  EXPECT_DOUBLE_EQ(result, 15.0);
}

TEST_F(CatalogV4Test, SpmResultsAreEachCountersFormulaAtEachTimestampFrom16BitValues) {
  GpaCounterContext context = Open(kGpaApiOpengl, Device(0x1002, 0x744C), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  const GpaUInt32 ppp = IndexOf(context, "PSPixelsPerPrimitive");       // frag / max(clip prims, 1)
  const GpaUInt32 rejected = IndexOf(context, "ClipperPrimsRejected");  // max(clip in - clip out, 0)
  GpaUInt32 frag = 0, clip_in = 0, clip_out = 0;
  for (const auto& input : InputsOf(context, ppp)) {
    if (input.name == "GL_FRAGMENT_SHADER_INVOCATIONS") frag = input.h;
    if (input.name == "GL_CLIPPING_OUTPUT_PRIMITIVES") clip_out = input.h;
  }
  for (const auto& input : InputsOf(context, rejected)) {
    if (input.name == "GL_CLIPPING_INPUT_PRIMITIVES") clip_in = input.h;
  }
  ASSERT_NE(frag, clip_out);
  // Three columns of 16-bit values, in an order unlike the counters' (columns are found by event_index).
  const std::array<GpaUInt64, 3> timestamps = {100, 200, 300};
  const std::array<GpaSpmCounterInfo, 3> infos = {
      GpaSpmCounterInfo{0, 0, 0, clip_out}, GpaSpmCounterInfo{0, 0, 3, frag}, GpaSpmCounterInfo{0, 0, 6, clip_in}};
  const std::array<GpaUInt16, 9> values = {300, 0, 7,   // clip out
                                           900, 0, 60,  // frag
                                           310, 5, 7};  // clip in
  GpaSpmData data{};
  data.number_of_timestamps = 3;
  data.number_of_spm_counter_info = 3;
  data.number_of_counter_data = 9;
  data.number_of_bytes_per_counter_data = 2;
  data.timestamps = timestamps.data();
  data.spm_counter_info = infos.data();
  data.counter_data_16bit = values.data();
  const std::array<GpaUInt32, 2> counters = {ppp, rejected};
  std::array<double, 6> results{};
  ASSERT_EQ(lib_.GpaCounterlibComputeDerivedSpmCounterResults(context, &data, 2, counters.data(), results.data()),
            kGpaStatusOk)
      << Errors();
  EXPECT_THAT(results, ElementsAre(3.0, 0.0, 60.0 / 7.0,  // PSPixelsPerPrimitive over t = 0, 1, 2
                                   10.0, 5.0, 0.0));      // ClipperPrimsRejected
}

}  // namespace
}  // namespace opengpa::testing
