#include "context_profiler.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "nvidia/cuda_driver.h"

namespace opengpa::inject_cuda {

std::unique_ptr<ContextProfiler> ContextProfiler::Create(CUcontext context, const std::vector<std::string>& metrics,
                                                         std::size_t batch_size, std::string* error) {
  const nvidia::CudaDriver* driver = nvidia::LoadCudaDriver();
  if (!driver) {
    *error = "cannot load the CUDA driver entry points";
    return nullptr;
  }
  CUdevice device = 0;
  if (CUresult result = driver->cuCtxGetDevice(&device); result != CUDA_SUCCESS) {
    *error = "cuCtxGetDevice failed: " + driver->ErrorName(result);
    return nullptr;
  }
  const auto setup_start = std::chrono::steady_clock::now();
  auto profiler = std::make_unique<ContextProfiler>(PrivateKey{});
  profiler->context_ = context;
  profiler->batch_size_ = batch_size;
  char name[256] = {};
  driver->cuDeviceGetName(name, sizeof name, device);
  profiler->device_name_ = name;

  std::string chip;
  std::vector<std::uint8_t> availability;
  if (nvidia::EnsureCuptiProfilerInitialized() != kGpaStatusOk || nvidia::CheckDeviceSupportsRangeProfiling(device) != kGpaStatusOk ||
      nvidia::CuptiChipName(device, &chip) != kGpaStatusOk ||
      nvidia::CounterAvailabilityImage(context, &availability) != kGpaStatusOk ||
      nvidia::CuptiHostMetrics::Create(chip, std::move(availability), &profiler->chip_) != kGpaStatusOk ||
      nvidia::CuptiMetricConfig::Create(*profiler->chip_, metrics, &profiler->config_) != kGpaStatusOk) {
    *error = "CUPTI cannot profile these metrics on " + profiler->device_name_ + " (chip " +
             (chip.empty() ? std::string("?") : chip) + "); see the messages above";
    return nullptr;
  }
  for (const auto& metric : metrics) {
    nvidia::MetricProperties properties;
    profiler->units_.push_back(profiler->chip_->Properties(metric, &properties) == kGpaStatusOk ? properties.dim_unit
                                                                                                : std::string());
  }
  if (!profiler->StartBatch(error)) return nullptr;
  profiler->setup_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - setup_start).count();
  return profiler;
}

ContextProfiler::~ContextProfiler() = default;

std::vector<profiling::ProfiledCounter> ContextProfiler::Counters() const {
  std::vector<profiling::ProfiledCounter> counters;
  for (std::size_t i = 0; i < config_->metrics().size(); ++i) {
    counters.push_back({config_->metrics()[i], units_[i], "float64"});
  }
  return counters;
}

bool ContextProfiler::StartBatch(std::string* error) {
  session_.reset();  // a range-profiler object per batch: a fresh counter-data image
  nvidia::RangeProfilerOptions options;
  options.range = CUPTI_AutoRange;
  options.replay = CUPTI_KernelReplay;
  options.max_ranges_per_pass = batch_size_;
  if (nvidia::CuptiRangeSession::Create(context_, *config_, options, &session_) != kGpaStatusOk ||
      session_->Start() != kGpaStatusOk) {
    session_.reset();
    *error = "cannot start CUPTI range profiling (auto range, kernel replay) on " + device_name_;
    return false;
  }
  return true;
}

std::size_t ContextProfiler::BeginLaunch(KernelLaunch launch, LaunchCounter& counter,
                                         profiling::SampleStreamWriter& stream) {
  if (batch_.size() >= batch_size_) Flush(stream, true);
  batch_.push_back({counter.next++, std::move(launch), false});
  return batch_.size() - 1;
}

void ContextProfiler::Update(std::size_t position, const KernelLaunch& details) {
  if (position >= batch_.size()) return;
  KernelLaunch& launch = batch_[position].launch;
  if (details.dimensions_known && !launch.dimensions_known) {
    launch.grid = details.grid;
    launch.block = details.block;
    launch.stream_id = details.stream_id;
    launch.dimensions_known = true;
  }
}

void ContextProfiler::CancelLaunch(std::size_t position) {
  if (position < batch_.size()) batch_[position].cancelled = true;
}

void ContextProfiler::Flush(profiling::SampleStreamWriter& stream, bool restart) {
  std::vector<PendingLaunch> launches;
  for (auto& pending : batch_) {
    if (!pending.cancelled) launches.push_back(std::move(pending));
  }
  batch_.clear();
  if (!session_) return;
  const auto decode_start = std::chrono::steady_clock::now();
  // At exit or context teardown the context need not be current on this thread; decoding waits on it.
  const nvidia::CudaDriver* driver = nvidia::LoadCudaDriver();
  std::optional<nvidia::ScopedCurrentContext> current;
  if (driver) current.emplace(*driver, context_);
  bool all_passes = false;
  std::size_t dropped = 0;
  std::size_t ranges = 0;
  if (session_->Stop(&all_passes) != kGpaStatusOk || session_->Decode(&dropped) != kGpaStatusOk ||
      nvidia::CounterDataRangeCount(session_->counter_data(), &ranges) != kGpaStatusOk) {
    stream.WriteMessage("could not decode a batch of " + std::to_string(launches.size()) +
                        " kernel launches; their samples are lost");
  } else {
    if (ranges != launches.size() || dropped != 0) {
      stream.WriteMessage("CUPTI returned " + std::to_string(ranges) + " ranges (" + std::to_string(dropped) +
                          " dropped) for " + std::to_string(launches.size()) +
                          " kernel launches; samples are matched in launch order");
    }
    std::vector<double> values(config_->metrics().size());
    for (std::size_t i = 0; i < launches.size() && i < ranges; ++i) {
      profiling::Sample sample;
      sample.index = launches[i].index;
      sample.name = launches[i].launch.name;
      sample.queue = launches[i].launch.stream_id;
      sample.grid = launches[i].launch.grid;
      sample.block = launches[i].launch.block;
      if (config_->Evaluate(session_->counter_data(), i, values.data()) == kGpaStatusOk) {
        sample.values = values;
      } else {
        sample.values.assign(values.size(), std::numeric_limits<double>::quiet_NaN());
      }
      if (announced_streams_.insert(sample.queue).second) {
        stream.WriteQueue({sample.queue, "stream " + std::to_string(sample.queue), device_name_});
      }
      stream.WriteSample(sample);
    }
  }
  // Where the profiler's own time goes (setup once per context, decoding once per batch).
  char timing[160];
  std::snprintf(timing, sizeof timing, "timing: CUPTI setup %.1f ms (once per context), batch of %zu launches decoded in %.1f ms",
                setup_ms_, launches.size(),
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - decode_start).count());
  stream.WriteMessage(timing);
  if (restart) {
    std::string error;
    if (!StartBatch(&error)) stream.WriteMessage(error);
  } else {
    session_.reset();
  }
}

}  // namespace opengpa::inject_cuda
