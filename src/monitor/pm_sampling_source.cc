// Compiled only when the CUDA toolkit's CUPTI headers are present (see CMakeLists.txt).
#include "monitor/pm_sampling_source.h"

#include <algorithm>
#include <mutex>

#include <fmt/format.h>

#include "monitor/handover_watcher.h"
#include "monitor/pm_device_sampler.h"
#include "nvidia/counter_handover.h"
#include "nvidia/cuda_driver.h"
#include "nvidia/cupti_pm_library.h"
#include "nvidia/cupti_profiler_session.h"
#include "nvidia/pm_host_object.h"
#include "platform/logging.h"

namespace opengpa::monitor {

using nvidia::CudaDriverLibrary;
using nvidia::PmHostObject;
using nvidia::cupti::ChipName;
using nvidia::cupti::CuptiLibrary;
using nvidia::cupti::ProfilerSession;

bool PmSamplingCompiledIn() { return true; }

namespace {

std::string FormatUuid(const CUuuid& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  return fmt::format(
      "GPU-{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}", b[0],
      b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

constexpr size_t kMinimumHardwareBuffer = size_t{4} << 20;

class PmSamplingSource final : public CounterSource {
 public:
  PmSamplingSource(std::unique_ptr<CuptiLibrary> cupti, std::unique_ptr<CudaDriverLibrary> cuda,
                   std::vector<std::string> metrics)
      : cupti_(std::move(cupti)), cuda_(std::move(cuda)), metrics_(std::move(metrics)) {}
  ~PmSamplingSource() override {
    watcher_.reset();   // its thread calls the samplers
    samplers_.clear();  // before the profiler session and the libraries they use
    session_.reset();
  }

  GpaStatus Configure(const PmSamplingOptions& options) {
    if (GpaStatus status = ProfilerSession::Begin(*cupti_, &session_); status != kGpaStatusOk) return status;
    std::vector<std::pair<DeviceIdentity, int>> targets;
    if (GpaStatus status = ResolveDevices(options.devices, &targets); status != kGpaStatusOk) return status;
    for (auto& [identity, ordinal] : targets) {
      auto sampler = std::make_unique<PmDeviceSampler>(*cupti_, cuda_->Api(), identity, ordinal);
      if (GpaStatus status = sampler->Configure(options, metrics_); status != kGpaStatusOk) return status;
      if (descriptors_.empty()) descriptors_ = sampler->Descriptors();
      identities_.push_back(sampler->Identity());
      samplers_.push_back(std::move(sampler));
    }
    return kGpaStatusOk;
  }

  std::string_view Name() const override { return "cupti_pm"; }
  const std::vector<CounterDescriptor>& Counters() const override { return descriptors_; }
  const std::vector<DeviceIdentity>& Devices() const override { return identities_; }

  GpaStatus Start() override {
    // Each GPU decodes and evaluates on threads of its own (nvidia::PmSamplingPipeline): one thread decoding two
    // busy GPUs in turn fell behind both. The watcher starts them, and lets a GPU go while a profiler wants it.
    std::vector<HandedOverDevice*> devices;
    for (auto& sampler : samplers_) devices.push_back(sampler.get());
    watcher_ = std::make_unique<HandoverWatcher>(nvidia::HandoverFolder(), devices);
    if (GpaStatus status = watcher_->Start(); status != kGpaStatusOk) {
      watcher_.reset();
      return status;
    }
    return kGpaStatusOk;
  }
  // Hands over what the GPUs' threads evaluated since the last Poll, GPU by GPU.
  GpaStatus Poll(std::vector<MonitorRecord>* records) override {
    if (watcher_) watcher_->Collect(records);
    return kGpaStatusOk;
  }
  GpaStatus Stop(std::vector<MonitorRecord>* records) override {
    if (!watcher_) return kGpaStatusOk;
    const GpaStatus result = watcher_->Stop(records);
    watcher_.reset();
    return result;
  }

 private:
  GpaStatus ResolveDevices(const std::vector<DeviceIdentity>& wanted,
                           std::vector<std::pair<DeviceIdentity, int>>* targets) {
    int count = 0;
    if (CUresult r = cuda_->Api().cuDeviceGetCount(&count); r != CUDA_SUCCESS || count == 0) {
      return LogError(kGpaStatusErrorHardwareNotSupported, "CUPTI PM sampling: no CUDA device ({})",
                      r == CUDA_SUCCESS ? "count is 0" : cuda_->Describe(r));
    }
    std::vector<DeviceIdentity> cuda_devices(static_cast<size_t>(count));
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      CUdevice device = 0;
      cuda_->Api().cuDeviceGet(&device, ordinal);
      char name[256] = {};
      cuda_->Api().cuDeviceGetName(name, sizeof(name), device);
      CUuuid uuid{};
      cuda_->Api().cuDeviceGetUuid(&uuid, device);
      cuda_devices[static_cast<size_t>(ordinal)] = {static_cast<uint32_t>(ordinal), FormatUuid(uuid), name};
    }
    if (wanted.empty()) {
      for (int ordinal = 0; ordinal < count; ++ordinal) {
        targets->emplace_back(cuda_devices[static_cast<size_t>(ordinal)], ordinal);
      }
      return kGpaStatusOk;
    }
    for (const DeviceIdentity& device : wanted) {
      int found = -1;
      for (int ordinal = 0; ordinal < count; ++ordinal) {
        const DeviceIdentity& candidate = cuda_devices[static_cast<size_t>(ordinal)];
        if (device.uuid.empty() ? candidate.index == device.index : candidate.uuid == device.uuid) found = ordinal;
      }
      if (found < 0) {
        return LogError(kGpaStatusErrorIndexOutOfRange,
                        "CUPTI PM sampling: GPU {} ({}) is not among the {} CUDA device(s)", device.index,
                        device.uuid.empty() ? "by CUDA ordinal" : device.uuid, count);
      }
      DeviceIdentity identity = cuda_devices[static_cast<size_t>(found)];
      identity.index = device.index;  // keep the caller's label
      targets->emplace_back(identity, found);
    }
    return kGpaStatusOk;
  }

  std::unique_ptr<CuptiLibrary> cupti_;
  std::unique_ptr<CudaDriverLibrary> cuda_;
  std::vector<std::string> metrics_;
  std::unique_ptr<ProfilerSession> session_;
  std::vector<std::unique_ptr<PmDeviceSampler>> samplers_;
  std::unique_ptr<HandoverWatcher> watcher_;  // from Start to Stop
  std::vector<CounterDescriptor> descriptors_;
  std::vector<DeviceIdentity> identities_;
};

GpaStatus LoadCupti(const std::vector<std::string>& candidates, std::unique_ptr<CuptiLibrary>* cupti) {
  return CuptiLibrary::Load(candidates.empty() ? nvidia::cupti::DefaultCuptiCandidates() : candidates, cupti);
}

// The CUDA driver from `candidates` (DefaultCudaDriverCandidates() when empty); a failure is logged as PM
// sampling's.
GpaStatus LoadCuda(const std::vector<std::string>& candidates, std::unique_ptr<CudaDriverLibrary>* cuda) {
  GpaStatus status = kGpaStatusOk;
  std::string error;
  *cuda =
      CudaDriverLibrary::Load(candidates.empty() ? nvidia::DefaultCudaDriverCandidates() : candidates, &status, &error);
  if (*cuda == nullptr) return LogError(status, "CUPTI PM sampling: {}", error);
  return kGpaStatusOk;
}

GpaStatus CheckMetricNames(const std::vector<std::string>& metrics) {
  for (const std::string& metric : metrics) {
    if (!LooksLikePmMetricName(metric)) {
      return LogError(kGpaStatusErrorCounterNotFound,
                      "CUPTI PM sampling: '{}' is not a CUPTI metric name (unit__counter.rollup)", metric);
    }
  }
  return kGpaStatusOk;
}

}  // namespace

GpaStatus CreatePmSamplingSource(const PmSamplingOptions& options, std::unique_ptr<CounterSource>* source) {
  if (source == nullptr) return LogError(kGpaStatusErrorNullPointer, "CUPTI PM sampling: output pointer is null");
  source->reset();
  if (options.interval_ns == 0) {
    return LogError(kGpaStatusErrorInvalidParameter, "CUPTI PM sampling: interval_ns is 0");
  }
  if (options.hardware_buffer_bytes < kMinimumHardwareBuffer) {
    return LogError(kGpaStatusErrorInvalidParameter,
                    "CUPTI PM sampling: hardware_buffer_bytes {} is below the {} MiB minimum",
                    options.hardware_buffer_bytes, kMinimumHardwareBuffer >> 20);
  }
  const std::vector<std::string> metrics = options.metrics.empty() ? DefaultPmMetrics() : options.metrics;
  if (GpaStatus status = CheckMetricNames(metrics); status != kGpaStatusOk) return status;

  std::unique_ptr<CuptiLibrary> cupti;
  if (GpaStatus status = LoadCupti(options.cupti_library_candidates, &cupti); status != kGpaStatusOk) return status;
  std::unique_ptr<CudaDriverLibrary> cuda;
  if (GpaStatus status = LoadCuda(options.cuda_library_candidates, &cuda); status != kGpaStatusOk) return status;

  auto pm = std::make_unique<PmSamplingSource>(std::move(cupti), std::move(cuda), metrics);
  if (GpaStatus status = pm->Configure(options); status != kGpaStatusOk) return status;
  *source = std::move(pm);
  return kGpaStatusOk;
}

GpaStatus ListPmBaseMetrics(const std::string& chip, const std::vector<std::string>& cupti_library_candidates,
                            std::string* resolved_chip, std::vector<std::string>* names) {
  std::unique_ptr<CuptiLibrary> cupti;
  if (GpaStatus status = LoadCupti(cupti_library_candidates, &cupti); status != kGpaStatusOk) return status;
  std::string chip_name = chip;
  std::unique_ptr<CudaDriverLibrary> cuda;
  std::unique_ptr<ProfilerSession> session;
  if (chip_name.empty()) {  // the first GPU's chip
    if (GpaStatus status = LoadCuda({}, &cuda); status != kGpaStatusOk) return status;
    if (GpaStatus status = ProfilerSession::Begin(*cupti, &session); status != kGpaStatusOk) return status;
    if (GpaStatus status = ChipName(*cupti, 0, &chip_name); status != kGpaStatusOk) return status;
  }
  std::unique_ptr<PmHostObject> host;
  if (GpaStatus status = PmHostObject::Create(*cupti, chip_name, {}, &host); status != kGpaStatusOk) return status;
  if (resolved_chip != nullptr) *resolved_chip = chip_name;
  return host->BaseMetrics(names);
}

GpaStatus DescribePmMetrics(const std::string& chip, const std::vector<std::string>& metrics,
                            const std::vector<std::string>& cupti_library_candidates,
                            std::vector<CounterDescriptor>* descriptors) {
  descriptors->clear();
  if (GpaStatus status = CheckMetricNames(metrics); status != kGpaStatusOk) return status;
  std::unique_ptr<CuptiLibrary> cupti;
  if (GpaStatus status = LoadCupti(cupti_library_candidates, &cupti); status != kGpaStatusOk) return status;
  std::unique_ptr<PmHostObject> host;
  if (GpaStatus status = PmHostObject::Create(*cupti, chip, {}, &host); status != kGpaStatusOk) return status;
  std::vector<uint8_t> image;
  if (GpaStatus status = host->BuildConfigImage(metrics, &image); status != kGpaStatusOk) return status;
  for (const std::string& metric : metrics) {
    CounterDescriptor descriptor;
    if (GpaStatus status = DescribePmMetric(*host, metric, &descriptor); status != kGpaStatusOk) return status;
    descriptors->push_back(std::move(descriptor));
  }
  return kGpaStatusOk;
}

}  // namespace opengpa::monitor
