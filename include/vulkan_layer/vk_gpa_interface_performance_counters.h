// How OpenGPA's layer VK_LAYER_OPENGPA_gpa_interface publishes a driver's VK_KHR_performance_query counters as
// VK_AMD_gpa_interface counters (block, instance 0, event), where the driver offers that extension (NVIDIA's
// does; lavapipe's does not). docs/vulkan-layer.md has the rules; in short:
//
//   block   OPENGPA_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY, one instance. AMD's hardware blocks say nothing about
//           another vendor's counters, so the layer names the block after the extension that provides them:
//           its value is the first enum value of VK_KHR_performance_query (extension 117), outside AMD's range.
//   event   the position of the counter in the layer's list: the counters of every queue family of the device,
//           family 0 first, each counter once (matched by VkPerformanceCounterKHR::uuid), in the driver's
//           order. Only counters of scope VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR are listed: a GPA sample may
//           begin anywhere in a command buffer, which counters of command-buffer or render-pass scope forbid.
//   value   64 bits per counter in a cumulative sample's result: the counter's VkPerformanceCounterResultKHR
//           widened by its storage: int32/int64 as a signed 64-bit integer, uint32/uint64 as an unsigned one,
//           float32/float64 as the bits of an IEEE-754 double.
//
// A cumulative sample takes counters of this block only when the driver records them all in one pass
// (vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR = 1), and only in primary command buffers. Name,
// category, unit and storage of each event: vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR.
#ifndef OPENGPA_VULKAN_LAYER_VK_GPA_INTERFACE_PERFORMANCE_COUNTERS_H_
#define OPENGPA_VULKAN_LAYER_VK_GPA_INTERFACE_PERFORMANCE_COUNTERS_H_

#include "vk_amd_gpa_interface.h"

#define OPENGPA_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY ((VkGpaPerfBlockAMD)1000116000)

#endif  // OPENGPA_VULKAN_LAYER_VK_GPA_INTERFACE_PERFORMANCE_COUNTERS_H_
