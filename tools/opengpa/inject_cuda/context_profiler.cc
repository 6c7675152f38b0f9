#include "context_profiler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

#include "backends/cuda/cuda_device.h"
#include "nvidia/cuda_driver.h"

namespace opengpa::inject_cuda {
namespace {

using profiling::ReplayMode;

std::string PassesText(std::size_t passes) { return std::to_string(passes) + (passes == 1 ? " pass" : " passes"); }

using Clock = std::chrono::steady_clock;
double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool EnvironmentIs(const char* variable, const char* value) {
  const char* set = std::getenv(variable);
  return set != nullptr && std::strcmp(set, value) == 0;
}

}  // namespace

std::unique_ptr<ContextProfiler> ContextProfiler::Create(CUcontext context, const std::vector<std::string>& names,
                                                         const profiling::ProfileSettings& settings,
                                                         std::size_t batch_size, std::string* error) {
  const nvidia::CudaDriver* driver = nvidia::LoadCudaDriver();
  if (!driver) {
    *error = "cannot load the CUDA driver entry points";
    return nullptr;
  }
  const auto setup_start = std::chrono::steady_clock::now();
  cuda::LiveDevice device;
  if (cuda::DescribeContextDevice(*driver, context, &device) != kGpaStatusOk) {
    *error = "cannot describe the context's device; see the messages above";
    return nullptr;
  }
  auto profiler = std::make_unique<ContextProfiler>(PrivateKey{});
  profiler->context_ = context;
  profiler->batch_size_ = batch_size;
  char name[256] = {};
  driver->cuDeviceGetName(name, sizeof name, device.device);
  profiler->device_name_ = name;

  std::string chip;
  std::vector<std::uint8_t> availability;
  if (nvidia::EnsureCuptiProfilerInitialized() != kGpaStatusOk ||
      nvidia::CheckDeviceSupportsRangeProfiling(device.device) != kGpaStatusOk ||
      nvidia::CuptiChipName(device.device, &chip) != kGpaStatusOk ||
      nvidia::CounterAvailabilityImage(context, &availability) != kGpaStatusOk ||
      nvidia::CuptiHostMetrics::Create(chip, std::move(availability), &profiler->chip_) != kGpaStatusOk) {
    *error = "CUPTI cannot profile " + profiler->device_name_ + " (chip " + (chip.empty() ? std::string("?") : chip) +
             "); see the messages above";
    return nullptr;
  }
  CounterPlan plan;
  if (!PlanCounters(*profiler->chip_, device.constants, names, &plan, error)) return nullptr;
  EnsureDurationOutput(*profiler->chip_, &plan);

  std::unique_ptr<nvidia::CuptiMetricConfig> whole;
  if (nvidia::CuptiMetricConfig::Create(*profiler->chip_, plan.metrics, &whole) != kGpaStatusOk) {
    *error = "CUPTI cannot collect these metrics together on " + profiler->device_name_ + "; see the messages above";
    return nullptr;
  }
  ReplayMode mode = settings.replay;
  if (mode == ReplayMode::kAuto) mode = whole->pass_count() == 1 ? ReplayMode::kNone : ReplayMode::kApplication;
  if (mode == ReplayMode::kNone && whole->pass_count() > 1) {
    *error = "--replay-mode none collects one-pass sets, and these counters need " + PassesText(whole->pass_count()) +
             " on " + chip + ": use --replay-mode application or kernel (or auto)";
    return nullptr;
  }
  std::vector<std::string> measured = plan.metrics;
  std::string description_note;
  std::uint32_t passes = 1;
  std::vector<std::vector<std::string>> groups;
  if (mode == ReplayMode::kApplication && !SplitIntoSinglePassGroups(*profiler->chip_, plan.metrics, &groups, error)) {
    if (settings.replay != ReplayMode::kAuto) return nullptr;
    // auto: a metric that needs several passes by itself cannot be split across runs; CUPTI's kernel
    // replay collects it (error says which metric).
    description_note = "auto picked kernel replay: " + *error;
    mode = ReplayMode::kKernel;
  }
  if (mode == ReplayMode::kApplication) {
    if (settings.pass >= groups.size()) {
      *error = "application replay: pass " + std::to_string(settings.pass + 1) + " asked for, the set has " +
               PassesText(groups.size());
      return nullptr;
    }
    measured = groups[settings.pass];
    passes = static_cast<std::uint32_t>(groups.size());
    if (nvidia::CuptiMetricConfig::Create(*profiler->chip_, measured, &profiler->config_) != kGpaStatusOk) {
      *error = "CUPTI cannot configure pass " + std::to_string(settings.pass + 1) + "; see the messages above";
      return nullptr;
    }
  } else {
    if (mode == ReplayMode::kKernel) passes = static_cast<std::uint32_t>(whole->pass_count());
    profiler->config_ = std::move(whole);
  }
  profiler->replay_ = mode == ReplayMode::kKernel ? CUPTI_KernelReplay : CUPTI_UserReplay;

  profiling::ProfileRun& description = profiler->description_;
  description.api = "cuda";
  description.device = profiler->device_name_;
  for (const std::string& metric : measured) {
    const auto at = std::find(plan.metrics.begin(), plan.metrics.end(), metric) - plan.metrics.begin();
    description.counters.push_back({metric, plan.metric_units[static_cast<std::size_t>(at)], "float64"});
  }
  description.outputs = plan.outputs;
  description.constants = plan.constants;
  description.replay = std::string(profiling::ReplayModeName(mode));
  description.pass = mode == ReplayMode::kApplication ? settings.pass : 0;
  description.passes = passes;
  if (!description_note.empty()) description.messages.push_back(description_note);

  // Under kernel replay CUPTI replays inside the launch, so a flush could only precede its first pass, and
  // the flush kernel would itself be replayed with its 2x-L2 buffer saved and restored (docs/benchmarks.md:
  // three times the cost for the same values). Application replay is the way to consistent caches.
  if (settings.flush_caches && mode == ReplayMode::kKernel) {
    description.messages.push_back(
        "--cache-control all does not apply to kernel replay (CUPTI replays inside the launch); caches are not "
        "flushed. Application replay flushes before every pass of every launch.");
  } else if (settings.flush_caches) {
    std::string flush_error;
    // OPENGPA_PROFILE_FLUSH_CONTEXT=program: the flush in the program's context, as before a context of its
    // own was used (for comparing the two; docs/benchmarks.md).
    profiler->l2_flush_ = EnvironmentIs("OPENGPA_PROFILE_FLUSH_CONTEXT", "program")
                              ? L2Flush::CreateInProgramContext(context, &flush_error)
                              : L2Flush::Create(context, &flush_error);
    if (!profiler->l2_flush_) {
      *error = flush_error;
      return nullptr;
    }
  }
  profiler->setup_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - setup_start).count();
  return profiler;
}

