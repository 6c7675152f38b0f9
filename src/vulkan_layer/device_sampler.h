// The GPU periodic sampler of one VkDevice the layer implements VK_AMD_gpa_interface on: the range (sampler_range.h)
// that cumulative samples of the sampler's block are counted in. The sampler is device-wide and holds one
// configuration at a time, so a sample asking for events outside the current range's waits for that range's work:
// once it has run and been decoded, the next sample starts a new range; before, the sample is refused (logged).
//
// Called with the device's mutex held.
#ifndef OPENGPA_VULKAN_LAYER_DEVICE_SAMPLER_H_
#define OPENGPA_VULKAN_LAYER_DEVICE_SAMPLER_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nvidia/graphics_counter_source.h"
#include "sampler_range.h"

namespace opengpa::vklayer {

struct DeviceData;

class DeviceSampler {
 public:
  DeviceSampler(DeviceData& device, const nvidia::GraphicsCounterSource& source) : device_(device), source_(source) {}

  const nvidia::GraphicsCounterSource& source() const { return source_; }
  std::uint32_t EventCount() const { return static_cast<std::uint32_t>(source_.Metrics().size()); }

  // How many sampler passes `events` need together; VK_ERROR_FEATURE_NOT_PRESENT (logged) for an unknown event.
  VkResult PassCount(const std::vector<std::uint32_t>& events, std::uint32_t* passes) const;
  // The range a sample of `events` (each once) is counted in, and each event's column there. Refused
  // (VK_ERROR_FEATURE_NOT_PRESENT, logged): an unknown event, a set of several sampler passes, a device PerfWorks
  // cannot record triggers for, a sampler held by another profiler, or a range of other events still sampling.
  VkResult RangeFor(const std::vector<std::uint32_t>& events, std::shared_ptr<SamplerRange>* range,
                    std::vector<std::size_t>* columns);

 private:
  // Whether PerfWorks knows the Vulkan driver of this device and finds the source's GPU behind it (engine triggers
  // need both); checked once.
  bool DriverKnown(std::string* problem);

  DeviceData& device_;
  const nvidia::GraphicsCounterSource& source_;
  std::shared_ptr<SamplerRange> current_;
  std::optional<bool> driver_known_;
  std::string driver_problem_;
};

// The device's sampler, found at the first need (an event query or a sample of the block), so that a client that
// never asks for the block never loads PerfWorks' Vulkan driver; nullptr where the physical device has none or the
// layer does not implement VK_AMD_gpa_interface on the device. Called with the device's mutex held.
DeviceSampler* DeviceSamplerOf(DeviceData& device);

}  // namespace opengpa::vklayer

#endif  // OPENGPA_VULKAN_LAYER_DEVICE_SAMPLER_H_
