#include "monitor/monitor.h"

#include <algorithm>

#include "monitor/gpm_counter_source.h"
#include "monitor/nvml_counter_source.h"
#include "monitor/pm_sampling_source.h"
#include "platform/logging.h"

namespace opengpa::monitor {

namespace {

struct CounterRequest {
  bool all_nvml = false;
  std::vector<std::string> nvml;
  bool all_gpm = false;
  bool gpm_optional = false;  // the default set: GPM where the GPUs have it
  std::vector<std::string> gpm;
  std::vector<std::string> pm;
};

GpaStatus SortCounterNames(const std::vector<std::string>& names, CounterRequest* request) {
  // The default: NVML's counters and GPM's (which run beside profilers); PM sampling only on request, since it
  // excludes profilers from the GPU (docs/realtime.md "Sources").
  const std::vector<std::string> defaults = {"nvml", "gpm"};
  request->gpm_optional = names.empty();
  for (const std::string& name : names.empty() ? defaults : names) {
    if (name == "nvml") {
      request->all_nvml = true;
    } else if (name == "gpm") {
      request->all_gpm = true;
    } else if (IsGpmCounterName(name)) {
      if (std::find(request->gpm.begin(), request->gpm.end(), name) == request->gpm.end()) request->gpm.push_back(name);
    } else if (name == "pm") {
      for (const std::string& metric : DefaultPmMetrics()) {
        if (std::find(request->pm.begin(), request->pm.end(), metric) == request->pm.end()) {
          request->pm.push_back(metric);
        }
      }
    } else if (IsNvmlCounterName(name)) {
      request->nvml.push_back(name);
    } else if (LooksLikePmMetricName(name)) {
      if (std::find(request->pm.begin(), request->pm.end(), name) == request->pm.end()) request->pm.push_back(name);
    } else {
      return LogError(kGpaStatusErrorCounterNotFound,
                      "monitor: unknown counter '{}': neither an NVML or GPM counter (opengpa monitor --list-counters) "
                      "nor a CUPTI metric name such as sm__cycles_active.avg",
                      name);
    }
  }
  if (request->all_nvml) request->nvml.clear();  // empty list = every NVML counter
  if (request->all_gpm) request->gpm.clear();
  return kGpaStatusOk;
}

}  // namespace

GpaStatus Monitor::Create(const MonitorOptions& options, std::unique_ptr<Monitor>* monitor) {
  if (monitor == nullptr) return LogError(kGpaStatusErrorNullPointer, "monitor: output pointer is null");
  monitor->reset();
  if (options.interval < kMinimumInterval || options.interval > kMaximumInterval) {
    return LogError(kGpaStatusErrorInvalidParameter, "monitor: interval {} ms is outside [{}, {}] ms",
                    options.interval.count(), kMinimumInterval.count(), kMaximumInterval.count());
  }
  CounterRequest request;
  if (GpaStatus status = SortCounterNames(options.counters, &request); status != kGpaStatusOk) return status;

  std::vector<std::unique_ptr<CounterSource>> sources;
  std::vector<DeviceIdentity> nvml_devices;
  if (request.all_nvml || !request.nvml.empty()) {
    NvmlSourceOptions nvml;
    nvml.device_indices = options.device_indices;
    nvml.counter_names = request.nvml;
    nvml.library_candidates = options.nvml_library_candidates;
    std::unique_ptr<NvmlCounterSource> source;
    if (GpaStatus status = NvmlCounterSource::Create(nvml, &source); status != kGpaStatusOk) return status;
    nvml_devices = source->Devices();
    sources.push_back(std::move(source));
  }
  if (request.all_gpm || !request.gpm.empty()) {
    GpmSourceOptions gpm;
    gpm.device_indices = options.device_indices;
    gpm.counter_names = request.gpm;
    gpm.library_candidates = options.nvml_library_candidates;
    gpm.optional = request.gpm_optional;
    std::unique_ptr<GpmCounterSource> source;
    const GpaStatus status = GpmCounterSource::Create(gpm, &source);
    if (status == kGpaStatusOk) {
      sources.push_back(std::move(source));
    } else if (!gpm.optional) {
      return status;
    }
  }
  if (!request.pm.empty()) {
    PmSamplingOptions pm;
    if (!nvml_devices.empty()) {
      pm.devices = nvml_devices;  // matched to CUDA devices by UUID
    } else {
      for (uint32_t index : options.device_indices) pm.devices.push_back({index, "", ""});
    }
    pm.metrics = request.pm;
    pm.interval_ns = options.pm_interval_ns;
    if (options.pm_hardware_buffer_bytes != 0) pm.hardware_buffer_bytes = options.pm_hardware_buffer_bytes;
    pm.cupti_library_candidates = options.cupti_library_candidates;
    pm.cuda_library_candidates = options.cuda_library_candidates;
    std::unique_ptr<CounterSource> source;
    if (GpaStatus status = CreatePmSamplingSource(pm, &source); status != kGpaStatusOk) return status;
    sources.push_back(std::move(source));
  }
  return CreateWithSources(options, std::move(sources), monitor);
}

GpaStatus Monitor::CreateWithSources(const MonitorOptions& options, std::vector<std::unique_ptr<CounterSource>> sources,
                                     std::unique_ptr<Monitor>* monitor) {
  if (monitor == nullptr) return LogError(kGpaStatusErrorNullPointer, "monitor: output pointer is null");
  monitor->reset();
  if (sources.empty()) return LogError(kGpaStatusErrorNoCountersEnabled, "monitor: no counter source");
  for (const auto& source : sources) {
    if (source == nullptr) return LogError(kGpaStatusErrorNullPointer, "monitor: a counter source is null");
  }
  if (options.interval < kMinimumInterval || options.interval > kMaximumInterval) {
    return LogError(kGpaStatusErrorInvalidParameter, "monitor: interval {} ms is outside [{}, {}] ms",
                    options.interval.count(), kMinimumInterval.count(), kMaximumInterval.count());
  }
  if (options.record_capacity == 0) {
    return LogError(kGpaStatusErrorInvalidParameter, "monitor: record_capacity is 0");
  }
  *monitor = std::make_unique<Monitor>(options, std::move(sources));
  return kGpaStatusOk;
}

Monitor::Monitor(const MonitorOptions& options, std::vector<std::unique_ptr<CounterSource>> sources)
    : interval_(options.interval), on_records_(options.on_records), ring_(options.record_capacity) {
  for (auto& source : sources) {
    Slot slot;
    slot.counter_offset = static_cast<uint32_t>(counters_.size());
    for (const CounterDescriptor& counter : source->Counters()) counters_.push_back(counter);
    for (const DeviceIdentity& device : source->Devices()) {
      auto known = std::find_if(devices_.begin(), devices_.end(),
                                [&](const DeviceIdentity& d) { return d.index == device.index; });
      if (known == devices_.end()) devices_.push_back(device);
    }
    slot.source = std::move(source);
    slots_.push_back(std::move(slot));
  }
  std::sort(devices_.begin(), devices_.end(),
            [](const DeviceIdentity& a, const DeviceIdentity& b) { return a.index < b.index; });
  SeriesLabels labels;
  if (options.labels) {
    labels = *options.labels;
  } else {
    std::string warning;
    labels = DiscoverSeriesLabels({}, &warning);
    if (!warning.empty()) Log(kGpaLoggingError, "OPENGPA_MONITOR_LABELS: {} (those entries are left out)", warning);
  }
  latest_ = std::make_unique<LatestValues>(counters_, devices_, std::move(labels));
}

Monitor::~Monitor() {
  // A failure to stop is logged by Stop; a destructor has no one to return it to.
  if (Running()) static_cast<void>(Stop());
}

bool Monitor::Running() const {
  std::lock_guard<std::mutex> lock(control_mutex_);
  return sampler_ != nullptr;
}

GpaStatus Monitor::Start() {
  std::lock_guard<std::mutex> lock(control_mutex_);
  if (sampler_ != nullptr) return LogError(kGpaStatusErrorSessionAlreadyStarted, "monitor: already started");
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (GpaStatus status = slots_[i].source->Start(); status != kGpaStatusOk) {
      std::vector<MonitorRecord> discarded;
      // Undo the ones that started; their own failures are logged, the first source's is what Start returns.
      for (size_t j = 0; j < i; ++j) static_cast<void>(slots_[j].source->Stop(&discarded));
      return status;
    }
  }
  sampler_ = std::make_unique<PeriodicSampler>(interval_, [this] { Tick(); });
  sampler_->Start();
  return kGpaStatusOk;
}

