// Opening a GPA context on a Vulkan device: what it reports, and how bad open-info is refused.
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "vulkan_gpa_fixture.h"

namespace opengpa::vktest {
namespace {

std::set<std::string> CounterNames(const GpaFunctionTable& gpa, GpaContextId context) {
  GpaUInt32 count = 0;
  EXPECT_EQ(gpa.GpaGetNumCounters(context, &count), kGpaStatusOk);
  std::set<std::string> names;
  for (GpaUInt32 i = 0; i < count; ++i) {
    const char* name = nullptr;
    EXPECT_EQ(gpa.GpaGetCounterName(context, i, &name), kGpaStatusOk);
    names.insert(name);
  }
  return names;
}

std::mutex g_messages_mutex;
std::vector<std::string> g_messages;

void RecordMessage(GpaLoggingType, const char* message) {
  std::lock_guard<std::mutex> lock(g_messages_mutex);
  g_messages.emplace_back(message);
}

// The device is created with AMD's required extension list: only OpenGPA's layer offers VK_AMD_gpa_interface on
// lavapipe or NVIDIA (ctest runs this suite once without it, once through it), and the library records through
// the extension exactly then (the layer's probe, vk_gpa_interface_statistics.h), never over the core queries.
TEST_F(VulkanGpaTest, SamplesGoThroughVkAmdGpaInterfaceExactlyWhenTheLayerProvidesIt) {
  ASSERT_EQ(gpa().GpaCloseContext(context()), kGpaStatusOk);
  ForgetContext();
  {
    std::lock_guard<std::mutex> lock(g_messages_mutex);
    g_messages.clear();
  }
  ASSERT_EQ(gpa().GpaRegisterLoggingCallback(kGpaLoggingErrorAndMessage, RecordMessage), kGpaStatusOk);
  GpaVkContextOpenInfo info = device().OpenInfo();
  GpaContextId context = nullptr;
  ASSERT_EQ(gpa().GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context), kGpaStatusOk);
  bool through_extension = false;
  {
    std::lock_guard<std::mutex> lock(g_messages_mutex);
    for (const std::string& message : g_messages) {
      through_extension =
          through_extension || message.find("recorded through VK_AMD_gpa_interface") != std::string::npos;
    }
  }
  EXPECT_EQ(through_extension, device().has_gpa_interface());
  EXPECT_EQ(gpa().GpaCloseContext(context), kGpaStatusOk);
}

TEST_F(VulkanGpaTest, ContextReportsTheVulkanDeviceNameIdsAndGeneration) {
  const VkPhysicalDeviceProperties& properties = device().properties();
  const char* name = nullptr;
  ASSERT_EQ(gpa().GpaGetDeviceName(context(), &name), kGpaStatusOk);
  EXPECT_STREQ(name, properties.deviceName);
  GpaUInt32 device_id = 0, revision_id = 0;
  ASSERT_EQ(gpa().GpaGetDeviceAndRevisionId(context(), &device_id, &revision_id), kGpaStatusOk);
  EXPECT_EQ(device_id, properties.deviceID);
  // Read as an int: kGpaHwGenerationSoftware (opengpa_ext.h) is outside GpaHwGeneration, and C++ may not load
  // it as the enum (UBSan's enum check, docs/sanitizers.md).
  int generation = kGpaHwGenerationLast;
  ASSERT_EQ(gpa().GpaGetDeviceGeneration(context(), reinterpret_cast<GpaHwGeneration*>(&generation)), kGpaStatusOk);
  if (properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
    EXPECT_EQ(generation, static_cast<int>(kGpaHwGenerationSoftware));
  } else if (properties.vendorID == 0x10DE) {
    EXPECT_EQ(generation, static_cast<int>(kGpaHwGenerationNvidia));
  }
  GpaContextSampleTypeFlags sample_types = 0;
  ASSERT_EQ(gpa().GpaGetSupportedSampleTypes(context(), &sample_types), kGpaStatusOk);
  EXPECT_EQ(sample_types, static_cast<GpaContextSampleTypeFlags>(kGpaContextSampleTypeDiscreteCounter));
}

TEST_F(VulkanGpaTest, ContextOffersTimingAndEveryPipelineStatisticCounter) {
  const std::set<std::string> names = CounterNames(gpa(), context());
  for (const char* expected : {"GPUTime", "ExecutionDuration", "ExecutionStart", "ExecutionEnd", "IAVerticesIn",
                               "IAPrimitivesIn", "VSVerticesIn", "VSVertexReuse", "PrimitivesIn", "ClipperPrimsOut",
                               "ClipperPrimsRejected", "PSPixelsIn", "PSPixelsPerPrimitive", "CSThreads"}) {
    EXPECT_EQ(names.count(expected), 1u) << expected;
  }
  if (device().has_geometry_shader()) {
    EXPECT_EQ(names.count("GSPrimsIn"), 1u);
    EXPECT_EQ(names.count("GSPrimsOut"), 1u);
  }
}

TEST_F(VulkanGpaTest, GpuTimeIsAFloatInNanosecondsInTheTimingGroup) {
  GpaUInt32 index = 0;
  ASSERT_EQ(gpa().GpaGetCounterIndex(context(), "GPUTime", &index), kGpaStatusOk);
  GpaDataType type = kGpaDataTypeLast;
  GpaUsageType usage = kGpaUsageTypeLast;
  const char* group = nullptr;
  ASSERT_EQ(gpa().GpaGetCounterDataType(context(), index, &type), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaGetCounterUsageType(context(), index, &usage), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaGetCounterGroup(context(), index, &group), kGpaStatusOk);
  EXPECT_EQ(type, kGpaDataTypeFloat64);
  EXPECT_EQ(usage, kGpaUsageTypeNanoseconds);
  EXPECT_STREQ(group, "Timing");
  // GPA's names carry GPA's data type (float64); our own counts are exact integers.
  ASSERT_EQ(gpa().GpaGetCounterIndex(context(), "CSThreads", &index), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaGetCounterDataType(context(), index, &type), kGpaStatusOk);
  EXPECT_EQ(type, kGpaDataTypeFloat64);
  ASSERT_EQ(gpa().GpaGetCounterIndex(context(), "IAVerticesIn", &index), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaGetCounterDataType(context(), index, &type), kGpaStatusOk);
  EXPECT_EQ(type, kGpaDataTypeUint64);
}

// GpaOpenContext is refused for each missing handle, and the log names the member.
TEST_F(VulkanGpaTest, OpenContextRefusesOpenInfoWithANullHandleAndNamesIt) {
  struct Case {
    const char* member;
    GpaVkContextOpenInfo info;
  };
  const GpaVkContextOpenInfo good = device().OpenInfo();
  const Case cases[] = {
      {"GpaVkContextOpenInfo::instance", {VK_NULL_HANDLE, good.physical_device, good.device}},
      {"GpaVkContextOpenInfo::physical_device", {good.instance, VK_NULL_HANDLE, good.device}},
      {"GpaVkContextOpenInfo::device", {good.instance, good.physical_device, VK_NULL_HANDLE}},
  };
  // GPA allows one context per device: close the fixture's so that the refusal is about the open-info.
  ASSERT_EQ(gpa().GpaCloseContext(context()), kGpaStatusOk);
  ForgetContext();
  for (const Case& c : cases) {
    GpaVkContextOpenInfo info = c.info;
    GpaContextId context = nullptr;
    EXPECT_EQ(gpa().GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context), kGpaStatusErrorNullPointer) << c.member;
    EXPECT_TRUE(ErrorMentions(c.member)) << c.member;
  }
  GpaContextId context = nullptr;
  EXPECT_EQ(gpa().GpaOpenContext(nullptr, kGpaOpenContextDefaultBit, &context), kGpaStatusErrorNullPointer);
  GpaVkContextOpenInfo info = good;
  ASSERT_EQ(gpa().GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context), kGpaStatusOk);
  EXPECT_EQ(gpa().GpaCloseContext(context), kGpaStatusOk);
}

