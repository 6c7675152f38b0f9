#include "counter_library/arm_mali_counters.h"

#include <string>
#include <vector>

#include "counter_library/arm_mali_ids.h"
#include "counter_library/mali_configuration.h"
#include "counters/catalog.h"
#include "platform/logging.h"

namespace opengpa {
namespace embedded {
extern const char kArmMaliG1Catalog[];  // catalogs/arm_mali_g1.json, embedded by src/counter_library
}  // namespace embedded

namespace counter_library {
namespace {

// The catalog's declared hardware counters as the engine lists hardware counters. The vendor's name for a raw
// counter ends its description, so a listing shows what Arm's documentation and kernel drivers call it.
GpaStatus MaliHardwareCounters(const char* function, std::vector<HardwareCounterInfo>* out) {
  Catalog catalog;
  std::string error;
  if (!ParseCatalog(embedded::kArmMaliG1Catalog, &catalog, &error)) {
    return LogError(kGpaStatusErrorFailed, "{}: the embedded Mali G1 catalog does not parse: {}", function, error);
  }
  for (HardwareCounterDefinition& counter : catalog.hardware_counters) {
    HardwareCounterInfo info;
    info.name = std::move(counter.name);
    info.group = std::move(counter.group);
    info.description = std::move(counter.description);
    if (!counter.hardware_name.empty()) info.description += " Hardware counter " + counter.hardware_name + ".";
    info.data_type = counter.data_type;
    info.usage = counter.usage;
    out->push_back(std::move(info));
  }
  return kGpaStatusOk;
}

}  // namespace

GpaStatus AddArmMaliCounters(const char* function, const GpaCounterContextHardwareInfo& info,
                             CatalogOnlyContext* context) {
  if (info.vendor_id != kArmVendorId) return kGpaStatusOk;
  const auto product = MaliG1ProductOfDeviceId(info.device_id);
  if (!product) {
    Log(kGpaLoggingMessage,
        "{}: Arm device_id 0x{:X} is no Mali G1 (arch major 14, product major 0, 1 or 3; docs/arm-mali.md): only "
        "the API's catalog, no Mali counters",
        function, info.device_id);
    return kGpaStatusOk;
  }
  MaliConfiguration configuration;
  if (GpaStatus status = ReadMaliConfiguration(function, info, &configuration); status != kGpaStatusOk) return status;
  std::vector<HardwareCounterInfo> hardware;
  if (GpaStatus status = MaliHardwareCounters(function, &hardware); status != kGpaStatusOk) return status;
  context->AddDeclaredCounters(std::move(hardware), embedded::kArmMaliG1Catalog, configuration.Constants(),
                               std::string(*product));
  return kGpaStatusOk;
}

}  // namespace counter_library
}  // namespace opengpa
