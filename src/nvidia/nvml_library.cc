#include "nvidia/nvml_library.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "platform/logging.h"

namespace opengpa::nvidia::nvml {

std::vector<std::string> DefaultLibraryCandidates() {
  return LibraryCandidates({}, "OPENGPA_NVML_LIBRARY", {"libnvidia-ml.so.1"});
}

GpaStatus Library::Load(const std::vector<std::string>& candidates, std::unique_ptr<Library>* library) {
  if (library == nullptr) return LogError(kGpaStatusErrorNullPointer, "NVML: library output pointer is null");
  library->reset();
  std::string error;
  std::unique_ptr<DynamicLibrary> loaded = DynamicLibrary::Open(candidates, &error);
  if (loaded == nullptr) {
    return LogError(kGpaStatusErrorLibLoadFailed, "NVML: cannot load {} (is an NVIDIA driver installed?): {}",
                    fmt::join(candidates, " or "), error);
  }

  Functions functions;
  struct Required {
    const char* symbol;
    bool resolved;
  };
  const Required required[] = {
      {"nvmlInit_v2", loaded->Resolve("nvmlInit_v2", &functions.init)},
      {"nvmlShutdown", loaded->Resolve("nvmlShutdown", &functions.shutdown)},
      {"nvmlErrorString", loaded->Resolve("nvmlErrorString", &functions.error_string)},
      {"nvmlDeviceGetCount_v2", loaded->Resolve("nvmlDeviceGetCount_v2", &functions.device_get_count)},
      {"nvmlDeviceGetHandleByIndex_v2",
       loaded->Resolve("nvmlDeviceGetHandleByIndex_v2", &functions.device_get_handle_by_index)},
      {"nvmlDeviceGetName", loaded->Resolve("nvmlDeviceGetName", &functions.device_get_name)},
      {"nvmlDeviceGetUUID", loaded->Resolve("nvmlDeviceGetUUID", &functions.device_get_uuid)},
  };
  for (const Required& function : required) {
    if (!function.resolved) {
      return LogError(kGpaStatusErrorDriverNotSupported, "NVML: {} does not export {} (driver too old or not NVML)",
                      loaded->Name(), function.symbol);
    }
  }
  // Optional: a counter whose function is missing is reported when that counter is asked for.
  loaded->Resolve("nvmlDeviceGetUtilizationRates", &functions.device_get_utilization_rates);
  loaded->Resolve("nvmlDeviceGetClockInfo", &functions.device_get_clock_info);
  loaded->Resolve("nvmlDeviceGetMaxClockInfo", &functions.device_get_max_clock_info);
  loaded->Resolve("nvmlDeviceGetPowerUsage", &functions.device_get_power_usage);
  loaded->Resolve("nvmlDeviceGetTemperature", &functions.device_get_temperature);
  loaded->Resolve("nvmlDeviceGetPcieThroughput", &functions.device_get_pcie_throughput);
  loaded->Resolve("nvmlDeviceGetMemoryInfo", &functions.device_get_memory_info);
  loaded->Resolve("nvmlDeviceGetTotalEnergyConsumption", &functions.device_get_total_energy_consumption);
  loaded->Resolve("nvmlDeviceGetPciInfo_v3", &functions.device_get_pci_info);
  loaded->Resolve("nvmlDeviceGetComputeRunningProcesses_v3", &functions.device_get_compute_running_processes);
  loaded->Resolve("nvmlDeviceGetGraphicsRunningProcesses_v3", &functions.device_get_graphics_running_processes);
  loaded->Resolve("nvmlGpmQueryDeviceSupport", &functions.gpm_query_device_support);
  loaded->Resolve("nvmlGpmSampleAlloc", &functions.gpm_sample_alloc);
  loaded->Resolve("nvmlGpmSampleFree", &functions.gpm_sample_free);
  loaded->Resolve("nvmlGpmSampleGet", &functions.gpm_sample_get);
  loaded->Resolve("nvmlGpmMetricsGet", &functions.gpm_metrics_get);

  const Return init = functions.init();
  if (init != kSuccess) {
    const char* text = functions.error_string(init);
    return LogError(kGpaStatusErrorDriverNotSupported, "NVML: nvmlInit_v2 in {} failed: {} ({})", loaded->Name(),
                    text != nullptr ? text : "no description", init);
  }
  *library = std::make_unique<Library>(std::move(loaded), functions);
  return kGpaStatusOk;
}

Library::Library(std::unique_ptr<DynamicLibrary> library, const Functions& functions)
    : library_(std::move(library)), functions_(functions) {}

Library::~Library() { functions_.shutdown(); }

std::string Library::Describe(Return code) const {
  const char* text = functions_.error_string(code);
  return fmt::format("{} ({})", text != nullptr ? text : "no description", code);
}

}  // namespace opengpa::nvidia::nvml
