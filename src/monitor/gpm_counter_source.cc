#include "monitor/gpm_counter_source.h"

#include "monitor/counter_catalog.h"
#include "monitor/nvml_devices.h"
#include "platform/logging.h"

namespace opengpa::monitor {

using nvidia::nvml::Functions;
using nvidia::nvml::Return;

struct GpmCounterSource::Counter {
  CounterDescriptor descriptor;
  unsigned int metric_id;  // nvmlGpmMetricId_t
  double scale;            // NVML's value times this is the counter's (MiB/s -> bytes/s)
};

namespace {

using Counter = GpmCounterSource::Counter;

constexpr double kMebibyte = 1024.0 * 1024.0;

Counter Percent(const char* name, const char* description, unsigned int id) {
  return {{name, description, "percent", CounterKind::kGauge, CounterOrigin::kNvmlGpm}, id, 1.0};
}
Counter Rate(const char* name, const char* description, unsigned int id) {
  return {{name, description, "bytes/s", CounterKind::kGauge, CounterOrigin::kNvmlGpm}, id, kMebibyte};
}

// NVML's metric ids (nvmlGpmMetricId_t). Every value is an average over the span between two samples.
const std::vector<Counter>& Catalog() {
  static const std::vector<Counter> catalog = {
      Percent("gpm_graphics_activity_percent", "Percent of the time any graphics or compute work was active (GPM)", 1),
      Percent("gpm_sm_activity_percent", "Percent of SMs busy, averaged over the interval (GPM)", 2),
      Percent("gpm_sm_occupancy_percent", "Resident warps as a percent of the SMs' maximum (GPM)", 3),
      Percent("gpm_integer_pipe_percent", "Percent of the time the SMs issued integer instructions (GPM)", 4),
      Percent("gpm_tensor_pipe_percent", "Percent of the time the SMs' tensor pipes were active, any type (GPM)", 5),
      Percent("gpm_dfma_tensor_pipe_percent", "Percent of the time the SMs ran FP64 tensor (DFMA) work (GPM)", 6),
      Percent("gpm_hmma_tensor_pipe_percent", "Percent of the time the SMs ran half-precision tensor (HMMA) work (GPM)",
              7),
      Percent("gpm_imma_tensor_pipe_percent", "Percent of the time the SMs ran integer tensor (IMMA) work (GPM)", 9),
      Percent("gpm_dram_bandwidth_percent", "DRAM bandwidth used, as a percent of the theoretical maximum (GPM)", 10),
      Percent("gpm_fp64_pipe_percent", "Percent of the time the SMs ran non-tensor FP64 math (GPM)", 11),
      Percent("gpm_fp32_pipe_percent", "Percent of the time the SMs ran non-tensor FP32 math (GPM)", 12),
      Percent("gpm_fp16_pipe_percent", "Percent of the time the SMs ran non-tensor FP16 math (GPM)", 13),
      Rate("gpm_pcie_tx_bytes_per_second", "PCIe traffic sent by the GPU (GPM reports MiB/s)", 20),
      Rate("gpm_pcie_rx_bytes_per_second", "PCIe traffic received by the GPU (GPM reports MiB/s)", 21),
      Rate("gpm_nvlink_rx_bytes_per_second", "NVLink traffic received over all links (GPM reports MiB/s)", 60),
      Rate("gpm_nvlink_tx_bytes_per_second", "NVLink traffic sent over all links (GPM reports MiB/s)", 61),
  };
  return catalog;
}

// The monitor's default set asks for GPM where it exists: there a missing GPM is a message, not an error.
template <typename... Args>
GpaStatus Refuse(bool optional, GpaStatus status, fmt::format_string<Args...> format, Args&&... args) {
  const std::string text = fmt::format(format, std::forward<Args>(args)...);
  if (optional) {
    Log(kGpaLoggingMessage, "GPM source: left out of the default set: {}", text);
    return status;
  }
  return LogError(status, "GPM source: {}", text);
}

}  // namespace

const std::vector<CounterDescriptor>& GpmCounterCatalog() {
  static const std::vector<CounterDescriptor> descriptors = DescriptorsOf(Catalog());
  return descriptors;
}

bool IsGpmCounterName(std::string_view name) { return FindInCatalog(Catalog(), name) != nullptr; }

GpaStatus GpmCounterSource::Create(const GpmSourceOptions& options, std::unique_ptr<GpmCounterSource>* source) {
  if (source == nullptr) return LogError(kGpaStatusErrorNullPointer, "GPM source: output pointer is null");
  source->reset();
  std::vector<const Counter*> counters;
  std::string unknown;
  if (!ChooseFromCatalog(Catalog(), options.counter_names, &counters, &unknown)) {
    return LogError(kGpaStatusErrorCounterNotFound, "GPM source: unknown counter '{}'", unknown);
  }

  std::unique_ptr<nvidia::nvml::Library> library;
  const std::vector<std::string> candidates =
      options.library_candidates.empty() ? nvidia::nvml::DefaultLibraryCandidates() : options.library_candidates;
  if (GpaStatus status = nvidia::nvml::Library::Load(candidates, &library); status != kGpaStatusOk) return status;
  const Functions& api = library->Api();
  if (api.gpm_query_device_support == nullptr || api.gpm_sample_alloc == nullptr || api.gpm_sample_free == nullptr ||
      api.gpm_sample_get == nullptr || api.gpm_metrics_get == nullptr) {
    return Refuse(options.optional, kGpaStatusErrorDriverNotSupported,
                  "{} does not export NVML's GPM functions (nvmlGpmSampleGet, nvmlGpmMetricsGet, ...; driver 520 or "
                  "newer has them)",
                  library->Path());
  }
  std::vector<NvmlDevice> opened;
  if (GpaStatus status = OpenNvmlDevices(*library, options.device_indices, "GPM source", &opened);
      status != kGpaStatusOk) {
    return status;
  }
  std::vector<Device> devices;
  for (NvmlDevice& nvml_device : opened) {
    nvidia::nvml::GpmSupport support{nvidia::nvml::kGpmSupportVersion, 0};
    const Return status = api.gpm_query_device_support(nvml_device.handle, &support);
    if (status != nvidia::nvml::kSuccess || support.is_supported_device == 0) {
      return Refuse(
          options.optional, kGpaStatusErrorHardwareNotSupported,
          "GPU {} ({}) does not support GPM (Hopper or newer needed){}", nvml_device.identity.index,
          nvml_device.identity.name,
          status == nvidia::nvml::kSuccess ? "" : ": nvmlGpmQueryDeviceSupport: " + library->Describe(status));
    }
    Device device;
    device.identity = std::move(nvml_device.identity);
    device.handle = nvml_device.handle;
    devices.push_back(std::move(device));
  }
  // Two sample buffers per GPU, made now so that a failure shows at creation and no tick allocates.
  for (Device& device : devices) {
    if (api.gpm_sample_alloc(&device.previous) != nvidia::nvml::kSuccess ||
        api.gpm_sample_alloc(&device.current) != nvidia::nvml::kSuccess) {
      for (Device& made : devices) {
        if (made.previous != nullptr) api.gpm_sample_free(made.previous);
        if (made.current != nullptr) api.gpm_sample_free(made.current);
      }
      return LogError(kGpaStatusErrorFailed, "GPM source: nvmlGpmSampleAlloc failed for GPU {}", device.identity.index);
    }
  }
  *source = std::make_unique<GpmCounterSource>(std::move(library), std::move(devices), std::move(counters));
  return kGpaStatusOk;
}

GpmCounterSource::GpmCounterSource(std::unique_ptr<nvidia::nvml::Library> library, std::vector<Device> devices,
                                   std::vector<const Counter*> counters)
    : library_(std::move(library)), devices_(std::move(devices)), counters_(std::move(counters)) {
  for (const Counter* counter : counters_) descriptors_.push_back(counter->descriptor);
  for (const Device& device : devices_) identities_.push_back(device.identity);
  failure_logged_.assign(devices_.size() * (counters_.size() + 1), false);
}

GpmCounterSource::~GpmCounterSource() {
  for (Device& device : devices_) {
    library_->Api().gpm_sample_free(device.previous);
    library_->Api().gpm_sample_free(device.current);
  }
}

bool GpmCounterSource::TakeSample(Device& device, nvidia::nvml::GpmSample sample, size_t device_slot) {
  const Return status = library_->Api().gpm_sample_get(device.handle, sample);
  if (status == nvidia::nvml::kSuccess) return true;
  ++errors_;
  const size_t slot = device_slot * (counters_.size() + 1) + counters_.size();
  if (!failure_logged_[slot]) {
    failure_logged_[slot] = true;
    Log(kGpaLoggingError, "GPM source: nvmlGpmSampleGet on GPU {} failed: {} (further failures not logged)",
        device.identity.index, library_->Describe(status));
  }
  return false;
}

GpaStatus GpmCounterSource::Start() {
  samples_ = 0;
  errors_ = 0;
  // The first sample of each GPU: the first tick's metrics cover the time from here.
  for (size_t d = 0; d < devices_.size(); ++d) {
    Device& device = devices_[d];
    device.has_previous = TakeSample(device, device.previous, d);
    device.previous_time = std::chrono::system_clock::now();
  }
  return kGpaStatusOk;
}

GpaStatus GpmCounterSource::Poll(std::vector<MonitorRecord>* records) {
  const Functions& api = library_->Api();
  for (size_t d = 0; d < devices_.size(); ++d) {
    Device& device = devices_[d];
    const auto now = std::chrono::system_clock::now();
    if (device.has_previous && now - device.previous_time < kGpmMinimumSampleGap) continue;
    if (!TakeSample(device, device.current, d)) continue;
    if (!device.has_previous) {  // the earlier sample failed: this one starts the next interval
      std::swap(device.previous, device.current);
      device.has_previous = true;
      device.previous_time = now;
      continue;
    }
    nvidia::nvml::GpmMetricsGet request{};
    request.version = nvidia::nvml::kGpmMetricsGetVersion;
    request.metric_count = static_cast<unsigned int>(counters_.size());
    request.sample1 = device.previous;
    request.sample2 = device.current;
    for (size_t c = 0; c < counters_.size(); ++c) request.metrics[c].metric_id = counters_[c]->metric_id;
    const Return status = api.gpm_metrics_get(&request);
    const uint64_t end_ns = NanosecondsSinceEpoch(now);
    const uint64_t duration_ns = end_ns - NanosecondsSinceEpoch(device.previous_time);
    std::swap(device.previous, device.current);
    device.previous_time = now;
    if (status != nvidia::nvml::kSuccess) {
      ++errors_;
      const size_t slot = d * (counters_.size() + 1) + counters_.size();
      if (!failure_logged_[slot]) {
        failure_logged_[slot] = true;
        Log(kGpaLoggingError, "GPM source: nvmlGpmMetricsGet on GPU {} failed: {} (further failures not logged)",
            device.identity.index, library_->Describe(status));
      }
      continue;
    }
    ++samples_;
    for (size_t c = 0; c < counters_.size(); ++c) {
      const nvidia::nvml::GpmMetric& metric = request.metrics[c];
      if (metric.status != nvidia::nvml::kSuccess) {
        // A metric this GPU lacks (NVLink on a PCIe board): said once, then left out of this GPU's series.
        const size_t slot = d * (counters_.size() + 1) + c;
        if (!failure_logged_[slot]) {
          failure_logged_[slot] = true;
          Log(kGpaLoggingMessage, "GPM source: GPU {} gives no '{}': {}", device.identity.index,
              counters_[c]->descriptor.name, library_->Describe(metric.status));
        }
        continue;
      }
      MonitorRecord record;
      record.timestamp_ns = end_ns;
      record.duration_ns = duration_ns;
      record.device_index = device.identity.index;
      record.counter_index = static_cast<uint32_t>(c);
      record.value = metric.value * counters_[c]->scale;
      records->push_back(record);
    }
  }
  return kGpaStatusOk;
}

GpaStatus GpmCounterSource::Stop(std::vector<MonitorRecord>* records) {
  (void)records;  // GPM samples are taken at each tick; nothing is buffered
  for (Device& device : devices_) device.has_previous = false;
  return kGpaStatusOk;
}

}  // namespace opengpa::monitor
