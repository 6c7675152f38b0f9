// A v2 client of libGPUPerfAPIVK.so on lavapipe. GPA_OpenContext takes the GpaVkContextOpenInfo* of the v3
// library (an OpenGPA extension to v2), and each pass is recorded into a command buffer named with
// OpenGpa2BeginPassOnCommandList. The draws of tests/vulkan, measured once through the v3 function table and
// once through v2, read the same pipeline statistics, and those equal what the draws must produce.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/loaded_gpa_library.h"
#include "gpu_objects.h"
#include "gpu_performance_api/v2/GPUPerfAPI-OpenGPA.h"
#include "tests/gpa2/gpa2_recorder.h"
#include "vulkan_device.h"

namespace opengpa::gpa2test {
namespace {

using vkwork::Geometry;
using vkwork::GraphicsPipeline;
using vkwork::RenderTarget;
using vkwork::VulkanDevice;

constexpr float kColor[4] = {0.2f, 0.4f, 0.6f, 1.0f};

class VkGpa2Test : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    device_ = VulkanDevice::Create(vkwork::DevicePreference::kSoftware, &error);
    // As tests/vulkan: a missing Vulkan device fails (CI has lavapipe), never skips.
    ASSERT_TRUE(device_) << "no Vulkan device: " << error;
    target_ = RenderTarget::Create(*device_, 128, 96, &error);
    ASSERT_TRUE(target_) << error;
    grid_ = GraphicsPipeline::Create(*device_, *target_, Geometry::kGridTriangles, &error);
    ASSERT_TRUE(grid_) << error;
    library_ = client::LoadedGpaLibrary::Load({OPENGPA_VK_LIBRARY}, &error);
    ASSERT_TRUE(library_) << error;
  }
  void TearDown() override {
    grid_.reset();
    target_.reset();
    device_.reset();
  }

  // Draws triangles[i] grid triangles inside sample i, recording into *command_buffer.
  std::vector<std::function<void()>> Draws(const std::vector<std::uint32_t>& triangles,
                                           VkCommandBuffer* command_buffer) {
    std::vector<std::function<void()>> work;
    for (std::uint32_t count : triangles) {
      work.push_back([this, count, command_buffer] {
        target_->Begin(*command_buffer, VK_SUBPASS_CONTENTS_INLINE);
        grid_->Draw(*command_buffer, 3 * count, 1, kColor);
        target_->End(*command_buffer);
      });
    }
    return work;
  }

