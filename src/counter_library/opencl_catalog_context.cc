// The OpenCL catalog without a queue: the marker timestamps, which are the same on every device.
#include "backends/opencl/cl_hardware_counters.h"
#include "counter_library/catalog_only_context.h"

namespace opengpa {
namespace embedded {
extern const char kOpenClCatalog[];  // catalogs/opencl.json, embedded by the OpenCL backend
}

namespace counter_library {

GpaStatus OpenOpenClCatalogContext(DeviceInfo device, std::unique_ptr<CatalogOnlyContext>* out) {
  std::vector<HardwareCounterInfo> hardware;
  for (const cl::ClHardwareCounter& counter : cl::BuildHardwareCounters()) hardware.push_back(counter.info);
  *out = std::make_unique<CatalogOnlyContext>(std::move(device), std::move(hardware), embedded::kOpenClCatalog);
  return kGpaStatusOk;
}

}  // namespace counter_library
}  // namespace opengpa
