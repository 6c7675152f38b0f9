#include "nvidia/graphics_counter_source.h"

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "nvidia/gpu_processes.h"
#include "nvidia/perfworks_graphics_device.h"
#include "platform/logging.h"
#include "platform/text_affixes.h"

namespace opengpa::nvidia {
namespace {

using perfworks::MetricDescription;

// The metrics one sampler pass of `chip` can collect, in the forms that aggregate over several intervals.
std::vector<GraphicsMetric> SampleableMetrics(const perfworks::ChipMetrics& chip) {
  std::vector<GraphicsMetric> metrics;
  for (MetricDescription& described : chip.ListMetrics()) {
    const bool counter = described.type == perfworks::kMetricCounter;
    const bool wanted = counter                                     ? EndsWith(described.name, ".sum")
                        : described.type == perfworks::kMetricRatio ? EndsWith(described.name, ".pct")
                                                                    : true;
    if (!wanted || !chip.IsSampleable(described.name)) continue;
    metrics.push_back({std::move(described), counter});
  }
  return metrics;
}

// Listing and checking a chip's metrics takes about a second; every context of the process shares one list.
std::shared_ptr<const std::vector<GraphicsMetric>> CachedMetrics(const perfworks::ChipMetrics& chip) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const std::vector<GraphicsMetric>>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& entry = cache[chip.Chip()];
  if (entry == nullptr) entry = std::make_shared<const std::vector<GraphicsMetric>>(SampleableMetrics(chip));
  return entry;
}

// The sampler sessions kept between GPA sessions (KeepSampler), one per PerfWorks device of the process, with the
// source that kept it (which ends it when destroyed).
struct KeptSampler {
  const GraphicsCounterSource* keeper = nullptr;
  std::unique_ptr<perfworks::PeriodicSampler> sampler;
};
std::mutex& KeptMutex() {
  static std::mutex mutex;
  return mutex;
}
std::map<std::size_t, KeptSampler>& Kept() {
  static auto* kept = new std::map<std::size_t, KeptSampler>;  // never destroyed: no static destruction order
  return *kept;
}

const perfworks::PerfWorksLibrary* TargetLibrary(std::string* why) {
  const perfworks::PerfWorksLibrary* library = perfworks::PerfWorksLibrary::Get(why);
  if (library != nullptr && !library->HasTarget()) {
    *why = "PerfWorks' target library is missing";
    return nullptr;
  }
  return library;
}

}  // namespace

bool GraphicsCountersSwitchedOff() {
  const char* off = std::getenv("OPENGPA_GRAPHICS_HARDWARE_COUNTERS");
  return off != nullptr && std::string(off) == "0";
}

std::unique_ptr<GraphicsCounterSource> GraphicsCounterSource::ForDevice(const perfworks::PerfWorksLibrary& library,
                                                                        std::size_t index, std::string* why) {
  perfworks::SamplerSupport support = perfworks::QuerySamplerSupport(library, index);
  if (!support.supported) {
    *why = support.why;
    return nullptr;
  }
  std::unique_ptr<GraphicsCounterSource> source(new GraphicsCounterSource(library));
  source->has_device_ = true;
  source->samples_by_time_ = support.HasTrigger(perfworks::kTriggerGpuTimeInterval);
  source->device_index_ = index;
  source->chip_ = support.chip;
  source->device_name_ = support.device_name;
  source->chip_metrics_ = perfworks::ChipMetrics::Create(library, support.chip, support.availability, why);
  if (source->chip_metrics_ == nullptr) return nullptr;
  source->metrics_ = CachedMetrics(*source->chip_metrics_);
  return source;
}

std::unique_ptr<GraphicsCounterSource> GraphicsCounterSource::ForVulkan(const perfworks::VulkanDeviceHandles& handles,
                                                                        std::string* why) {
  const perfworks::PerfWorksLibrary* library = TargetLibrary(why);
  if (library == nullptr) return nullptr;
  std::size_t index = 0;
  if (!perfworks::VulkanDeviceIndex(*library, handles, &index, why)) return nullptr;
  return ForDevice(*library, index, why);
}

