// libGPUPerfAPIVK.so counting a driver's VK_KHR_performance_query counters, recorded and read back, on lavapipe under
// the test driver of fake_performance_query_layer.cc (enabled through the environment, as a user enables a layer).
// Values are checked against what the work did (threads dispatched) and against GPA's own pipeline-statistics counters
// of the same samples; every test also asks the driver which of the extension's rules were broken, and expects none.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "fake_performance_query_counters.h"
#include "vulkan_gpa_fixture.h"

namespace opengpa::vktest {
namespace {

namespace fake = fake_performance_query;

// The layer between the application (and GPA) and lavapipe, as a driver would be; set before the fixture creates
// its device.
class FakeDriverEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    setenv("VK_ADD_LAYER_PATH", OPENGPA_FAKE_PERFORMANCE_QUERY_DIR, 1);
    setenv("VK_INSTANCE_LAYERS", "VK_LAYER_OPENGPA_test_fake_performance_query", 1);
    setenv("OPENGPA_VK_DEVICE", "llvmpipe", 1);
  }
};
::testing::Environment* const kFakeDriver = ::testing::AddGlobalTestEnvironment(new FakeDriverEnvironment);

class VulkanPerformanceQueryTest : public VulkanGpaTest {
 protected:
  void SetUp() override {
    VulkanGpaTest::SetUp();
    ASSERT_TRUE(device().has_performance_query())
        << "the device was not created with VK_KHR_performance_query: is VK_LAYER_OPENGPA_test_fake_performance_query "
           "enabled (VK_INSTANCE_LAYERS)?";
    get_violations_ =
        reinterpret_cast<fake::PFN_GetViolations>(vkGetDeviceProcAddr(device().device(), fake::kGetViolationsName));
    ASSERT_NE(get_violations_, nullptr);
    violations_before_ = get_violations_(nullptr, 0);
  }

  // The rules broken since the test began, one per line.
  std::string NewViolations() const {
    std::vector<char> text(1 << 16);
    const std::uint32_t count = get_violations_(text.data(), static_cast<std::uint32_t>(text.size()));
    if (count == violations_before_) return "";
    std::string all(text.data());
    std::size_t skip = 0;
    for (std::uint32_t i = 0; i < violations_before_; ++i) skip = all.find('\n', skip) + 1;
    return all.substr(skip);
  }

  GpaUInt32 PassCount(GpaSessionId session) {
    GpaUInt32 passes = 0;
    EXPECT_EQ(gpa().GpaGetPassCount(session, &passes), kGpaStatusOk);
    return passes;
  }

  // The driver's own answer for a set of its counters.
  std::uint32_t DriverPasses(const std::vector<std::uint32_t>& counters) const {
    const auto get_passes = reinterpret_cast<PFN_vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR>(
        vkGetInstanceProcAddr(device().instance(), "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR"));
    VkQueryPoolPerformanceCreateInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR;
    info.queueFamilyIndex = 0;
    info.counterIndexCount = static_cast<std::uint32_t>(counters.size());
    info.pCounterIndices = counters.data();
    std::uint32_t passes = 0;
    get_passes(device().physical_device(), &info, &passes);
    return passes;
  }

  static void DrawGrid(VkCommandBuffer command_buffer, std::uint32_t triangles) {
    target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
    grid().Draw(command_buffer, 3 * triangles, 1, kColor);
    target().End(command_buffer);
  }

  fake::PFN_GetViolations get_violations_ = nullptr;
  std::uint32_t violations_before_ = 0;
};

TEST_F(VulkanPerformanceQueryTest, TheDriversCommandScopeCountersAreOfferedUnderItsNamesAndUnits) {
  for (std::uint32_t c = 0; c < fake::kCounterCount; ++c) {
    GpaUInt32 index = 0;
    const GpaStatus status = gpa().GpaGetCounterIndex(context(), fake::kPublicNames[c], &index);
    if (c == fake::kCommandBufferScoped) {
      EXPECT_NE(status, kGpaStatusOk) << "a counter of scope COMMAND_BUFFER cannot count a GPA sample";
      continue;
    }
    ASSERT_EQ(status, kGpaStatusOk) << fake::kPublicNames[c];
    GpaUsageType usage = kGpaUsageTypeRatio;
    GpaDataType type = kGpaDataTypeUint64;
    ASSERT_EQ(gpa().GpaGetCounterUsageType(context(), index, &usage), kGpaStatusOk);
    ASSERT_EQ(gpa().GpaGetCounterDataType(context(), index, &type), kGpaStatusOk);
    if (c == fake::kPrimitivesKept) {
      EXPECT_EQ(usage, kGpaUsageTypePercentage);
      EXPECT_EQ(type, kGpaDataTypeFloat64);
    } else {
      EXPECT_EQ(usage, kGpaUsageTypeItems) << fake::kPublicNames[c];
      EXPECT_EQ(type, kGpaDataTypeUint64) << fake::kPublicNames[c] << ": integer storage (uint32 included)";
    }
  }
  EXPECT_EQ(NewViolations(), "");
}

