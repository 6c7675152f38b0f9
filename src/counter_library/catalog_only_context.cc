#include "counter_library/catalog_only_context.h"

#include <algorithm>

#include "backends/common/sampled_hardware_counters.h"
#include "backends/common/timing_pass.h"
#include "counter_library/nvidia_device_ids.h"

namespace opengpa::embedded {
extern const char kNvidiaGraphicsCatalog[];  // catalogs/nvidia_graphics.json, embedded by backends/common
}  // namespace opengpa::embedded

#include "core/backend.h"
#include "platform/logging.h"

namespace opengpa::counter_library {

GpaStatus CatalogOnlyContext::CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) {
  for (HardwareCounterIndex index : counters) {
    if (index >= hardware_.size()) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "hardware counter index {} >= {} hardware counters", index,
                      hardware_.size());
    }
  }
  std::vector<std::string> sampled;
  bool timing = false;
  for (HardwareCounterIndex index : counters) {
    if (sampler_ != nullptr && index >= first_sampled_ && index < end_sampled_) {
      sampled.push_back(hardware_[index].name);
    } else {
      timing = timing || IsTimingHardwareCounter(hardware_[index]);
    }
  }
  std::vector<nvidia::perfworks::PassConfig> plan;
  if (!sampled.empty()) {
    if (GpaStatus status = sampler_->PlanPasses(sampled, &plan); status != kGpaStatusOk) return status;
  }
  // As the live Vulkan and OpenGL backends count them (their timing counters' pass after the sampler's).
  *passes = counters.empty() ? 0 : PassesWithTimingPass(static_cast<GpaUInt32>(plan.size()), 1, timing);
  return kGpaStatusOk;
}

void CatalogOnlyContext::AddNvidiaSampledCounters(bool sampler_catalog_first) {
  if (device_.vendor_id != kNvidiaVendorId) return;
  const auto chip = NvidiaChipOfDeviceId(device_.device_id);
  if (!chip) return;
  std::string why;
  sampler_ = nvidia::GraphicsCounterSource::ForChip(std::string(*chip), &why);
  if (sampler_ == nullptr) {
    Log(kGpaLoggingMessage, "{}: no hardware counters of NVIDIA's GPU periodic sampler: {}", device_.name, why);
    return;
  }
  first_sampled_ = hardware_.size();
  for (const nvidia::GraphicsMetric& metric : sampler_->Metrics()) hardware_.push_back(DescribeSampledMetric(metric));
  end_sampled_ = hardware_.size();
  if (sampler_catalog_first) {
    catalogs_.insert(catalogs_.begin(), embedded::kNvidiaGraphicsCatalog);
  } else {
    catalogs_.emplace_back(embedded::kNvidiaGraphicsCatalog);
  }
  device_.chip = std::string(*chip);
}

void CatalogOnlyContext::AddDeclaredCounters(std::vector<HardwareCounterInfo> hardware, std::string_view catalog,
                                             std::vector<std::pair<std::string, double>> constants, std::string chip) {
  for (HardwareCounterInfo& counter : hardware) hardware_.push_back(std::move(counter));
  catalogs_.push_back(catalog);
  for (auto& constant : constants) constants_.push_back(std::move(constant));
  device_.name += " with the " + chip + " counters";
  device_.chip = std::move(chip);
}

GpaStatus CatalogOnlyContext::CreateSession(int, const std::vector<HardwareCounterIndex>&,
                                            std::unique_ptr<BackendSession>*) {
  return LogError(kGpaStatusErrorHardwareNotSupported, "a counter-library context on '{}' has no device to measure",
                  device_.name);
}

}  // namespace opengpa::counter_library
