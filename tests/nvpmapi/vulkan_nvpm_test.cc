// NvPmApi on a Vulkan context (libGPUPerfAPIVK.so on lavapipe through OpenGpaNvPmCreateContextFromGpaLibrary):
// what NvPmApi can offer there and what it cannot. Counters, ids, attributes and pass counts work as on any
// context; experiments and Sample cannot, because Vulkan samples are recorded into command buffers and
// NvPmApi's BeginPass/BeginObject/Sample name none: they answer NVPM_ERROR_CONTEXT_NOT_SUPPORTED saying so
// (docs/nvpmapi.md), never an internal error.
#include <memory>
#include <string>

#include "nvpm_test_fixture.h"
#include "vulkan_device.h"

namespace opengpa::testing {
namespace {

class VulkanNvPm : public NvPmTest {
 protected:
  void SetUp() override {
    NvPmTest::SetUp();
    std::string error;
    device_ = vkwork::VulkanDevice::Create(vkwork::DevicePreference::kSoftware, &error);
    ASSERT_TRUE(device_) << "no Vulkan device (CI has lavapipe): " << error;
    auto create = reinterpret_cast<OpenGpaNvPmCreateContextFromGpaLibrary_Pfn>(
        dlsym(library_, "OpenGpaNvPmCreateContextFromGpaLibrary"));
    ASSERT_NE(create, nullptr);
    open_info_ = device_->OpenInfo();
    ASSERT_EQ(create(OPENGPA_VK_LIBRARY, &open_info_, &context_), NVPM_OK) << LastMessage();
  }
  void TearDown() override {
    if (context_ != 0) api_->DestroyContext(context_);
    NvPmTest::TearDown();
    device_.reset();
  }

  std::unique_ptr<vkwork::VulkanDevice> device_;
  GpaVkContextOpenInfo open_info_{};
  NVPMContext context_ = 0;
};

TEST_F(VulkanNvPm, CountersIdsAttributesAndPassCountsAreOffered) {
  const NVPMCounterID id = Id(context_, "GPUTime");
  NVPMUINT64 value = 0;
  EXPECT_EQ(api_->GetCounterAttribute(id, NVPMA_COUNTER_VALUE_TYPE, &value), NVPM_OK);
  ASSERT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_OK) << LastMessage();
  ASSERT_EQ(api_->ReserveObjects(context_, 1), NVPM_OK);
  NVPMUINT passes = 0;
  ASSERT_EQ(api_->BeginExperiment(context_, &passes), NVPM_OK) << LastMessage();
  EXPECT_EQ(passes, 1u);
}

TEST_F(VulkanNvPm, ExperimentsAndSampleAreContextNotSupportedSayingWhy) {
  ASSERT_EQ(api_->AddCounterByName(context_, "GPUTime"), NVPM_OK) << LastMessage();
  ASSERT_EQ(api_->ReserveObjects(context_, 1), NVPM_OK);
  NVPMUINT passes = 0;
  ASSERT_EQ(api_->BeginExperiment(context_, &passes), NVPM_OK) << LastMessage();
  EXPECT_EQ(api_->BeginPass(context_, 0), NVPM_ERROR_CONTEXT_NOT_SUPPORTED);
  EXPECT_NE(LastMessage().find("command buffer"), std::string::npos) << LastMessage();
  EXPECT_EQ(api_->EndExperiment(context_), NVPM_ERROR_EXPERIMENT_INCOMPLETE);
  NVPMUINT count = 0;
  EXPECT_EQ(api_->Sample(context_, nullptr, &count), NVPM_ERROR_CONTEXT_NOT_SUPPORTED);
  EXPECT_NE(LastMessage().find("command buffer"), std::string::npos) << LastMessage();
}

}  // namespace
}  // namespace opengpa::testing