ContextProfiler::~ContextProfiler() = default;

void ContextProfiler::Abandon() {
  session_.reset();
  if (l2_flush_) l2_flush_->Abandon();
}

bool ContextProfiler::StartBatch(std::string* error) {
  auto step = Clock::now();
  // The object of the batch before, its counter data reset; a fresh one only if CUPTI refuses the reset.
  if (session_ && session_->ResetCounterData(false) != kGpaStatusOk) session_.reset();
  if (!session_) {
    nvidia::RangeProfilerOptions options;
    options.range = CUPTI_AutoRange;
    options.replay = replay_;
    // A flush kernel in the program's context is a range of its own.
    options.max_ranges_per_pass = l2_flush_ && !l2_flush_->in_own_context() ? 2 * batch_size_ : batch_size_;
    if (nvidia::CuptiRangeSession::Create(context_, *config_, options, &session_) != kGpaStatusOk) {
      session_.reset();
      *error = "cannot set up CUPTI range profiling (auto range, " +
               std::string(replay_ == CUPTI_KernelReplay ? "kernel" : "user") + " replay) on " + device_name_;
      return false;
    }
  }
  times_.create += MsSince(step);
  step = Clock::now();
  if (session_->Start() != kGpaStatusOk) {
    session_.reset();
    *error = "cannot start CUPTI range profiling on " + device_name_;
    return false;
  }
  times_.start += MsSince(step);
  batch_open_ = true;
  ++batches_;
  return true;
}

