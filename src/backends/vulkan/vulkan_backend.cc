// libGPUPerfAPIVK.so's backend: GpaOpenContext takes a GpaVkContextOpenInfo*.
#include "backends/vulkan/vulkan_context.h"
#include "core/backend.h"
#include "gpu_performance_api/gpu_perf_api_vk.h"
#include "platform/logging.h"

namespace opengpa {
namespace {

class VulkanBackend final : public Backend {
 public:
  GpaApiType Api() const override { return kGpaApiVulkan; }
  bool HasCommandLists() const override { return true; }

  GpaStatus OpenContext(void* api_context, GpaOpenContextFlags flags, std::unique_ptr<BackendContext>* out) override {
    constexpr GpaOpenContextFlags kClockModes = kGpaOpenContextClockModeNoneBit | kGpaOpenContextClockModePeakBit |
                                                kGpaOpenContextClockModeMinMemoryBit |
                                                kGpaOpenContextClockModeMinEngineBit;
    if (flags & kClockModes) {
      Log(kGpaLoggingMessage, "open flags 0x{:x}: Vulkan gives no control over GPU clocks; clock mode bits are ignored",
          flags);
    }
    if (get_instance_proc_addr_ == nullptr) {
      GpaStatus status = vulkan::LoadVulkanLoader(&get_instance_proc_addr_);
      if (status != kGpaStatusOk) return status;
    }
    return vulkan::VulkanContext::Open(get_instance_proc_addr_, *static_cast<const GpaVkContextOpenInfo*>(api_context),
                                       out);
  }

 private:
  PFN_vkGetInstanceProcAddr get_instance_proc_addr_ = nullptr;
};

}  // namespace

Backend& ActiveBackend() {
  static VulkanBackend backend;
  return backend;
}

}  // namespace opengpa
