// The hardware counters a Vulkan device offers: GPU timestamps around a sample and the pipeline statistics
// of VkQueryPipelineStatisticFlagBits, named after the Vulkan statistic so catalog formulas read plainly; on an
// NVIDIA GPU PerfWorks' GPU periodic sampler adds its metrics, under PerfWorks' names
// (nvidia/graphics_counter_source.h).
#ifndef OPENGPA_BACKENDS_VULKAN_VULKAN_HARDWARE_COUNTERS_H_
#define OPENGPA_BACKENDS_VULKAN_VULKAN_HARDWARE_COUNTERS_H_

#include <vector>

#include "backends/vulkan/vulkan_functions.h"
#include "backends/vulkan/vulkan_performance_counters.h"
#include "core/backend.h"
#include "nvidia/graphics_counter_source.h"

namespace opengpa::vulkan {

// Where a hardware counter's value comes from.
enum class CounterSource {
  kBottomToBottomTime,  // bottom-of-pipe before the sample to bottom-of-pipe after it (GPA's GPUTime)
  kTopToBottomTime,     // top-of-pipe before the sample to bottom-of-pipe after it
  kStartTime,           // top-of-pipe before the sample, from the session's time origin
  kEndTime,             // bottom-of-pipe after the sample, from the session's time origin
  kPipelineStatistic,   // one VkQueryPipelineStatisticFlagBits value, summed over the sample's segments
  kSampledMetric,       // a metric of the GPU periodic sampler, between engine triggers at the sample's bounds
  kPerformanceQuery,    // a counter of the driver's VK_KHR_performance_query, one query per sample segment
};

struct VulkanHardwareCounter {
  HardwareCounterInfo info;
  CounterSource source = CounterSource::kPipelineStatistic;
  VkQueryPipelineStatisticFlagBits statistic = VK_QUERY_PIPELINE_STATISTIC_FLAG_BITS_MAX_ENUM;
  bool additive = true;            // kSampledMetric: a count (summed over intervals), else a time-weighted mean;
                                   // kPerformanceQuery: summed over a sample's segments, else their mean
  std::uint32_t driver_index = 0;  // kPerformanceQuery: the counter's index in the driver's list
};

// What the device can measure, as found when the context was opened.
struct MeasurementCapabilities {
  bool timestamps = false;                       // some graphics/compute queue family has timestampValidBits > 0
  VkQueryPipelineStatisticFlags statistics = 0;  // statistics worth exposing (0 without pipelineStatisticsQuery)
};

// The statistics that mean something on a device with these features: all of them with
// pipelineStatisticsQuery, less the geometry/tessellation ones where those stages do not exist.
VkQueryPipelineStatisticFlags SupportedStatistics(const VkPhysicalDeviceFeatures& features);

std::vector<VulkanHardwareCounter> BuildHardwareCounters(const MeasurementCapabilities& capabilities);

// The sampler's metrics as hardware counters (kSampledMetric), appended after the API's own.
void AddSampledMetrics(const std::vector<nvidia::GraphicsMetric>& metrics, std::vector<VulkanHardwareCounter>* out);

// The driver's VK_KHR_performance_query counters as hardware counters (kPerformanceQuery), appended likewise.
void AddDriverCounters(const std::vector<DriverCounter>& counters, std::vector<VulkanHardwareCounter>* out);

}  // namespace opengpa::vulkan

#endif  // OPENGPA_BACKENDS_VULKAN_VULKAN_HARDWARE_COUNTERS_H_
