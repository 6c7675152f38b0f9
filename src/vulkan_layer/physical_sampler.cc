#include "physical_sampler.h"

#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "layer_log.h"
#include "physical_device_properties.h"
#include "platform/logging.h"

namespace opengpa::vklayer {
namespace {

constexpr std::uint32_t kNvidiaVendorId = 0x10de;

// src/nvidia reports through OpenGPA's logging; in the layer its errors and messages go where the layer's own do.
void ForwardLog(GpaLoggingType /*type*/, const char* message) { LogProblem(message); }

std::unique_ptr<PhysicalSampler> FindSampler(InstanceData& instance, VkPhysicalDevice physical_device) {
  auto found = std::make_unique<PhysicalSampler>();
  VkPhysicalDeviceProperties properties{};
  instance.GetPhysicalDeviceProperties(physical_device, &properties);
  if (nvidia::GraphicsCountersSwitchedOff()) {
    found->why = "OPENGPA_GRAPHICS_HARDWARE_COUNTERS=0";
  } else if (properties.vendorID != kNvidiaVendorId) {
    found->why = "not an NVIDIA GPU";
  } else if (instance.GetPhysicalDeviceProperties2 == nullptr ||
             !DriverOffersExtension(instance, physical_device, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME)) {
    found->why = "the driver does not say where the GPU is (no VK_EXT_pci_bus_info)";
  } else {
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci{};
    pci.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT;
    VkPhysicalDeviceProperties2 properties2{};
    properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties2.pNext = &pci;
    NextProperties2(instance, physical_device, &properties2);
    found->source = nvidia::GraphicsCounterSource::ForVulkanPciBus(instance.instance, pci.pciDomain, pci.pciBus,
                                                                   pci.pciDevice, &found->why);
  }
  // Once per process for each GPU and reason: a program that creates many instances hears it once.
  static std::set<std::string> said;
  const std::string line = std::string(properties.deviceName) +
                           ": no block of hardware counters from NVIDIA's GPU periodic sampler: " + found->why;
  if (found->source == nullptr && said.insert(line).second) LogProblem(line);
  return found;
}

// Per instance: PerfWorks is given each instance's Vulkan driver while that instance lives, as libGPUPerfAPIVK gives
// it the live instance of every context it opens.
std::mutex& SamplersMutex() {
  static std::mutex mutex;
  return mutex;
}
std::map<std::pair<VkInstance, VkPhysicalDevice>, std::unique_ptr<PhysicalSampler>>& Samplers() {
  static std::map<std::pair<VkInstance, VkPhysicalDevice>, std::unique_ptr<PhysicalSampler>> samplers;
  return samplers;
}

}  // namespace

const PhysicalSampler& PhysicalSamplerOf(InstanceData& instance, VkPhysicalDevice physical_device) {
  std::lock_guard<std::mutex> lock(SamplersMutex());
  static std::once_flag logging;
  std::call_once(logging, [] { SetLoggingCallback(kGpaLoggingErrorAndMessage, &ForwardLog); });
  std::unique_ptr<PhysicalSampler>& slot = Samplers()[{instance.instance, physical_device}];
  if (slot == nullptr) slot = FindSampler(instance, physical_device);
  return *slot;
}

void ForgetPhysicalSamplers(VkInstance instance) {
  std::lock_guard<std::mutex> lock(SamplersMutex());
  auto& samplers = Samplers();
  for (auto it = samplers.begin(); it != samplers.end();) {
    it = it->first.first == instance ? samplers.erase(it) : std::next(it);
  }
}

}  // namespace opengpa::vklayer
