#include "event_queries.h"

#include <algorithm>
#include <string>
#include <vector>

#include "device_sampler.h"
#include "layer_log.h"
#include "layer_objects.h"
#include "perf_blocks.h"
#include "platform/enum_argument.h"
#include "sampler_events.h"
#include "vk_gpa_interface_performance_counters.h"

namespace opengpa::vklayer {
namespace {

// Every event of `block` on `device`, in event-id order; false when the device does not publish the block.
bool BlockEvents(DeviceData& device, int block, std::vector<OpenGpaPerfEventInfo>* events) {
  if (block == OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER) {
    DeviceSampler* sampler = DeviceSamplerOf(device);
    if (sampler == nullptr) return false;
    for (std::uint32_t e = 0; e < sampler->EventCount(); ++e) {
      events->push_back(DescribeSamplerEvent(sampler->source(), e));
    }
    return true;
  }
  if (block == OPENGPA_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY) {
    if (device.performance_counters.empty()) return false;
    for (std::uint32_t e = 0; e < device.performance_counters.size(); ++e) {
      const PublishedPerformanceCounter& counter = device.performance_counters[e];
      OpenGpaPerfEventInfo info{};
      info.eventID = e;
      info.additive = counter.counter.unit == VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR ? VK_FALSE : VK_TRUE;
      CopyField(info.name, counter.name);
      CopyField(info.description, "the driver's VK_KHR_performance_query counter");
      events->push_back(info);
    }
    return true;
  }
  for (const PipelineStatisticEvent& event : PipelineStatisticEvents()) {
    if (event.block != block) continue;
    OpenGpaPerfEventInfo info{};
    info.eventID = event.event_id;
    info.additive = VK_TRUE;
    CopyField(info.name, event.name);
    CopyField(info.description, std::string("Vulkan pipeline statistic: ") + event.name);
    events->push_back(info);
  }
  return !events->empty();
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL GetPerfBlockEventsOPENGPA(VkDevice device, VkGpaPerfBlockAMD blockType,
                                                         uint32_t* pEventCount, OpenGpaPerfEventInfo* pEvents) {
  DeviceData* data = FindDevice(device);
  if (data == nullptr || pEventCount == nullptr) {
    LogProblem("vkGetPerfBlockEventsOPENGPA: device must be one of this layer's and pEventCount must not be NULL");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  std::lock_guard<std::mutex> lock(data->mutex);
  std::vector<OpenGpaPerfEventInfo> events;
  const int block = EnumArgument(blockType);
  if (!BlockEvents(*data, block, &events)) {
    LogProblem("vkGetPerfBlockEventsOPENGPA: block " + std::to_string(block) +
               " is not published on this device (see VkPhysicalDeviceGpaPropertiesAMD::pPerfBlocks)");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  const auto total = static_cast<std::uint32_t>(events.size());
  if (pEvents == nullptr) {
    *pEventCount = total;
    return VK_SUCCESS;
  }
  const std::uint32_t written = std::min(*pEventCount, total);
  for (std::uint32_t i = 0; i < written; ++i) pEvents[i] = events[i];
  *pEventCount = written;
  return written < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPerfCounterPassCountOPENGPA(VkDevice device, uint32_t counterCount,
                                                              const VkGpaPerfCounterAMD* pCounters,
                                                              uint32_t* pPassCount) {
  DeviceData* data = FindDevice(device);
  if (data == nullptr || pPassCount == nullptr || (counterCount > 0 && pCounters == nullptr)) {
    LogProblem(
        "vkGetPerfCounterPassCountOPENGPA: device must be one of this layer's, pPassCount must not be NULL, "
        "and pCounters must hold counterCount counters");
    return VK_ERROR_VALIDATION_FAILED_EXT;
  }
  std::lock_guard<std::mutex> lock(data->mutex);
  std::vector<std::uint32_t> sampler_events;
  for (std::uint32_t i = 0; i < counterCount; ++i) {
    const int block = EnumArgument(pCounters[i].blockType);
    std::vector<OpenGpaPerfEventInfo> events;
    if (pCounters[i].blockInstance != 0 || !BlockEvents(*data, block, &events) ||
        pCounters[i].eventID >= events.size()) {
      LogProblem("vkGetPerfCounterPassCountOPENGPA: pCounters[" + std::to_string(i) + "] (block " +
                 std::to_string(block) + ", instance " + std::to_string(pCounters[i].blockInstance) + ", event " +
                 std::to_string(pCounters[i].eventID) + ") is not a counter of this device");
      return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    if (block == OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER &&
        std::find(sampler_events.begin(), sampler_events.end(), pCounters[i].eventID) == sampler_events.end()) {
      sampler_events.push_back(pCounters[i].eventID);
    }
  }
  if (sampler_events.empty()) {
    *pPassCount = 1;
    return VK_SUCCESS;
  }
  return DeviceSamplerOf(*data)->PassCount(sampler_events, pPassCount);
}

}  // namespace opengpa::vklayer