// A physical device must come from the instance it is given with.
TEST_F(VulkanGpaTest, OpenContextRefusesAPhysicalDeviceFromAnotherInstance) {
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo create{};
  create.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  create.pApplicationInfo = &app;
  VkInstance other = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateInstance(&create, nullptr, &other), VK_SUCCESS);
  std::uint32_t count = 1;
  VkPhysicalDevice foreign = VK_NULL_HANDLE;
  const VkResult result = vkEnumeratePhysicalDevices(other, &count, &foreign);
  ASSERT_TRUE(result == VK_SUCCESS || result == VK_INCOMPLETE);
  ASSERT_NE(foreign, VK_NULL_HANDLE);

  ASSERT_EQ(gpa().GpaCloseContext(context()), kGpaStatusOk);
  ForgetContext();
  GpaVkContextOpenInfo info = device().OpenInfo();
  info.physical_device = foreign;
  GpaContextId context = nullptr;
  EXPECT_EQ(gpa().GpaOpenContext(&info, kGpaOpenContextDefaultBit, &context), kGpaStatusErrorInvalidParameter);
  EXPECT_TRUE(ErrorMentions("GpaVkContextOpenInfo::physical_device"));
  vkDestroyInstance(other, nullptr);
}

TEST_F(VulkanGpaTest, SessionsOfAnyVulkanCounterSetTakeOnePass) {
  for (const std::vector<std::string>& counters :
       {std::vector<std::string>{}, {"GPUTime"}, {"CSThreads"}, {"PSPixelsIn", "ExecutionEnd", "VSVertexReuse"}}) {
    GpaSessionId session = nullptr;
    ASSERT_EQ(gpa().GpaCreateSession(context(), kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk);
    if (counters.empty()) {
      ASSERT_EQ(gpa().GpaEnableAllCounters(session), kGpaStatusOk);
    }
    for (const std::string& name : counters)
      ASSERT_EQ(gpa().GpaEnableCounterByName(session, name.c_str()), kGpaStatusOk);
    GpaUInt32 passes = 0;
    ASSERT_EQ(gpa().GpaGetPassCount(session, &passes), kGpaStatusOk);
    EXPECT_EQ(passes, 1u) << counters.size() << " counters";
    EXPECT_EQ(gpa().GpaDeleteSession(session), kGpaStatusOk);
  }
}

}  // namespace
}  // namespace opengpa::vktest
