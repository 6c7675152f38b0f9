#include "backends/cuda/cuda_context.h"

#include <algorithm>

#include "backends/cuda/cuda_device_info.h"
#include "backends/cuda/cuda_session.h"
#include "backends/cuda/cuda_streaming.h"
#include "cuda_counters/cuda_catalogs.h"
#include "cuda_counters/cuda_hardware_counters.h"
#include "nvidia/cupti_range_session.h"
#include "platform/logging.h"

namespace opengpa::cuda {

using nvidia::CheckDeviceSupportsRangeProfiling;
using nvidia::CounterAvailabilityImage;
using nvidia::CuptiHostMetrics;
using nvidia::CuptiMetricConfig;
using nvidia::EnsureCuptiProfilerInitialized;
namespace {

std::vector<std::string_view> CatalogTexts() {
  std::vector<std::string_view> texts;
  for (const EmbeddedCatalog& catalog : EmbeddedCatalogs()) texts.emplace_back(catalog.text);
  return texts;
}

}  // namespace

GpaStatus CudaContext::Open(const std::string& chip_name, std::unique_ptr<Live> live,
                            std::uint32_t max_samples_per_pass, std::unique_ptr<BackendContext>* out) {
  auto context = std::make_unique<CudaContext>(Key{});
  std::vector<std::uint8_t> availability;
  std::string chip = chip_name;
  if (live != nullptr) {
    chip = live->device.chip;
    if (GpaStatus status = CheckDeviceSupportsRangeProfiling(live->device.device); status != kGpaStatusOk) {
      return status;
    }
    if (GpaStatus status = EnsureCuptiProfilerInitialized(); status != kGpaStatusOk) return status;
    if (GpaStatus status = CounterAvailabilityImage(live->context, &availability); status != kGpaStatusOk) {
      return status;
    }
    context->device_ = DeviceInfoOf(live->device);
  } else {
    context->device_ = OfflineDevice(chip);
  }
  if (GpaStatus status = CuptiHostMetrics::Create(chip, std::move(availability), &context->metrics_);
      status != kGpaStatusOk) {
    return status;
  }
  if (GpaStatus status =
          BuildHardwareCounters(*context->metrics_, NamesInFormulas(CatalogTexts()), &context->hardware_);
      status != kGpaStatusOk) {
    return status;
  }
  context->streams_ = ChipStreams(chip);
  if (live != nullptr && context->streams_) {
    int major = 0;
    int minor = 0;
    live->driver->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, live->device.device);
    live->driver->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, live->device.device);
    context->streams_ = major > 8 || (major == 8 && minor >= 6);
  }
  context->live_ = std::move(live);
  context->max_samples_per_pass_ = max_samples_per_pass;
  Log(kGpaLoggingMessage, "CUDA context on {}: {} CUPTI metrics{}", context->device_.name, context->hardware_.size(),
      context->offline() ? " (offline: enumeration and pass counts only)" : "");
  *out = std::move(context);
  return kGpaStatusOk;
}

std::vector<std::string_view> CudaContext::DerivedCatalogs() const { return CatalogTexts(); }

std::vector<std::pair<std::string, double>> CudaContext::Constants() const {
  if (live_ == nullptr) return {};
  return live_->device.constants;
}

GpaStatus CudaContext::MetricNames(const std::vector<HardwareCounterIndex>& counters,
                                   std::vector<std::string>* names) const {
  names->clear();
  for (HardwareCounterIndex index : counters) {
    if (index >= hardware_.size()) {
      return LogError(kGpaStatusErrorIndexOutOfRange, "hardware counter index {} is not below the counter count {}",
                      index, hardware_.size());
    }
    names->push_back(hardware_[index].name);
  }
  return kGpaStatusOk;
}

GpaStatus CudaContext::CountPasses(const std::vector<HardwareCounterIndex>& counters, GpaUInt32* passes) {
  if (counters.empty()) {
    *passes = 0;
    return kGpaStatusOk;
  }
  std::vector<HardwareCounterIndex> key = counters;
  std::sort(key.begin(), key.end());
  key.erase(std::unique(key.begin(), key.end()), key.end());
  {
    std::lock_guard<std::mutex> lock(pass_cache_mutex_);
    if (const auto it = pass_cache_.find(key); it != pass_cache_.end()) {
      *passes = it->second;
      return kGpaStatusOk;
    }
  }
  std::vector<std::string> names;
  if (GpaStatus status = MetricNames(key, &names); status != kGpaStatusOk) return status;
  std::unique_ptr<CuptiMetricConfig> config;
  if (GpaStatus status = CuptiMetricConfig::Create(*metrics_, std::move(names), &config); status != kGpaStatusOk) {
    return status;
  }
  *passes = static_cast<GpaUInt32>(config->pass_count());
  std::lock_guard<std::mutex> lock(pass_cache_mutex_);
  pass_cache_.emplace(std::move(key), *passes);
  return kGpaStatusOk;
}

GpaStatus CudaContext::CheckStreamable(const std::vector<HardwareCounterIndex>& counters) {
  if (!streams_) {
    return LogError(kGpaStatusErrorIncompatibleSampleTypes, "{} streams no counters (no PM sampling)", device_.name);
  }
  std::vector<std::string> names;
  if (GpaStatus status = MetricNames(counters, &names); status != kGpaStatusOk) return status;
  return CheckStreamableMetrics(device_.chip, names);
}

GpaStatus CudaContext::CreateSession(int type, const std::vector<HardwareCounterIndex>& counters,
                                     std::unique_ptr<BackendSession>* out) {
  if (live_ == nullptr) {
    return LogError(kGpaStatusErrorHardwareNotSupported,
                    "the CUDA context for chip {} is offline (opened without a CUcontext): it lists counters and "
                    "counts passes, but cannot collect samples",
                    device_.chip);
  }
  std::vector<std::string> names;
  if (type == static_cast<int>(kGpaSessionSampleTypeStreamingCounter) && streams_) {
    if (GpaStatus status = MetricNames(counters, &names); status != kGpaStatusOk) return status;
    return CreateStreamingSession(*live_->driver, live_->context, live_->device.device, std::move(names), out);
  }
  if (type != kGpaSessionSampleTypeDiscreteCounter) {
    return LogError(kGpaStatusErrorIncompatibleSampleTypes, "sample_type {} is not supported by this CUDA context",
                    static_cast<int>(type));
  }
  if (GpaStatus status = MetricNames(counters, &names); status != kGpaStatusOk) return status;
  std::unique_ptr<CuptiMetricConfig> config;
  if (GpaStatus status = CuptiMetricConfig::Create(*metrics_, std::move(names), &config); status != kGpaStatusOk) {
    return status;
  }
  *out = std::make_unique<CudaSession>(*live_->driver, live_->context, std::move(config), max_samples_per_pass_);
  return kGpaStatusOk;
}

}  // namespace opengpa::cuda
