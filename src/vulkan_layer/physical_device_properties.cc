#include "physical_device_properties.h"

#include <cstring>
#include <thread>
#include <vector>

#include "perf_blocks.h"
#include "performance_counters.h"
#include "sampler_events.h"

namespace opengpa::vklayer {

bool DriverOffersExtension(InstanceData& instance, VkPhysicalDevice physical_device, const std::string& name) {
  std::uint32_t count = 0;
  if (instance.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr) != VK_SUCCESS) {
    return false;
  }
  std::vector<VkExtensionProperties> extensions(count);
  if (instance.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, extensions.data()) < 0) {
    return false;
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    if (name == extensions[i].extensionName) return true;
  }
  return false;
}

void FillGpaFeatures(VkPhysicalDeviceGpaFeaturesAMD* features, bool pipeline_statistics_query,
                     bool performance_counters) {
  features->perfCounters = pipeline_statistics_query || performance_counters ? VK_TRUE : VK_FALSE;
  features->streamingPerfCounters = VK_FALSE;  // no SPM
  features->sqThreadTracing = VK_FALSE;        // no SQTT
  features->clockModes = VK_FALSE;             // clocks are reported, never set
}

void FillGpaProperties(VkPhysicalDeviceGpaPropertiesAMD* properties, std::uint32_t performance_counter_count,
                       std::uint32_t sampler_event_count) {
  std::vector<VkGpaPerfBlockPropertiesAMD> blocks = PerfBlockProperties();
  if (performance_counter_count > 0) blocks.push_back(PerformanceCounterBlock(performance_counter_count));
  if (sampler_event_count > 0) blocks.push_back(SamplerBlock(sampler_event_count));
  properties->flags = 0;
  properties->maxSqttSeBufferSize = 0;
  properties->shaderEngineCount = 1;  // as VkPhysicalDeviceShaderCorePropertiesAMD::shaderEngineCount
  if (properties->pPerfBlocks == nullptr) {
    properties->perfBlockCount = static_cast<std::uint32_t>(blocks.size());
    return;
  }
  const std::uint32_t written =
      std::min<std::uint32_t>(properties->perfBlockCount, static_cast<std::uint32_t>(blocks.size()));
  for (std::uint32_t i = 0; i < written; ++i) properties->pPerfBlocks[i] = blocks[i];
  properties->perfBlockCount = written;
}

void FillGpaProperties2(VkPhysicalDeviceGpaProperties2AMD* properties) {
  properties->revisionId = 0;  // AMD's hardware revision: no meaning on other devices (unknown)
}

void NextFeatures2(InstanceData& instance, VkPhysicalDevice physical_device, VkPhysicalDeviceFeatures2* features) {
  if (instance.GetPhysicalDeviceFeatures2 != nullptr) instance.GetPhysicalDeviceFeatures2(physical_device, features);
}

void NextProperties2(InstanceData& instance, VkPhysicalDevice physical_device,
                     VkPhysicalDeviceProperties2* properties) {
  if (instance.GetPhysicalDeviceProperties2 != nullptr) {
    instance.GetPhysicalDeviceProperties2(physical_device, properties);
  }
}

void FillShaderCoreProperties(InstanceData& instance, VkPhysicalDevice physical_device,
                              VkPhysicalDeviceShaderCorePropertiesAMD* out) {
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm{};
  sm.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV;
  const bool has_sm_builtins =
      DriverOffersExtension(instance, physical_device, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
  if (has_sm_builtins) subgroup.pNext = &sm;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &subgroup;
  NextProperties2(instance, physical_device, &properties);

  // AMD's hierarchy is shader engines > shader arrays > compute units > SIMDs > wavefronts. Other devices
  // report one engine of one array whose compute units are the device's multiprocessors (NVIDIA: SMs, from
  // VK_NV_shader_sm_builtins; a CPU device: the host's hardware threads), each one "SIMD" holding as many
  // wavefronts (warps) as a multiprocessor keeps resident.
  out->shaderEngineCount = 1;
  out->shaderArraysPerEngineCount = 1;
  out->simdPerComputeUnit = 1;
  out->wavefrontSize = subgroup.subgroupSize;
  if (has_sm_builtins) {
    out->computeUnitsPerShaderArray = sm.shaderSMCount;
    out->wavefrontsPerSimd = sm.shaderWarpsPerSM;
  } else if (properties.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
    out->computeUnitsPerShaderArray = std::thread::hardware_concurrency();
    out->wavefrontsPerSimd = 1;
  } else {
    out->computeUnitsPerShaderArray = 0;  // unknown
    out->wavefrontsPerSimd = 0;           // unknown
  }
  // Scalar and vector register files are AMD's: no Vulkan query reports them for other devices (unknown).
  out->sgprsPerSimd = 0;
  out->minSgprAllocation = 0;
  out->maxSgprAllocation = 0;
  out->sgprAllocationGranularity = 0;
  out->vgprsPerSimd = 0;
  out->minVgprAllocation = 0;
  out->maxVgprAllocation = 0;
  out->vgprAllocationGranularity = 0;
}

}  // namespace opengpa::vklayer
