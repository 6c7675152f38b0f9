#include "device_sampler.h"

#include "layer_log.h"
#include "layer_objects.h"
#include "nvidia/perfworks_graphics_device.h"
#include "physical_sampler.h"

namespace opengpa::vklayer {

VkResult DeviceSampler::PassCount(const std::vector<std::uint32_t>& events, std::uint32_t* passes) const {
  SamplerEventSet set;
  std::string problem;
  if (PlanSamplerEvents(source_, events, &set, &problem) != VK_SUCCESS) {
    LogProblem("GPU periodic sampler block: " + problem);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  *passes = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(set.passes.size()));
  return VK_SUCCESS;
}

bool DeviceSampler::DriverKnown(std::string* problem) {
  if (!driver_known_) {
    nvidia::perfworks::VulkanDeviceHandles handles{device_.instance->instance, device_.physical_device, device_.device,
                                                   reinterpret_cast<void*>(device_.instance->GetInstanceProcAddr),
                                                   reinterpret_cast<void*>(device_.GetDeviceProcAddr)};
    std::size_t index = 0;
    driver_known_ = nvidia::perfworks::VulkanDeviceIndex(source_.Library(), handles, &index, &driver_problem_);
    if (*driver_known_ && index != source_.DeviceIndex()) {
      driver_known_ = false;
      driver_problem_ = "PerfWorks places this VkDevice on its GPU " + std::to_string(index) +
                        ", but the PCI address Vulkan reports is its GPU " + std::to_string(source_.DeviceIndex());
    }
  }
  *problem = driver_problem_;
  return *driver_known_;
}

VkResult DeviceSampler::RangeFor(const std::vector<std::uint32_t>& events, std::shared_ptr<SamplerRange>* range,
                                 std::vector<std::size_t>* columns) {
  const std::string refused = "vkCmdBeginGpaSampleAMD: the GPU periodic sampler's counters are refused: ";
  SamplerEventSet set;
  std::string problem;
  if (PlanSamplerEvents(source_, events, &set, &problem) != VK_SUCCESS) {
    LogProblem(refused + problem);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  if (set.passes.size() != 1) {
    // A sampler pass is one configuration of the device's counters for the whole of the recorded work: the events
    // of one sample must fit one (GPA's passes replay the work; the extension records each session once).
    LogProblem(refused + "these " + std::to_string(set.names.size()) + " events need " +
               std::to_string(set.passes.size()) +
               " sampler passes; sample at most one pass's worth at a time (vkGetPerfCounterPassCountOPENGPA)");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  if (!DriverKnown(&problem)) {
    LogProblem(refused + "engine triggers cannot be recorded on this device: " + problem);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  if (current_ != nullptr && !current_->Decoded()) {
    if (current_->Columns(set.names, columns)) {
      *range = current_;
      return VK_SUCCESS;
    }
    if (current_->Poll() == VK_NOT_READY) {
      LogProblem(refused +
                 "the sampler is counting other events for work recorded earlier that has not run yet (one sampler "
                 "configuration at a time): read the earlier sessions' results before sampling other events");
      return VK_ERROR_FEATURE_NOT_PRESENT;
    }
  }
  const std::vector<std::string> names = set.names;  // the set moves into the range
  auto fresh = std::make_shared<SamplerRange>(device_, source_, std::move(set));
  if (!fresh->Begin(&problem)) {
    LogProblem(refused + problem);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  current_ = fresh;
  current_->Columns(names, columns);
  *range = current_;
  return VK_SUCCESS;
}

DeviceSampler* DeviceSamplerOf(DeviceData& device) {
  if (!device.sampler_looked_up && device.gpa_interface_enabled && !device.pass_through) {
    device.sampler_looked_up = true;
    const PhysicalSampler& found = PhysicalSamplerOf(*device.instance, device.physical_device);
    if (found.source != nullptr) device.sampler = std::make_unique<DeviceSampler>(device, *found.source);
  }
  return device.sampler.get();
}

}  // namespace opengpa::vklayer