TEST_F(VulkanPerformanceQueryTest, PassCountsAreTheDriversForItsCounters) {
  const std::vector<std::vector<std::uint32_t>> sets = {
      {fake::kComputeInvocations},
      {fake::kComputeInvocations, fake::kFragmentInvocations},
      {fake::kComputeInvocations, fake::kFragmentInvocations, fake::kVertexInvocations},
      {fake::kComputeInvocations, fake::kFragmentInvocations, fake::kVertexInvocations, fake::kPrimitivesKept},
  };
  for (const std::vector<std::uint32_t>& set : sets) {
    std::vector<std::string> names;
    for (std::uint32_t c : set) names.emplace_back(fake::kPublicNames[c]);
    names.emplace_back("GPUTime");  // timestamps take no pass of their own
    GpaSessionId session = nullptr;
    ASSERT_EQ(gpa().GpaCreateSession(context(), kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk);
    for (const std::string& name : names) {
      ASSERT_EQ(gpa().GpaEnableCounterByName(session, name.c_str()), kGpaStatusOk) << name;
    }
    EXPECT_EQ(PassCount(session), DriverPasses(set)) << set.size() << " counters";
    EXPECT_EQ(gpa().GpaDeleteSession(session), kGpaStatusOk);
  }
  EXPECT_EQ(NewViolations(), "");
}

TEST_F(VulkanPerformanceQueryTest, EveryPassCountsItsCountersOfTheSameWork) {
  std::string error;
  auto compute = CountingCompute::Create(device(), 64, &error);
  ASSERT_TRUE(compute) << error;
  GpaSessionId session =
      BeginSessionWith({fake::kPublicNames[fake::kComputeInvocations], fake::kPublicNames[fake::kFragmentInvocations],
                        fake::kPublicNames[fake::kVertexInvocations], fake::kPublicNames[fake::kPrimitivesKept],
                        "CSThreads", "VSVerticesIn", "PSPixelsIn", "GPUTime"});
  const GpaUInt32 passes = PassCount(session);
  ASSERT_EQ(passes, 2u);
  for (GpaUInt32 pass = 0; pass < passes; ++pass) {
    VkCommandBuffer command_buffer = BeginPrimary();
    GpaCommandListId list = BeginList(session, command_buffer, kGpaCommandListPrimary, pass);
    ASSERT_EQ(gpa().GpaBeginSample(0, list), kGpaStatusOk);
    compute->Dispatch(command_buffer, 5, 3, 2, 4);
    ASSERT_EQ(gpa().GpaEndSample(list), kGpaStatusOk);
    SampleGridDraw(list, 1, command_buffer, 12);
    ASSERT_EQ(gpa().GpaEndCommandList(list), kGpaStatusOk);
    ASSERT_EQ(vkEndCommandBuffer(command_buffer), VK_SUCCESS);
    ASSERT_GE(device().SubmitAndWait({command_buffer}), 0);
  }
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);

  const SampleValues dispatch = Read(session, 0);
  const SampleValues draw = Read(session, 1);
  EXPECT_EQ(dispatch.at(fake::kPublicNames[fake::kComputeInvocations]), 5 * 3 * 2 * 64);
  EXPECT_EQ(dispatch.at("CSThreads"), 5 * 3 * 2 * 64);
  EXPECT_EQ(dispatch.at(fake::kPublicNames[fake::kVertexInvocations]), 0);
  EXPECT_EQ(draw.at(fake::kPublicNames[fake::kComputeInvocations]), 0);
  EXPECT_GT(draw.at(fake::kPublicNames[fake::kVertexInvocations]), 0);
  EXPECT_EQ(draw.at(fake::kPublicNames[fake::kVertexInvocations]), draw.at("VSVerticesIn"));
  EXPECT_GT(draw.at(fake::kPublicNames[fake::kFragmentInvocations]), 0);
  EXPECT_EQ(draw.at(fake::kPublicNames[fake::kFragmentInvocations]), draw.at("PSPixelsIn"));
  EXPECT_DOUBLE_EQ(draw.at(fake::kPublicNames[fake::kPrimitivesKept]), 100.0) << "the grid lies inside the viewport";
  EXPECT_EQ(NewViolations(), "");
}

