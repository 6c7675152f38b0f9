// VK_LAYER_OPENGPA_gpa_interface over a driver that offers VK_AMD_gpa_interface itself: the layer implements
// nothing and passes the extension through. The "driver" is the test-only fake layer under it
// (fake_gpa_driver_layer.cc, on lavapipe), both enabled through the environment as a user does, OpenGPA's
// nearer the application (the first layer named is the top one).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "fake_gpa_driver_markers.h"
#include "vk_amd_gpa_interface.h"
#include "vk_gpa_interface_statistics.h"
#include "vulkan_device.h"

namespace {

class LayerPassThroughTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("VK_ADD_LAYER_PATH", OPENGPA_VULKAN_LAYER_DIR ":" OPENGPA_FAKE_GPA_DRIVER_DIR, 1);
    setenv("VK_INSTANCE_LAYERS", "VK_LAYER_OPENGPA_gpa_interface:VK_LAYER_OPENGPA_test_fake_gpa_driver", 1);
    std::string error;
    device_ = opengpa::vkwork::VulkanDevice::Create(opengpa::vkwork::DevicePreference::kSoftware, &error);
    ASSERT_TRUE(device_) << error;
    ASSERT_TRUE(device_->has_gpa_interface()) << "the device was not created with VK_AMD_gpa_interface";
  }
  std::unique_ptr<opengpa::vkwork::VulkanDevice> device_;
};

TEST_F(LayerPassThroughTest, TheExtensionIsListedOnceAndTheDeviceIsCreatedWithIt) {
  std::uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device_->physical_device(), nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(device_->physical_device(), nullptr, &count, extensions.data());
  int listed = 0;
  for (const VkExtensionProperties& e : extensions) listed += std::strcmp(e.extensionName, "VK_AMD_gpa_interface") == 0;
  EXPECT_EQ(listed, 1);
}

TEST_F(LayerPassThroughTest, TheExtensionsCommandsAreTheDriversOwn) {
  const VkDevice device = device_->device();
  const auto create = reinterpret_cast<PFN_vkCreateGpaSessionAMD>(vkGetDeviceProcAddr(device, "vkCreateGpaSessionAMD"));
  const auto status =
      reinterpret_cast<PFN_vkGetGpaSessionStatusAMD>(vkGetDeviceProcAddr(device, "vkGetGpaSessionStatusAMD"));
  const auto destroy =
      reinterpret_cast<PFN_vkDestroyGpaSessionAMD>(vkGetDeviceProcAddr(device, "vkDestroyGpaSessionAMD"));
  ASSERT_NE(create, nullptr);
  ASSERT_NE(status, nullptr);
  ASSERT_NE(destroy, nullptr);
  VkGpaSessionCreateInfoAMD info{};
  info.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
  VkGpaSessionAMD session = VK_NULL_HANDLE;
  ASSERT_EQ(create(device, &info, nullptr, &session), VK_SUCCESS);
  EXPECT_EQ(reinterpret_cast<std::uint64_t>(session), kFakeSessionHandle);
  EXPECT_EQ(status(device, session), kFakeStatus);
  destroy(device, session, nullptr);
  // A command the "driver" lacks is not made up by the layer either.
  EXPECT_EQ(vkGetDeviceProcAddr(device, "vkCmdBeginGpaSampleAMD"), nullptr);
}

TEST_F(LayerPassThroughTest, ClientsAreToldTheCountersAreNotTheLayers) {
  // libGPUPerfAPIVK records through the extension only where this probe resolves (vulkan_functions.cc).
  EXPECT_EQ(vkGetDeviceProcAddr(device_->device(), OPENGPA_LAYER_GPA_INTERFACE_PROBE), nullptr);
}

TEST_F(LayerPassThroughTest, FeaturesAndPropertiesAreTheDrivers) {
  VkPhysicalDeviceGpaFeaturesAMD features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
  VkPhysicalDeviceFeatures2 features2{};
  features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features2.pNext = &features;
  vkGetPhysicalDeviceFeatures2(device_->physical_device(), &features2);
  EXPECT_EQ(features.sqThreadTracing, kFakeSqThreadTracing);

  VkPhysicalDeviceShaderCorePropertiesAMD core{};
  core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD;
  VkPhysicalDeviceGpaPropertiesAMD gpa{};
  gpa.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
  gpa.pNext = &core;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &gpa;
  vkGetPhysicalDeviceProperties2(device_->physical_device(), &properties);
  EXPECT_EQ(gpa.shaderEngineCount, kFakeShaderEngineCount);
  EXPECT_EQ(gpa.perfBlockCount, 0u) << "the layer's pipeline-statistics blocks are not added";
  EXPECT_EQ(core.shaderEngineCount, kFakeShaderEngineCount);
}

}  // namespace
