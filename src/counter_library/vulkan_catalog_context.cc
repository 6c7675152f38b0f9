// The Vulkan catalog without a device: timestamps and every pipeline statistic, as on a device with
// timestamp queries, pipelineStatisticsQuery, geometry and tessellation shaders.
#include "backends/vulkan/vulkan_hardware_counters.h"
#include "counter_library/catalog_only_context.h"

namespace opengpa {
namespace embedded {
extern const char vulkan_catalog[];  // counters/vulkan.json, embedded by the Vulkan backend
}

namespace counter_library {

GpaStatus OpenVulkanCatalogContext(DeviceInfo device, std::unique_ptr<CatalogOnlyContext>* out) {
  VkPhysicalDeviceFeatures features{};
  features.pipelineStatisticsQuery = VK_TRUE;
  features.geometryShader = VK_TRUE;
  features.tessellationShader = VK_TRUE;
  vulkan::MeasurementCapabilities capabilities;
  capabilities.timestamps = true;
  capabilities.statistics = vulkan::SupportedStatistics(features);

  std::vector<HardwareCounterInfo> hardware;
  for (vulkan::VulkanHardwareCounter& counter : vulkan::BuildHardwareCounters(capabilities)) {
    hardware.push_back(std::move(counter.info));
  }
  auto context = std::make_unique<CatalogOnlyContext>(std::move(device), std::move(hardware), embedded::vulkan_catalog);
  context->AddNvidiaSampledCounters(/*sampler_catalog_first=*/true);  // as the live backend orders them
  *out = std::move(context);
  return kGpaStatusOk;
}

}  // namespace counter_library
}  // namespace opengpa