std::unique_ptr<GraphicsCounterSource> GraphicsCounterSource::ForCurrentGlContext(
    bool (*device_index)(const perfworks::PerfWorksLibrary&, std::size_t*, std::string*), std::string* why) {
  const perfworks::PerfWorksLibrary* library = TargetLibrary(why);
  if (library == nullptr) return nullptr;
  std::size_t index = 0;
  if (!device_index(*library, &index, why)) return nullptr;
  return ForDevice(*library, index, why);
}

std::unique_ptr<GraphicsCounterSource> GraphicsCounterSource::ForVulkanPciBus(void* vulkan_instance,
                                                                              std::uint32_t domain, std::uint32_t bus,
                                                                              std::uint32_t device, std::string* why) {
  const perfworks::PerfWorksLibrary* library = TargetLibrary(why);
  if (library == nullptr) return nullptr;
  // Measured on the H100: NVPW_GetDeviceCount is 0 until a driver is loaded.
  if (!perfworks::LoadVulkanDriver(*library, vulkan_instance, why)) return nullptr;
  auto count = perfworks::MakeParams<perfworks::GetDeviceCountParams>();
  if (perfworks::Status s = library->Target().get_device_count(&count); s != perfworks::kSuccess) {
    *why = fmt::format("NVPW_GetDeviceCount failed: {}", perfworks::StatusName(s));
    return nullptr;
  }
  std::vector<perfworks::PciBusId> buses(count.device_count);
  auto ids = perfworks::MakeParams<perfworks::DeviceGetPciBusIdsParams>();
  ids.bus_ids = buses.data();
  ids.device_count = buses.size();
  if (perfworks::Status s = library->Target().device_get_pci_bus_ids(&ids); s != perfworks::kSuccess) {
    *why = fmt::format("NVPW_Device_GetPciBusIds failed: {}", perfworks::StatusName(s));
    return nullptr;
  }
  for (std::size_t index = 0; index < buses.size(); ++index) {
    if (buses[index].domain == domain && buses[index].bus == bus && buses[index].device == device) {
      return ForDevice(*library, index, why);
    }
  }
  std::string listed;
  for (const perfworks::PciBusId& id : buses) {
    listed += fmt::format("{}{:04x}:{:02x}:{:02x}", listed.empty() ? "" : ", ", id.domain, id.bus, id.device);
  }
  *why = fmt::format("PerfWorks knows no GPU at PCI {:04x}:{:02x}:{:02x} (it lists {} GPU(s){}{})", domain, bus, device,
                     buses.size(), listed.empty() ? "" : ": ", listed);
  return nullptr;
}

std::unique_ptr<GraphicsCounterSource> GraphicsCounterSource::ForCurrentEglContext(std::string* why) {
  return ForCurrentGlContext(&perfworks::CurrentEglDeviceIndex, why);
}

std::unique_ptr<GraphicsCounterSource> GraphicsCounterSource::ForCurrentGlxContext(std::string* why) {
  return ForCurrentGlContext(&perfworks::CurrentGlxDeviceIndex, why);
}

std::unique_ptr<GraphicsCounterSource> GraphicsCounterSource::ForChip(const std::string& chip, std::string* why) {
  const perfworks::PerfWorksLibrary* library = perfworks::PerfWorksLibrary::Get(why);
  if (library == nullptr) return nullptr;
  std::unique_ptr<GraphicsCounterSource> source(new GraphicsCounterSource(*library));
  source->chip_ = chip;
  source->device_name_ = chip;
  source->chip_metrics_ = perfworks::ChipMetrics::Create(*library, chip, {}, why);
  if (source->chip_metrics_ == nullptr) return nullptr;
  source->metrics_ = CachedMetrics(*source->chip_metrics_);
  return source;
}

GpaStatus GraphicsCounterSource::PlanPasses(const std::vector<std::string>& names,
                                            std::vector<perfworks::PassConfig>* passes) const {
  return chip_metrics_->PlanPasses(names, passes);
}