GpaStatus Monitor::Stop() {
  std::lock_guard<std::mutex> lock(control_mutex_);
  if (sampler_ == nullptr) return LogError(kGpaStatusErrorSessionNotStarted, "monitor: not started");
  sampler_->Stop();
  sampler_.reset();
  // The sampler thread is gone: drain what the sources still hold.
  GpaStatus result = kGpaStatusOk;
  std::vector<MonitorRecord> batch;
  for (const Slot& slot : slots_) {
    const size_t first = batch.size();
    if (GpaStatus status = slot.source->Stop(&batch); status != kGpaStatusOk) result = status;
    for (size_t r = first; r < batch.size(); ++r) batch[r].counter_index += slot.counter_offset;
  }
  Publish(batch);
  return result;
}

void Monitor::Tick() {
  scratch_.clear();
  for (const Slot& slot : slots_) {
    const size_t first = scratch_.size();
    // A failing read is logged by the source; the others still count.
    static_cast<void>(slot.source->Poll(&scratch_));
    for (size_t r = first; r < scratch_.size(); ++r) scratch_[r].counter_index += slot.counter_offset;
  }
  Publish(scratch_);
}

void Monitor::Publish(std::vector<MonitorRecord>& batch) {
  if (batch.empty()) return;
  ring_.Push(batch.data(), batch.size());
  latest_->Apply(batch);
  if (on_records_) on_records_(batch.data(), batch.size());
}

}  // namespace opengpa::monitor
