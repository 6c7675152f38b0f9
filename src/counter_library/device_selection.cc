#include "counter_library/device_selection.h"

#include "core/backend.h"
#include "platform/logging.h"
#include "counter_library/catalog_only_context.h"
#include "counter_library/nvidia_device_ids.h"

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

[[maybe_unused]] GpaStatus NotBuilt(const char* api) {
  return LogError(kGpaStatusErrorApiNotSupported, "GpaCounterLibOpenCounterContext: this build has no {} backend",
                  api);
}

GpaStatus OpenCuda(const GpaCounterContextHardwareInfo& info, std::unique_ptr<BackendContext>* out) {
  if (info.vendor_id != kNvidiaVendorId) {
    return LogError(kGpaStatusErrorHardwareNotSupported,
                    "GpaCounterLibOpenCounterContext: CUDA needs vendor_id 0x10DE (NVIDIA), not 0x{:04X}",
                    info.vendor_id);
  }
  const auto chip = NvidiaChipOfDeviceId(info.device_id);
  if (!chip) {
    return LogError(kGpaStatusErrorHardwareNotSupported,
                    "GpaCounterLibOpenCounterContext: NVIDIA device_id 0x{:04X} is not a board this library knows "
                    "(see docs/counter-library.md)",
                    info.device_id);
  }
#ifdef OPENGPA_COUNTER_LIBRARY_WITH_CUDA
  return OpenCudaChipContext(std::string(*chip), out);
#else
  (void)out;
  return NotBuilt("CUDA");
#endif
}

}  // namespace

GpaStatus OpenOfflineBackend(int api, const GpaCounterContextHardwareInfo& info,
                             std::unique_ptr<BackendContext>* out) {
  switch (api) {
    case kGpaApiCuda:
      return OpenCuda(info, out);
    case kGpaApiVulkan:
#ifdef OPENGPA_COUNTER_LIBRARY_WITH_VULKAN
      return OpenVulkanCatalogContext(IdsOf(info, "Vulkan"), out);
#else
      return NotBuilt("Vulkan");
#endif
    case kGpaApiOpengl:
#ifdef OPENGPA_COUNTER_LIBRARY_WITH_OPENGL
      return OpenOpenGlCatalogContext(IdsOf(info, "OpenGL"), out);
#else
      return NotBuilt("OpenGL");
#endif
    case kGpaApiOpencl:
#ifdef OPENGPA_COUNTER_LIBRARY_WITH_OPENCL
      return OpenOpenClCatalogContext(IdsOf(info, "OpenCL"), out);
#else
      return NotBuilt("OpenCL");
#endif
    case kGpaApiDirectx11:
    case kGpaApiDirectx12:
      return LogError(kGpaStatusErrorApiNotSupported,
                      "GpaCounterLibOpenCounterContext: api {} (DirectX) has no backend on this platform",
                      api);
    default:
      return LogError(kGpaStatusErrorInvalidParameter, "GpaCounterLibOpenCounterContext: api {} is not a GpaApiType",
                      api);
  }
}

}  // namespace opengpa::counter_library