GpaStatus GraphicsCounterSource::BeginSampler(perfworks::TriggerSource trigger,
                                              const std::vector<perfworks::PassConfig>& passes,
                                              std::unique_ptr<perfworks::PeriodicSampler>* out,
                                              std::uint64_t interval_ns, std::uint32_t max_samples) const {
  if (!has_device_) {
    return LogError(kGpaStatusErrorFailed, "{}: an offline context has no GPU to sample", chip_);
  }
  const std::vector<std::uint32_t> triggers = {static_cast<std::uint32_t>(trigger)};
  {
    std::unique_ptr<perfworks::PeriodicSampler> kept;
    {
      std::lock_guard<std::mutex> lock(KeptMutex());
      auto it = Kept().find(device_index_);
      if (it != Kept().end()) {
        kept = std::move(it->second.sampler);
        Kept().erase(it);
      }
    }
    if (kept != nullptr && kept->Fits(triggers, interval_ns, passes, max_samples)) {
      *out = std::move(kept);
      return kGpaStatusOk;
    }
    // A kept session that does not fit ends here (`kept` goes out of scope), before the new one begins.
  }
  GpaStatus status =
      perfworks::PeriodicSampler::Begin(library_, device_index_, triggers, interval_ns, passes, max_samples, out);
  if (status != kGpaStatusOk) return status;
  WarnAboutOtherProcesses();
  // What the clocks do while sampling, read (never set): a locked clock makes the sampled work slower than usual.
  auto clocks = perfworks::MakeParams<perfworks::DeviceGetClockStatusParams>();
  clocks.device_index = device_index_;
  if (library_.Target().device_get_clock_status(&clocks) == perfworks::kSuccess) {
    static constexpr const char* kStatus[] = {
        "unknown", "locked to rated TDP", "unlocked, boost enabled", "unlocked, boost disabled", "locked", "unlocked"};
    const bool known = clocks.clock_status >= 0 && clocks.clock_status < 6;
    Log(kGpaLoggingMessage, "{}: GPU periodic sampler session begun; clocks {}", chip_,
        known ? kStatus[clocks.clock_status] : "in an unknown state");
  }
  return kGpaStatusOk;
}

void GraphicsCounterSource::KeepSampler(std::unique_ptr<perfworks::PeriodicSampler> sampler) const {
  if (sampler == nullptr || sampler->sampling()) return;  // a sampling one ends: its range was not decoded
  std::unique_ptr<perfworks::PeriodicSampler> replaced;
  std::lock_guard<std::mutex> lock(KeptMutex());
  KeptSampler& kept = Kept()[sampler->device_index()];
  replaced = std::move(kept.sampler);
  kept = {this, std::move(sampler)};
}

GraphicsCounterSource::~GraphicsCounterSource() {
  std::unique_ptr<perfworks::PeriodicSampler> ended;
  std::lock_guard<std::mutex> lock(KeptMutex());
  auto it = Kept().find(device_index_);
  if (it != Kept().end() && it->second.keeper == this) {
    ended = std::move(it->second.sampler);
    Kept().erase(it);
  }
}

void GraphicsCounterSource::WarnAboutOtherProcesses() const {
  std::size_t count = 0;
  auto count_params = perfworks::MakeParams<perfworks::GetDeviceCountParams>();
  if (library_.Target().get_device_count(&count_params) == perfworks::kSuccess) count = count_params.device_count;
  std::vector<perfworks::PciBusId> buses(count);
  auto ids = perfworks::MakeParams<perfworks::DeviceGetPciBusIdsParams>();
  ids.bus_ids = buses.data();
  ids.device_count = buses.size();
  if (device_index_ >= count || library_.Target().device_get_pci_bus_ids(&ids) != perfworks::kSuccess) return;
  const perfworks::PciBusId& bus = buses[device_index_];
  std::string why;
  const auto others = OtherProcessesOnGpu(bus.domain, bus.bus, bus.device, &why);
  if (!others) {
    Log(kGpaLoggingMessage,
        "{}: the GPU periodic sampler counts every process's work on this GPU, and NVML cannot "
        "say which others use it ({})",
        device_name_, why);
    return;
  }
  if (others->empty()) return;
  std::string list;
  for (const GpuProcess& process : *others) {
    list += fmt::format("{}{}{}", list.empty() ? "" : ", ", process.pid,
                        process.name.empty() ? "" : fmt::format(" ({})", process.name));
  }
  Log(kGpaLoggingMessage,
      "{}: other processes use this GPU ({}): the GPU periodic sampler counts their work between this session's "
      "triggers too, so its samples include it",
      device_name_, list);
}

}  // namespace opengpa::nvidia