TEST_F(VulkanPerformanceQueryTest, ASampleContinuedOnAnotherPrimaryAddsItsCountsAndAveragesItsPercentages) {
  std::string error;
  auto compute = CountingCompute::Create(device(), 32, &error);
  ASSERT_TRUE(compute) << error;
  GpaSessionId session =
      BeginSessionWith({fake::kPublicNames[fake::kComputeInvocations], fake::kPublicNames[fake::kPrimitivesKept]});
  ASSERT_EQ(PassCount(session), 1u);
  VkCommandBuffer first = BeginPrimary();
  VkCommandBuffer second = BeginPrimary();
  GpaCommandListId first_list = BeginList(session, first);
  GpaCommandListId second_list = BeginList(session, second);
  ASSERT_EQ(gpa().GpaBeginSample(0, first_list), kGpaStatusOk);
  compute->Dispatch(first, 7, 1, 1, 1);
  DrawGrid(first, 10);
  ASSERT_EQ(gpa().GpaContinueSampleOnCommandList(0, second_list), kGpaStatusOk);
  compute->Dispatch(second, 3, 1, 1, 1);
  DrawGrid(second, 20);
  ASSERT_EQ(gpa().GpaEndSample(second_list), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaEndCommandList(first_list), kGpaStatusOk);
  ASSERT_EQ(gpa().GpaEndCommandList(second_list), kGpaStatusOk);
  ASSERT_EQ(vkEndCommandBuffer(first), VK_SUCCESS);
  ASSERT_EQ(vkEndCommandBuffer(second), VK_SUCCESS);
  ASSERT_GE(device().SubmitAndWait({first, second}), 0);
  ASSERT_EQ(gpa().GpaEndSession(session), kGpaStatusOk);
  const SampleValues values = Read(session, 0);
  EXPECT_EQ(values.at(fake::kPublicNames[fake::kComputeInvocations]), (7 + 3) * 32);
  EXPECT_DOUBLE_EQ(values.at(fake::kPublicNames[fake::kPrimitivesKept]), 100.0) << "each part keeps all its triangles";
  EXPECT_EQ(NewViolations(), "");
}

TEST_F(VulkanPerformanceQueryTest, ASecondaryCommandListIsRefusedWithoutMultipleQueryPools) {
  GpaSessionId session = BeginSessionWith({fake::kPublicNames[fake::kComputeInvocations]});
  VkCommandBuffer secondary = BeginSecondaryInRenderPass();
  GpaCommandListId list = nullptr;
  EXPECT_EQ(gpa().GpaBeginCommandList(session, 0, secondary, kGpaCommandListSecondary, &list), kGpaStatusErrorFailed);
  EXPECT_TRUE(ErrorMentions("performanceCounterMultipleQueryPools"));
  vkEndCommandBuffer(secondary);
  EXPECT_EQ(NewViolations(), "");
}

TEST_F(VulkanPerformanceQueryTest, TheRecordingIsCheckedAgainstTheExtensionsRules) {
  // What the tests above rely on: the driver notices broken rules. Here the profiling lock is let go (the context
  // closes), and a pool is used the wrong way on purpose.
  ASSERT_EQ(gpa().GpaCloseContext(context()), kGpaStatusOk);
  ForgetContext();
  const std::uint32_t counter = fake::kComputeInvocations;
  VkQueryPoolPerformanceCreateInfoKHR performance{};
  performance.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR;
  performance.queueFamilyIndex = 0;
  performance.counterIndexCount = 1;
  performance.pCounterIndices = &counter;
  VkQueryPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  info.pNext = &performance;
  info.queryType = VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR;
  info.queryCount = 1;
  VkQueryPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateQueryPool(device().device(), &info, nullptr, &pool), VK_SUCCESS);
  VkCommandBuffer command_buffer = BeginPrimary();  // without the lock
  vkCmdBeginQuery(command_buffer, pool, 0, 0);      // without a reset
  vkCmdEndQuery(command_buffer, pool, 0);
  vkEndCommandBuffer(command_buffer);
  VkPerformanceCounterResultKHR result{};
  vkGetQueryPoolResults(device().device(), pool, 0, 1, sizeof(result), &result, sizeof(result), VK_QUERY_RESULT_64_BIT);
  vkDestroyQueryPool(device().device(), pool, nullptr);
  const std::string violations = NewViolations();
  EXPECT_NE(violations.find("VUID-vkCmdBeginQuery-queryPool-03223"), std::string::npos) << violations;
  EXPECT_NE(violations.find("VUID-vkCmdBeginQuery-None-00807"), std::string::npos) << violations;
  EXPECT_NE(violations.find("VUID-vkGetQueryPoolResults-queryType-03230"), std::string::npos) << violations;
}

}  // namespace
}  // namespace opengpa::vktest
