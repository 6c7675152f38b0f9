// libGPUPerfAPIVK.so's backend: GpaOpenContext takes a GpaVkContextOpenInfo*, or with GPA 4's
// kGpaOpenContextVkUseInfoType2 a GpaVkContextOpenInfo2* whose resolvers reach every Vulkan function.
#include "backends/vulkan/vk_open_info2.h"
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
  GpaOpenContextFlags ApiSpecificOpenContextBits() const override { return vulkan::kOpenContextUseInfoType2; }

  GpaStatus OpenContext(void* api_context, GpaOpenContextFlags flags, std::unique_ptr<BackendContext>* out) override {
    constexpr GpaOpenContextFlags kClockModes = kGpaOpenContextClockModeNoneBit | kGpaOpenContextClockModePeakBit |
                                                kGpaOpenContextClockModeMinMemoryBit |
                                                kGpaOpenContextClockModeMinEngineBit;
    if (flags & kClockModes) {
      Log(kGpaLoggingMessage, "open flags 0x{:x}: Vulkan gives no control over GPU clocks; clock mode bits are ignored",
          flags);
    }
    if ((flags & vulkan::kOpenContextUseInfoType2) != 0) {
      const auto& info2 = *static_cast<const vulkan::OpenInfo2*>(api_context);
      if (info2.get_instance_proc_addr == nullptr || info2.get_device_proc_addr == nullptr) {
        return LogError(kGpaStatusErrorNullPointer, "GpaVkContextOpenInfo2::{} is NULL",
                        info2.get_instance_proc_addr == nullptr ? "get_instance_proc_addr" : "get_device_proc_addr");
      }
      const GpaVkContextOpenInfo handles{info2.instance, info2.physical_device, info2.device};
      return vulkan::VulkanContext::Open(info2.get_instance_proc_addr, handles, out, info2.get_device_proc_addr);
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
