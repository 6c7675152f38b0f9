#include "counter_library/device_selection.h"

#include "core/backend.h"
#include "counter_library/arm_mali_counters.h"
#include "counter_library/catalog_only_context.h"
#include "counter_library/nvidia_device_ids.h"
#include "platform/logging.h"

namespace opengpa::counter_library {
namespace {

DeviceInfo IdsOf(const GpaCounterContextHardwareInfo& info, const char* what) {
  DeviceInfo device;
  device.vendor_id = info.vendor_id;
  device.device_id = info.device_id;
  device.revision_id = info.revision_id;
  device.name = fmt::format("{} catalog (vendor 0x{:04X}, device 0x{:04X}, revision 0x{:X})", what, info.vendor_id,
                            info.device_id, info.revision_id);
  return device;
}

[[maybe_unused]] GpaStatus NotBuilt(const char* function, const char* api) {
  return LogError(kGpaStatusErrorApiNotSupported, "{}: this build has no {} backend", function, api);
}

GpaStatus OpenCuda(const char* function, const GpaCounterContextHardwareInfo& info,
                   std::unique_ptr<BackendContext>* out) {
  if (info.vendor_id != kNvidiaVendorId) {
    return LogError(kGpaStatusErrorHardwareNotSupported, "{}: CUDA needs vendor_id 0x10DE (NVIDIA), not 0x{:04X}",
                    function, info.vendor_id);
  }
  const auto chip = NvidiaChipOfDeviceId(info.device_id);
  if (!chip) {
    return LogError(kGpaStatusErrorHardwareNotSupported,
                    "{}: NVIDIA device_id 0x{:04X} is not a board this library knows (see docs/counter-library.md)",
                    function, info.device_id);
  }
#ifdef OPENGPA_COUNTER_LIBRARY_WITH_CUDA
  return OpenCudaChipContext(std::string(*chip), out);
#else
  (void)out;
  return NotBuilt(function, "CUDA");
#endif
}

using CatalogOpener = GpaStatus (*)(DeviceInfo, std::unique_ptr<CatalogOnlyContext>*);

// An API's catalog context with the vendor counters `info` names: Arm's Mali G1 here (NVIDIA's sampler counters
// are added by the API's opener, which knows where they go among the API's).
[[maybe_unused]] GpaStatus OpenApiCatalog(const char* function, const GpaCounterContextHardwareInfo& info,
                                          const char* api_name, CatalogOpener open,
                                          std::unique_ptr<BackendContext>* out) {
  std::unique_ptr<CatalogOnlyContext> context;
  if (GpaStatus status = open(IdsOf(info, api_name), &context); status != kGpaStatusOk) return status;
  if (GpaStatus status = AddArmMaliCounters(function, info, context.get()); status != kGpaStatusOk) return status;
  *out = std::move(context);
  return kGpaStatusOk;
}

}  // namespace

GpaStatus OpenOfflineBackend(const char* function, int api, const GpaCounterContextHardwareInfo& info,
                             std::unique_ptr<BackendContext>* out) {
  switch (api) {
    case kGpaApiCuda: return OpenCuda(function, info, out);
    case kGpaApiVulkan:
#ifdef OPENGPA_COUNTER_LIBRARY_WITH_VULKAN
      return OpenApiCatalog(function, info, "Vulkan", &OpenVulkanCatalogContext, out);
#else
      return NotBuilt(function, "Vulkan");
#endif
    case kGpaApiOpengl:
#ifdef OPENGPA_COUNTER_LIBRARY_WITH_OPENGL
      return OpenApiCatalog(function, info, "OpenGL", &OpenOpenGlCatalogContext, out);
#else
      return NotBuilt(function, "OpenGL");
#endif
    case kGpaApiOpencl:
#ifdef OPENGPA_COUNTER_LIBRARY_WITH_OPENCL
      return OpenApiCatalog(function, info, "OpenCL", &OpenOpenClCatalogContext, out);
#else
      return NotBuilt(function, "OpenCL");
#endif
    case kGpaApiDirectx11:
    case kGpaApiDirectx12:
      return LogError(kGpaStatusErrorApiNotSupported, "{}: api {} (DirectX) has no backend on this platform", function,
                      api);
    default: return LogError(kGpaStatusErrorInvalidParameter, "{}: api {} is not a GpaApiType", function, api);
  }
}

}  // namespace opengpa::counter_library
