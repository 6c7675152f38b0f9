// The answers of the test-only fake driver layer (fake_gpa_driver_layer.cc) that OpenGPA's own layer never
// gives: seeing one proves a call was passed through to the "driver".
#ifndef OPENGPA_TESTS_VULKAN_LAYER_FAKE_GPA_DRIVER_MARKERS_H_
#define OPENGPA_TESTS_VULKAN_LAYER_FAKE_GPA_DRIVER_MARKERS_H_

#include <cstdint>

#include <vulkan/vulkan.h>

constexpr std::uint64_t kFakeSessionHandle = 0xFA4E0001;
constexpr VkResult kFakeStatus = VK_EVENT_SET;       // OpenGPA's layer answers VK_SUCCESS or VK_NOT_READY
constexpr std::uint32_t kFakeShaderEngineCount = 7;  // OpenGPA's layer reports 1
constexpr VkBool32 kFakeSqThreadTracing = VK_TRUE;   // OpenGPA's layer reports VK_FALSE
constexpr const char* kFakeLayerName = "VK_LAYER_OPENGPA_test_fake_gpa_driver";

#endif  // OPENGPA_TESTS_VULKAN_LAYER_FAKE_GPA_DRIVER_MARKERS_H_
