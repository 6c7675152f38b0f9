// What the layer adds to the device: its extensions, VK_AMD_gpa_interface's features and properties,
// VK_AMD_shader_core_properties from what the device reports, and the clocks (reported, never changed).
#include <climits>
#include <cstring>
#include <set>

#include "layer_fixture.h"
#include "vk_gpa_interface_statistics.h"

namespace opengpa::layertest {
namespace {

using LayerDeviceTest = LayerTest;

TEST_F(LayerDeviceTest, ListsAmdsRequiredDeviceExtensionsOnTopOfTheDrivers) {
  std::uint32_t count = 0;
  ASSERT_EQ(vkEnumerateDeviceExtensionProperties(device().physical_device(), nullptr, &count, nullptr), VK_SUCCESS);
  std::vector<VkExtensionProperties> extensions(count);
  ASSERT_EQ(vkEnumerateDeviceExtensionProperties(device().physical_device(), nullptr, &count, extensions.data()),
            VK_SUCCESS);
  std::set<std::string> names;
  for (const VkExtensionProperties& e : extensions) names.insert(e.extensionName);
  for (const char* name : {AMD_GPA_REQUIRED_DEVICE_EXTENSION_NAME_LIST}) EXPECT_EQ(names.count(name), 1u) << name;
  EXPECT_EQ(names.count(VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME), 1u) << "the driver's own extensions are kept";

  // Asked by the layer's name: its two extensions only; a short array gets VK_INCOMPLETE.
  ASSERT_EQ(vkEnumerateDeviceExtensionProperties(device().physical_device(), "VK_LAYER_OPENGPA_gpa_interface", &count,
                                                 nullptr),
            VK_SUCCESS);
  EXPECT_EQ(count, 2u);
  VkExtensionProperties first{};
  count = 1;
  EXPECT_EQ(vkEnumerateDeviceExtensionProperties(device().physical_device(), "VK_LAYER_OPENGPA_gpa_interface", &count,
                                                 &first),
            VK_INCOMPLETE);
  EXPECT_STREQ(first.extensionName, VK_AMD_GPA_INTERFACE_EXTENSION_NAME);
}

// The probe resolves where the layer implements the extension (here: no driver below offers it), so clients
// such as libGPUPerfAPIVK know the counters follow the layer's documented mapping.
TEST_F(LayerDeviceTest, TheProbeTellsClientsTheLayerImplementsTheExtension) {
  EXPECT_NE(vkGetDeviceProcAddr(vk(), OPENGPA_LAYER_GPA_INTERFACE_PROBE), nullptr);
}

TEST_F(LayerDeviceTest, FeaturesOfferCountersButNoTracesNorClockModes) {
  VkPhysicalDeviceGpaFeaturesAMD gpa_features{};
  gpa_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
  gpa_features.streamingPerfCounters = gpa_features.sqThreadTracing = gpa_features.clockModes = VK_TRUE;
  VkPhysicalDeviceHostQueryResetFeatures reset{};
  reset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
  reset.pNext = &gpa_features;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &reset;
  vkGetPhysicalDeviceFeatures2(device().physical_device(), &features);
  EXPECT_EQ(gpa_features.perfCounters, features.features.pipelineStatisticsQuery);
  EXPECT_EQ(gpa_features.streamingPerfCounters, VK_FALSE);
  EXPECT_EQ(gpa_features.sqThreadTracing, VK_FALSE);
  EXPECT_EQ(gpa_features.clockModes, VK_FALSE);
  // The chain is given back as it was, the driver's structs filled.
  EXPECT_EQ(features.pNext, &reset);
  EXPECT_EQ(reset.pNext, &gpa_features);
  EXPECT_EQ(reset.hostQueryReset, VK_TRUE);
}

TEST_F(LayerDeviceTest, PerfBlocksListTheDocumentedPipelineStatisticEvents) {
  VkPhysicalDeviceGpaPropertiesAMD gpa_properties{};
  gpa_properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &gpa_properties;
  vkGetPhysicalDeviceProperties2(device().physical_device(), &properties);
  // IA, VGT, PA, SPI; then, where the driver offers VK_KHR_performance_query, its counters' block
  // (layer_performance_counters_test.cc).
  ASSERT_GE(gpa_properties.perfBlockCount, 4u);
  std::vector<VkGpaPerfBlockPropertiesAMD> blocks(gpa_properties.perfBlockCount);
  gpa_properties.pPerfBlocks = blocks.data();
  vkGetPhysicalDeviceProperties2(device().physical_device(), &properties);
  ASSERT_EQ(gpa_properties.perfBlockCount, blocks.size());
  blocks.resize(4);
  std::uint32_t events = 0;
  for (const VkGpaPerfBlockPropertiesAMD& block : blocks) {
    EXPECT_EQ(block.instanceCount, 1u);
    EXPECT_EQ(block.maxGlobalOnlyCounters, block.maxEventID + 1);
    EXPECT_EQ(block.maxStreamingCounters, 0u);
    events += block.maxEventID + 1;
  }
  EXPECT_EQ(blocks[0].blockType, VK_GPA_PERF_BLOCK_IA_AMD);
  EXPECT_EQ(blocks[1].blockType, VK_GPA_PERF_BLOCK_VGT_AMD);
  EXPECT_EQ(blocks[2].blockType, VK_GPA_PERF_BLOCK_PA_AMD);
  EXPECT_EQ(blocks[3].blockType, VK_GPA_PERF_BLOCK_SPI_AMD);
  EXPECT_EQ(events, 11u) << "the eleven core pipeline statistics";
  EXPECT_EQ(gpa_properties.maxSqttSeBufferSize, 0u);

  // A short array is filled as far as it goes.
  gpa_properties.perfBlockCount = 1;
  vkGetPhysicalDeviceProperties2(device().physical_device(), &properties);
  EXPECT_EQ(gpa_properties.perfBlockCount, 1u);
}

TEST_F(LayerDeviceTest, ShaderCorePropertiesComeFromWhatTheDeviceReports) {
  VkPhysicalDeviceShaderCorePropertiesAMD core{};
  core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD;
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  subgroup.pNext = &core;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(device().physical_device(), &properties);
  RecordProperty("wavefrontSize", std::to_string(core.wavefrontSize));
  RecordProperty("computeUnitsPerShaderArray", std::to_string(core.computeUnitsPerShaderArray));
  RecordProperty("wavefrontsPerSimd", std::to_string(core.wavefrontsPerSimd));
  EXPECT_EQ(core.wavefrontSize, subgroup.subgroupSize);
  EXPECT_GT(core.wavefrontSize, 0u);
  EXPECT_EQ(core.shaderEngineCount, 1u);
  EXPECT_EQ(core.shaderArraysPerEngineCount, 1u);
  EXPECT_GT(core.computeUnitsPerShaderArray, 0u) << "SMs (NVIDIA) or host threads (CPU device)";
  EXPECT_EQ(core.vgprsPerSimd, 0u) << "unknown outside AMD";
}

TEST_F(LayerDeviceTest, ClocksAreReportedAndOnlyTheDefaultModeIsAccepted) {
  VkGpaDeviceGetClockInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD;
  ASSERT_EQ(gpa().GetGpaDeviceClockInfo(vk(), &info), VK_SUCCESS);
  RecordProperty("engineClockFrequency", std::to_string(info.engineClockFrequency));
  RecordProperty("memoryClockFrequency", std::to_string(info.memoryClockFrequency));
  RecordProperty("engineClockRatioToPeak", std::to_string(info.engineClockRatioToPeak));
  RecordProperty("memoryClockRatioToPeak", std::to_string(info.memoryClockRatioToPeak));
  EXPECT_GE(info.engineClockRatioToPeak, 0.0f);
  EXPECT_LE(info.engineClockRatioToPeak, 1.5f);
  if (device().properties().vendorID == 0x10DE) {
    EXPECT_GT(info.engineClockFrequency, 0u) << "NVML's graphics clock";
    EXPECT_GT(info.memoryClockFrequency, 0u) << "NVML's memory clock";
  }

  VkGpaDeviceClockModeInfoAMD mode{};
  mode.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD;
  mode.clockMode = VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD;
  EXPECT_EQ(gpa().SetGpaDeviceClockMode(vk(), &mode), VK_SUCCESS);
  mode.clockMode = VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD;
  mode.engineClockRatioToPeak = -1.0f;
  EXPECT_EQ(gpa().SetGpaDeviceClockMode(vk(), &mode), VK_SUCCESS);
  EXPECT_GE(mode.engineClockRatioToPeak, 0.0f) << "QUERY fills the ratios";
  for (VkGpaDeviceClockModeAMD refused :
       {VK_GPA_DEVICE_CLOCK_MODE_PROFILING_AMD, VK_GPA_DEVICE_CLOCK_MODE_MIN_MEMORY_AMD,
        VK_GPA_DEVICE_CLOCK_MODE_MIN_ENGINE_AMD, VK_GPA_DEVICE_CLOCK_MODE_PEAK_AMD}) {
    mode.clockMode = refused;
    std::string messages =
        LayerMessages([&] { EXPECT_EQ(gpa().SetGpaDeviceClockMode(vk(), &mode), VK_ERROR_FEATURE_NOT_PRESENT); });
    EXPECT_NE(messages.find("never changes them"), std::string::npos) << messages;
  }
  mode.clockMode = static_cast<VkGpaDeviceClockModeAMD>(42);
  LayerMessages([&] { EXPECT_EQ(gpa().SetGpaDeviceClockMode(vk(), &mode), VK_ERROR_VALIDATION_FAILED_EXT); });
  // Values outside the enum's range, as C may store them: read as ints (UBSan fails the sanitizer run otherwise).
  for (int bad : {-1, INT_MIN}) {
    StoreInt(&mode.clockMode, bad);
    const std::string messages =
        LayerMessages([&] { EXPECT_EQ(gpa().SetGpaDeviceClockMode(vk(), &mode), VK_ERROR_VALIDATION_FAILED_EXT); });
    EXPECT_NE(messages.find("clockMode " + std::to_string(bad) + " is not"), std::string::npos) << messages;
  }
  mode.clockMode = VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD;
  StoreInt(&mode.sType, -1);
  LayerMessages([&] { EXPECT_EQ(gpa().SetGpaDeviceClockMode(vk(), &mode), VK_ERROR_VALIDATION_FAILED_EXT); });
  VkGpaDeviceGetClockInfoAMD bad_info{};
  StoreInt(&bad_info.sType, INT_MIN);
  LayerMessages([&] { EXPECT_EQ(gpa().GetGpaDeviceClockInfo(vk(), &bad_info), VK_ERROR_VALIDATION_FAILED_EXT); });
  LayerMessages([&] { EXPECT_EQ(gpa().SetGpaDeviceClockMode(vk(), nullptr), VK_ERROR_VALIDATION_FAILED_EXT); });
}

}  // namespace
}  // namespace opengpa::layertest