std::size_t ContextProfiler::BeginLaunch(KernelLaunch launch, std::uint64_t index, bool profiled,
                                         profiling::SampleStreamWriter& stream) {
  if (!profiled) {
    // Outside a batch nothing profiles it; inside one, auto range makes a range of it that must be skipped.
    if (!batch_open_) return static_cast<std::size_t>(-1);
    batch_.push_back({index, std::move(launch), false, false, false});
    return batch_.size() - 1;
  }
  std::size_t in_batch = 0;  // ranges the batch holds (its flushes aside)
  for (const PendingLaunch& pending : batch_) in_batch += pending.cancelled ? 0 : 1;
  if (in_batch >= batch_size_) Flush(stream);
  if (!batch_open_) {
    std::string error;
    if (!StartBatch(&error)) {
      stream.WriteMessage(error);
      return static_cast<std::size_t>(-1);
    }
  }
  batch_.push_back({index, std::move(launch), true, false, false});
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

void ContextProfiler::FlushCachesBefore(std::size_t position, CUstream stream,
                                        profiling::SampleStreamWriter& stream_writer) {
  if (!l2_flush_ || position >= batch_.size() || !batch_[position].profiled || batch_[position].flushed) return;
  const auto step = Clock::now();
  std::string error;
  const bool enqueued = l2_flush_->Enqueue(stream, &error);
  times_.flush += MsSince(step);
  if (enqueued) {
    batch_[position].flushed = true;
  } else {
    stream_writer.WriteMessage(error + "; caches are no longer flushed in this context");
    l2_flush_.reset();
  }
}

void ContextProfiler::CancelLaunch(std::size_t position) {
  if (position < batch_.size()) batch_[position].cancelled = true;
}

void ContextProfiler::Flush(profiling::SampleStreamWriter& stream) {
  std::vector<PendingLaunch> launches;
  for (auto& pending : batch_) {
    if (!pending.cancelled) launches.push_back(std::move(pending));
  }
  batch_.clear();
  if (!batch_open_ || !session_) return;
  batch_open_ = false;
  const auto decode_start = Clock::now();
  // At exit or context teardown the context need not be current on this thread; decoding waits on it.
  const nvidia::CudaDriver* driver = nvidia::LoadCudaDriver();
  std::optional<nvidia::ScopedCurrentContext> current;
  if (driver) current.emplace(*driver, context_);
  bool all_passes = false;
  std::size_t dropped = 0;
  std::size_t ranges = 0;
  std::size_t samples = 0;
  auto step = Clock::now();
  const bool stopped = session_->Stop(&all_passes) == kGpaStatusOk;
  times_.stop += MsSince(step);
  step = Clock::now();
  const bool decoded = stopped && session_->Decode(&dropped) == kGpaStatusOk;
  times_.decode += MsSince(step);
  step = Clock::now();
  if (!decoded || nvidia::CounterDataRangeCount(session_->counter_data(), &ranges) != kGpaStatusOk) {
    stream.WriteMessage("could not decode a batch of " + std::to_string(launches.size()) +
                        " kernel launches; their samples are lost");
  } else {
    // Each launch is one range; a flushed launch is preceded by the flush kernel's own range when the
    // flush runs in the program's context.
    std::size_t flushes = 0;
    for (const PendingLaunch& launch : launches) flushes += launch.flushed ? 1 : 0;
    const bool flush_ranges = flushes > 0 && ranges == launches.size() + flushes;
    if ((ranges != launches.size() && !flush_ranges) || dropped != 0) {
      stream.WriteMessage("CUPTI returned " + std::to_string(ranges) + " ranges (" + std::to_string(dropped) +
                          " dropped) for " + std::to_string(launches.size()) + " kernel launches and " +
                          std::to_string(flushes) + " L2 flushes; samples are matched in launch order");
    }
    std::vector<double> values(config_->metrics().size());
    std::size_t range = 0;
    for (std::size_t i = 0; i < launches.size(); ++i) {
      if (launches[i].flushed && flush_ranges) ++range;
      if (range >= ranges) break;
      const std::size_t this_range = range++;
      if (!launches[i].profiled) continue;
      profiling::Sample sample;
      sample.index = launches[i].index;
      sample.name = launches[i].launch.name;
      sample.queue = launches[i].launch.stream_id;
      sample.grid = launches[i].launch.grid;
      sample.block = launches[i].launch.block;
      sample.nvtx = launches[i].launch.nvtx;
      if (config_->Evaluate(session_->counter_data(), this_range, values.data()) == kGpaStatusOk) {
        sample.values = values;
      } else {
        sample.values.assign(values.size(), std::numeric_limits<double>::quiet_NaN());
      }
      if (announced_streams_.insert(sample.queue).second) {
        stream.WriteQueue({sample.queue, "stream " + std::to_string(sample.queue), device_name_});
      }
      stream.WriteSample(sample);
      ++samples;
    }
  }
  times_.evaluate += MsSince(step);
  if (!decoded) session_.reset();
  // Where the profiler's own time goes (setup once per context, decoding once per batch).
  char timing[400];
  std::snprintf(timing, sizeof timing,
                "timing: CUPTI setup %.1f ms (once per context), batch %zu of %zu launches (%zu ranges) decoded in "
                "%.1f ms; so far: create %.1f, start %.1f, flush %.1f, stop %.1f, decode %.1f, evaluate %.1f ms",
                setup_ms_, batches_, samples, ranges, MsSince(decode_start), times_.create, times_.start, times_.flush,
                times_.stop, times_.decode, times_.evaluate);
  stream.WriteMessage(timing);
}

}  // namespace opengpa::inject_cuda