  VkCommandBuffer BeginPrimary() {
    VkCommandBuffer command_buffer = device_->AllocateCommandBuffer(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    EXPECT_EQ(vkBeginCommandBuffer(command_buffer, &begin), VK_SUCCESS);
    return command_buffer;
  }

  // The v3 path: one session, one command buffer, sample i = work[i]; values by counter name.
  std::vector<std::map<std::string, double>> MeasureV3(const std::vector<std::string>& counters,
                                                       const std::vector<std::uint32_t>& triangles) {
    const GpaFunctionTable& gpa = library_->Table();
    std::vector<std::map<std::string, double>> values;
    GpaContextId context = nullptr;
    GpaSessionId session = nullptr;
    GpaVkContextOpenInfo open_info = device_->OpenInfo();
    EXPECT_EQ(gpa.GpaInitialize(kGpaInitializeDefaultBit), kGpaStatusOk);
    EXPECT_EQ(gpa.GpaOpenContext(&open_info, kGpaOpenContextDefaultBit, &context), kGpaStatusOk);
    EXPECT_EQ(gpa.GpaCreateSession(context, kGpaSessionSampleTypeDiscreteCounter, &session), kGpaStatusOk);
    for (const std::string& name : counters) EXPECT_EQ(gpa.GpaEnableCounterByName(session, name.c_str()), kGpaStatusOk);
    EXPECT_EQ(gpa.GpaBeginSession(session), kGpaStatusOk);
    VkCommandBuffer command_buffer = BeginPrimary();
    GpaCommandListId list = nullptr;
    EXPECT_EQ(gpa.GpaBeginCommandList(session, 0, command_buffer, kGpaCommandListPrimary, &list), kGpaStatusOk);
    auto work = Draws(triangles, &command_buffer);
    for (GpaUInt32 i = 0; i < work.size(); ++i) {
      EXPECT_EQ(gpa.GpaBeginSample(i, list), kGpaStatusOk);
      work[i]();
      EXPECT_EQ(gpa.GpaEndSample(list), kGpaStatusOk);
    }
    EXPECT_EQ(gpa.GpaEndCommandList(list), kGpaStatusOk);
    vkEndCommandBuffer(command_buffer);
    EXPECT_GE(device_->SubmitAndWait({command_buffer}), 0);
    EXPECT_EQ(gpa.GpaEndSession(session), kGpaStatusOk);
    for (GpaUInt32 i = 0; i < work.size(); ++i) {
      std::vector<GpaUInt64> words(counters.size());
      EXPECT_EQ(gpa.GpaGetSampleResult(session, i, words.size() * sizeof(GpaUInt64), words.data()), kGpaStatusOk);
      std::map<std::string, double> sample;
      for (GpaUInt32 e = 0; e < counters.size(); ++e) {
        GpaUInt32 index = 0;
        const char* name = nullptr;
        gpa.GpaGetEnabledIndex(session, e, &index);
        gpa.GpaGetCounterName(context, index, &name);
        GpaDataType type = kGpaDataTypeUint64;
        gpa.GpaGetCounterDataType(context, index, &type);
        double value = static_cast<double>(words[e]);
        if (type == kGpaDataTypeFloat64) std::memcpy(&value, &words[e], sizeof value);
        sample[name] = value;
      }
      values.push_back(sample);
    }
    EXPECT_EQ(gpa.GpaCloseContext(context), kGpaStatusOk);
    EXPECT_EQ(gpa.GpaDestroy(), kGpaStatusOk);
    return values;
  }

  // The v2 path: GPA_GetPassCount passes, each a command buffer begun with OpenGpa2BeginPassOnCommandList.
  std::vector<V2Values> MeasureV2(const std::vector<std::string>& counters, const std::vector<std::uint32_t>& triangles,
                                  std::string* error) {
    EXPECT_EQ(GPA_Initialize(), GPA_STATUS_OK);
    GpaVkContextOpenInfo open_info = device_->OpenInfo();
    EXPECT_EQ(GPA_OpenContext(&open_info), GPA_STATUS_OK);
    VkCommandBuffer command_buffer = VK_NULL_HANDLE;
    V2PassHooks hooks;
    hooks.begin = [&] {
      command_buffer = BeginPrimary();
      return OpenGpa2BeginPassOnCommandList(command_buffer);
    };
    hooks.after_end = [&] {
      vkEndCommandBuffer(command_buffer);
      EXPECT_GE(device_->SubmitAndWait({command_buffer}), 0);
    };
    auto values = RecordV2(
        counters, Draws(triangles, &command_buffer), [] {}, error, hooks);
    EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
    EXPECT_EQ(GPA_Destroy(), GPA_STATUS_OK);
    return values;
  }

  std::unique_ptr<VulkanDevice> device_;
  std::unique_ptr<RenderTarget> target_;
  std::unique_ptr<GraphicsPipeline> grid_;
  std::unique_ptr<client::LoadedGpaLibrary> library_;
};

TEST_F(VkGpa2Test, V2ReadsThePipelineStatisticsOfEachDrawAsV3DoesAndAsTheDrawsDictate) {
  const std::vector<std::uint32_t> triangles = {1, 40, 1000};
  const std::vector<std::string> counters = {"IAVerticesIn", "IAPrimitivesIn",  "VSVerticesIn",
                                             "PrimitivesIn", "ClipperPrimsOut", "PSPixelsIn"};
  const auto v3 = MeasureV3(counters, triangles);
  std::string error;
  const auto v2 = MeasureV2(counters, triangles, &error);
  ASSERT_EQ(v2.size(), triangles.size()) << error;
  ASSERT_EQ(v3.size(), triangles.size());
  for (size_t i = 0; i < triangles.size(); ++i) {
    const double m = triangles[i];
    EXPECT_EQ(v2[i].at("IAVerticesIn"), 3 * m) << "sample " << i;
    EXPECT_EQ(v2[i].at("IAPrimitivesIn"), m) << "sample " << i;
    EXPECT_EQ(v2[i].at("VSVerticesIn"), 3 * m) << "sample " << i;
    EXPECT_EQ(v2[i].at("PrimitivesIn"), m) << "sample " << i;
    for (const std::string& name : counters) EXPECT_EQ(v2[i].at(name), v3[i].at(name)) << name << ", sample " << i;
  }
  EXPECT_GT(v2.back().at("PSPixelsIn"), 0);  // the grid of 1000 triangles covers pixels (a single small one may not)
}

TEST_F(VkGpa2Test, V2TimesAreMillisecondsAndItsCountsTheV3Types) {
  ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
  GpaVkContextOpenInfo open_info = device_->OpenInfo();
  ASSERT_EQ(GPA_OpenContext(&open_info), GPA_STATUS_OK);
  gpa_uint32 gpu_time = 0, vertices = 0, clipped = 0;
  ASSERT_EQ(GPA_GetCounterIndex("GPUTime", &gpu_time), GPA_STATUS_OK);
  ASSERT_EQ(GPA_GetCounterIndex("VSVerticesIn", &vertices), GPA_STATUS_OK);
  ASSERT_EQ(GPA_GetCounterIndex("ClipperPrimsOut", &clipped), GPA_STATUS_OK);
  GPA_Usage_Type usage;
  GPA_Type type;
  ASSERT_EQ(GPA_GetCounterUsageType(gpu_time, &usage), GPA_STATUS_OK);
  EXPECT_EQ(usage, GPA_USAGE_TYPE_MILLISECONDS);  // v2's GPUTime; v3 measures nanoseconds
  ASSERT_EQ(GPA_GetCounterDataType(gpu_time, &type), GPA_STATUS_OK);
  EXPECT_EQ(type, GPA_TYPE_FLOAT64);
  ASSERT_EQ(GPA_GetCounterDataType(vertices, &type), GPA_STATUS_OK);
  EXPECT_EQ(type, GPA_TYPE_FLOAT64);  // GPA's type for VSVerticesIn (catalogs/README.md)
  ASSERT_EQ(GPA_GetCounterDataType(clipped, &type), GPA_STATUS_OK);
  EXPECT_EQ(type, GPA_TYPE_UINT64);
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_Destroy(), GPA_STATUS_OK);
}

TEST_F(VkGpa2Test, APassWithoutACommandBufferIsRefusedAndSaysWhy) {
  ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
  GpaVkContextOpenInfo open_info = device_->OpenInfo();
  ASSERT_EQ(GPA_OpenContext(&open_info), GPA_STATUS_OK);
  ASSERT_EQ(GPA_EnableCounterStr("VSVerticesIn"), GPA_STATUS_OK);
  gpa_uint32 session = 0;
  ASSERT_EQ(GPA_BeginSession(&session), GPA_STATUS_OK);
  EXPECT_EQ(GPA_BeginPass(), GPA_STATUS_ERROR_FAILED);  // Vulkan samples live in command buffers
  EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_NOT_ENOUGH_PASSES);
  EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
  EXPECT_EQ(GPA_Destroy(), GPA_STATUS_OK);
}

}  // namespace
}  // namespace opengpa::gpa2test
