#include "monitor/nvml_counter_source.h"

#include "monitor/counter_catalog.h"
#include "monitor/nvml_devices.h"
#include "platform/logging.h"

namespace opengpa::monitor {

using nvidia::nvml::Functions;
using nvidia::nvml::Return;

struct NvmlCounterSource::Counter {
  CounterDescriptor descriptor;
  const char* symbol;  // the NVML function it needs
  bool (*available)(const Functions&);
  // For a kDelta counter, the running total (the source differences consecutive reads).
  Return (*read)(const Functions&, nvidia::nvml::Device, double*);
};

namespace {

Return ReadUtilization(const Functions& api, nvidia::nvml::Device device, double* value, bool memory) {
  nvidia::nvml::Utilization utilization{};
  const Return status = api.device_get_utilization_rates(device, &utilization);
  *value = memory ? utilization.memory : utilization.gpu;
  return status;
}

Return ReadClock(const Functions& api, nvidia::nvml::Device device, int clock, double* value) {
  unsigned int mhz = 0;
  const Return status = api.device_get_clock_info(device, clock, &mhz);
  *value = mhz;
  return status;
}

Return ReadPcie(const Functions& api, nvidia::nvml::Device device, int counter, double* value) {
  unsigned int kilobytes_per_second = 0;
  const Return status = api.device_get_pcie_throughput(device, counter, &kilobytes_per_second);
  *value = kilobytes_per_second;
  return status;
}

Return ReadMemory(const Functions& api, nvidia::nvml::Device device, double* value, bool total) {
  nvidia::nvml::Memory memory{};
  const Return status = api.device_get_memory_info(device, &memory);
  *value = static_cast<double>(total ? memory.total : memory.used);
  return status;
}

using Counter = NvmlCounterSource::Counter;

const std::vector<Counter>& Catalog() {
  static const std::vector<Counter> catalog = {
      {{"gpu_utilization_percent",
        "Percent of NVML's last sample period (1/6 s to 1 s) in which a kernel was running on the GPU", "percent",
        CounterKind::kGauge, CounterOrigin::kNvml},
       "nvmlDeviceGetUtilizationRates",
       [](const Functions& api) { return api.device_get_utilization_rates != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         return ReadUtilization(api, device, value, false);
       }},
      {{"memory_utilization_percent",
        "Percent of NVML's last sample period in which device memory was being read or written", "percent",
        CounterKind::kGauge, CounterOrigin::kNvml},
       "nvmlDeviceGetUtilizationRates",
       [](const Functions& api) { return api.device_get_utilization_rates != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         return ReadUtilization(api, device, value, true);
       }},
      {{"sm_clock_mhz", "Current SM clock", "MHz", CounterKind::kGauge, CounterOrigin::kNvml},
       "nvmlDeviceGetClockInfo",
       [](const Functions& api) { return api.device_get_clock_info != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         return ReadClock(api, device, nvidia::nvml::kClockSm, value);
       }},
      {{"graphics_clock_mhz", "Current graphics clock", "MHz", CounterKind::kGauge, CounterOrigin::kNvml},
       "nvmlDeviceGetClockInfo",
       [](const Functions& api) { return api.device_get_clock_info != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         return ReadClock(api, device, nvidia::nvml::kClockGraphics, value);
       }},
      {{"memory_clock_mhz", "Current memory clock", "MHz", CounterKind::kGauge, CounterOrigin::kNvml},
       "nvmlDeviceGetClockInfo",
       [](const Functions& api) { return api.device_get_clock_info != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         return ReadClock(api, device, nvidia::nvml::kClockMemory, value);
       }},
      {{"power_watts", "Power draw of the board (NVML reports milliwatts)", "W", CounterKind::kGauge,
        CounterOrigin::kNvml},
       "nvmlDeviceGetPowerUsage",
       [](const Functions& api) { return api.device_get_power_usage != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         unsigned int milliwatts = 0;
         const Return status = api.device_get_power_usage(device, &milliwatts);
         *value = milliwatts / 1000.0;
         return status;
       }},
      {{"temperature_celsius", "GPU core temperature", "Cel", CounterKind::kGauge, CounterOrigin::kNvml},
       "nvmlDeviceGetTemperature",
       [](const Functions& api) { return api.device_get_temperature != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         unsigned int celsius = 0;
         const Return status = api.device_get_temperature(device, nvidia::nvml::kTemperatureGpu, &celsius);
         *value = celsius;
         return status;
       }},
      {{"pcie_tx_kilobytes_per_second",
        "PCIe bytes sent by the GPU, in KB/s as NVML reports them (NVML measures a 20 ms window per read)", "KB/s",
        CounterKind::kGauge, CounterOrigin::kNvml},
       "nvmlDeviceGetPcieThroughput",
       [](const Functions& api) { return api.device_get_pcie_throughput != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         return ReadPcie(api, device, nvidia::nvml::kPcieTxBytes, value);
       }},
      {{"pcie_rx_kilobytes_per_second",
        "PCIe bytes received by the GPU, in KB/s as NVML reports them (NVML measures a 20 ms window per read)", "KB/s",
        CounterKind::kGauge, CounterOrigin::kNvml},
       "nvmlDeviceGetPcieThroughput",
       [](const Functions& api) { return api.device_get_pcie_throughput != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         return ReadPcie(api, device, nvidia::nvml::kPcieRxBytes, value);
       }},
      {{"memory_used_bytes", "Device memory allocated by all processes and the driver", "bytes", CounterKind::kGauge,
        CounterOrigin::kNvml},
       "nvmlDeviceGetMemoryInfo",
       [](const Functions& api) { return api.device_get_memory_info != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         return ReadMemory(api, device, value, false);
       }},
      {{"memory_total_bytes", "Device memory installed", "bytes", CounterKind::kGauge, CounterOrigin::kNvml},
       "nvmlDeviceGetMemoryInfo",
       [](const Functions& api) { return api.device_get_memory_info != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         return ReadMemory(api, device, value, true);
       }},
      {{"energy_joules", "Energy the board used during the record's interval (NVML's millijoule counter)", "J",
        CounterKind::kDelta, CounterOrigin::kNvml},
       "nvmlDeviceGetTotalEnergyConsumption",
       [](const Functions& api) { return api.device_get_total_energy_consumption != nullptr; },
       [](const Functions& api, nvidia::nvml::Device device, double* value) {
         unsigned long long millijoules = 0;
         const Return status = api.device_get_total_energy_consumption(device, &millijoules);
         *value = static_cast<double>(millijoules) / 1000.0;
         return status;
       }},
  };
  return catalog;
}

}  // namespace

const std::vector<CounterDescriptor>& NvmlCounterCatalog() {
  static const std::vector<CounterDescriptor> descriptors = DescriptorsOf(Catalog());
  return descriptors;
}

bool IsNvmlCounterName(std::string_view name) { return FindInCatalog(Catalog(), name) != nullptr; }

GpaStatus NvmlCounterSource::Create(const NvmlSourceOptions& options, std::unique_ptr<NvmlCounterSource>* source) {
  if (source == nullptr) return LogError(kGpaStatusErrorNullPointer, "NVML source: output pointer is null");
  source->reset();

  // Names first: a typo is reported even on a machine without NVML.
  std::vector<const Counter*> wanted;
  std::string unknown;
  if (!ChooseFromCatalog(Catalog(), options.counter_names, &wanted, &unknown)) {
    return LogError(kGpaStatusErrorCounterNotFound, "NVML source: unknown counter '{}'", unknown);
  }
  const bool explicit_counters = !options.counter_names.empty();

  std::unique_ptr<nvidia::nvml::Library> library;
  const std::vector<std::string> candidates =
      options.library_candidates.empty() ? nvidia::nvml::DefaultLibraryCandidates() : options.library_candidates;
  if (GpaStatus status = nvidia::nvml::Library::Load(candidates, &library); status != kGpaStatusOk) return status;
  const Functions& api = library->Api();

  std::vector<NvmlDevice> opened;
  if (GpaStatus status = OpenNvmlDevices(*library, options.device_indices, "NVML source", &opened);
      status != kGpaStatusOk) {
    return status;
  }
  std::vector<Device> devices;
  for (NvmlDevice& device : opened) {
    Device entry;
    entry.identity = std::move(device.identity);
    entry.handle = device.handle;
    devices.push_back(std::move(entry));
  }

  // One read of each counter on each device: what fails here would fail at every tick.
  std::vector<const Counter*> counters;
  for (const Counter* counter : wanted) {
    if (!counter->available(api)) {
      if (explicit_counters) {
        return LogError(kGpaStatusErrorDriverNotSupported, "NVML source: {} does not export {}, needed by counter '{}'",
                        library->Path(), counter->symbol, counter->descriptor.name);
      }
      Log(kGpaLoggingMessage, "NVML source: leaving out '{}': {} does not export {}", counter->descriptor.name,
          library->Path(), counter->symbol);
      continue;
    }
    bool supported = true;
    for (const Device& device : devices) {
      double value = 0.0;
      const Return status = counter->read(api, device.handle, &value);
      if (status == nvidia::nvml::kSuccess) continue;
      if (explicit_counters || status != nvidia::nvml::kErrorNotSupported) {
        return LogError(
            status == nvidia::nvml::kErrorNotSupported ? kGpaStatusErrorHardwareNotSupported : kGpaStatusErrorFailed,
            "NVML source: counter '{}' on GPU {}: {} failed: {}", counter->descriptor.name, device.identity.index,
            counter->symbol, library->Describe(status));
      }
      Log(kGpaLoggingMessage, "NVML source: leaving out '{}': GPU {} does not support it", counter->descriptor.name,
          device.identity.index);
      supported = false;
      break;
    }
    if (supported) counters.push_back(counter);
  }
  if (counters.empty()) {
    return LogError(kGpaStatusErrorHardwareNotSupported, "NVML source: no requested counter is supported");
  }
  *source = std::make_unique<NvmlCounterSource>(std::move(library), std::move(devices), std::move(counters));
  return kGpaStatusOk;
}

NvmlCounterSource::NvmlCounterSource(std::unique_ptr<nvidia::nvml::Library> library, std::vector<Device> devices,
                                     std::vector<const Counter*> counters)
    : library_(std::move(library)), devices_(std::move(devices)), counters_(std::move(counters)) {
  for (const Counter* counter : counters_) descriptors_.push_back(counter->descriptor);
  for (const Device& device : devices_) identities_.push_back(device.identity);
  read_failure_logged_.assign(devices_.size() * counters_.size(), false);
}

GpaStatus NvmlCounterSource::Start() {
  // Energy is a running total: remember where it stood so the first tick reports what was used since.
  for (Device& device : devices_) {
    for (const Counter* counter : counters_) {
      if (counter->descriptor.kind != CounterKind::kDelta) continue;
      device.last_energy_time = std::chrono::system_clock::now();
      if (counter->read(library_->Api(), device.handle, &device.last_energy_joules) != nvidia::nvml::kSuccess) {
        device.last_energy_joules = -1.0;  // unknown: the next good read becomes the baseline
      }
    }
  }
  return kGpaStatusOk;
}

GpaStatus NvmlCounterSource::Poll(std::vector<MonitorRecord>* records) {
  const Functions& api = library_->Api();
  for (size_t d = 0; d < devices_.size(); ++d) {
    Device& device = devices_[d];
    for (size_t c = 0; c < counters_.size(); ++c) {
      const Counter& counter = *counters_[c];
      double value = 0.0;
      const Return status = counter.read(api, device.handle, &value);
      const auto now = std::chrono::system_clock::now();
      if (status != nvidia::nvml::kSuccess) {
        if (!read_failure_logged_[d * counters_.size() + c]) {
          read_failure_logged_[d * counters_.size() + c] = true;
          Log(kGpaLoggingError, "NVML source: reading '{}' on GPU {} failed: {} (further failures not logged)",
              counter.descriptor.name, device.identity.index, library_->Describe(status));
        }
        continue;
      }
      MonitorRecord record;
      record.timestamp_ns = NanosecondsSinceEpoch(now);
      record.device_index = device.identity.index;
      record.counter_index = static_cast<uint32_t>(c);
      if (counter.descriptor.kind == CounterKind::kDelta) {
        const bool have_baseline = device.last_energy_joules >= 0.0;
        const double previous = device.last_energy_joules;
        const auto previous_time = device.last_energy_time;
        device.last_energy_joules = value;
        device.last_energy_time = now;
        if (!have_baseline || value < previous) continue;  // no baseline yet, or the driver reset its total
        record.value = value - previous;
        record.duration_ns = NanosecondsSinceEpoch(now) - NanosecondsSinceEpoch(previous_time);
      } else {
        record.value = value;
      }
      records->push_back(record);
    }
  }
  return kGpaStatusOk;
}

GpaStatus NvmlCounterSource::Stop(std::vector<MonitorRecord>* records) {
  (void)records;  // NVML readings are taken at each tick; nothing is buffered
  return kGpaStatusOk;
}

}  // namespace opengpa::monitor
