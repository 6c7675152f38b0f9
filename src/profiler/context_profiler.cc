#include "profiler/context_profiler.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

#include "cuda_counters/cuda_device.h"
#include "nvidia/cuda_driver.h"
#include "profiler/collective_kernels.h"
#include "profiler/graph_sampling.h"
#include "profiler/replay_choice.h"

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

// User ranges or auto ranges under user replay. A user range measures a window of the context's time, not a
// kernel: everything the GPU does between the push and the pop, idle time included. Around a launch, on the
// H100 (docs/benchmarks.md), it cost less with the L2 flush (1.53 against 2.61 ms per launch: the flush runs
// outside it, in the program's context) but its values were not the kernel's: 10-15 us of GPU time more per
// launch for small kernels, and in PyTorch the first launch of a kernel (the driver loading its module inside
// the launch call) read 20 ms and 439 MB of DRAM writes, the GPU time of the 176 launches 7.6 times ncu's
// (median). So kernel launches are auto ranges, whose values are the kernel's alone; NVTX ranges, windows by
// definition, are user ranges. OPENGPA_PROFILE_RANGES=user makes launches user ranges (to measure them).
bool UseUserRanges(const profiling::ProfileSettings& settings) {
  if (settings.range_mode == profiling::RangeMode::kNvtx) return true;
  return EnvironmentIs("OPENGPA_PROFILE_RANGES", "user");
}

}  // namespace

bool LaunchesMayBeUserRanges(const profiling::ProfileSettings& settings) {
  return settings.range_mode == profiling::RangeMode::kKernel && settings.replay != ReplayMode::kKernel &&
         UseUserRanges(settings);
}

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
  // The replay: asked for, or auto's pick (replay_choice.h); a set auto cannot collect with one-pass values is
  // refused, naming the metrics that need several passes alone.
  std::vector<SelfMultiPassMetric> alone;
  if (whole->pass_count() > 1 && settings.replay != ReplayMode::kNone && settings.replay != ReplayMode::kKernel) {
    alone = MetricsNeedingSeveralPasses(*profiler->chip_, plan.metrics);
  }
  const ReplayChoice choice = ChooseReplay(settings.replay, whole->pass_count(), alone, chip);
  if (!choice.refusal.empty()) {
    *error = choice.refusal;
    return nullptr;
  }
  ReplayMode mode = choice.mode;
  std::vector<std::string> measured = plan.metrics;
  std::string description_note = choice.note;
  std::uint32_t passes = 1;
  std::vector<std::vector<std::string>> groups;
  if (mode == ReplayMode::kApplication && !SplitIntoSinglePassGroups(*profiler->chip_, plan.metrics, &groups, error)) {
    return nullptr;
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
  if (settings.range_mode == profiling::RangeMode::kNvtx && profiler->replay_ != CUPTI_UserReplay) {
    *error =
        "--range-mode nvtx needs --replay-mode none or application (CUPTI's kernel replay replays single "
        "launches, not NVTX ranges)";
    return nullptr;
  }
  profiler->user_ranges_ = profiler->replay_ == CUPTI_UserReplay && UseUserRanges(settings);
  // Collective launches are never replayed (collective_kernels.h): under kernel replay they get a pass of their
  // own with user replay, measuring the single-pass group that holds the duration (a metric that alone needs
  // several passes cannot be in any: then the duration alone).
  if (profiling::CollectivesNeedOwnPass(mode)) {
    std::vector<std::string> own = plan.metrics;
    if (profiler->config_->pass_count() > 1) {
      std::vector<std::vector<std::string>> single_pass;
      std::string split_error;
      if (SplitIntoSinglePassGroups(*profiler->chip_, plan.metrics, &single_pass, &split_error) &&
          !single_pass.empty()) {
        own = single_pass[profiling::CollectivePassGroup(single_pass, "gpu__time_duration.sum")];
      } else {
        own.clear();
        for (const std::string& metric : plan.metrics) {
          if (metric == "gpu__time_duration.sum") own.push_back(metric);
        }
      }
    }
    if (!own.empty() &&
        nvidia::CuptiMetricConfig::Create(*profiler->chip_, own, &profiler->collective_config_) == kGpaStatusOk) {
      const std::vector<std::string>& all = profiler->config_->metrics();
      for (const std::string& metric : profiler->collective_config_->metrics()) {
        profiler->collective_columns_.push_back(
            static_cast<std::size_t>(std::find(all.begin(), all.end(), metric) - all.begin()));
      }
    } else {
      profiler->collective_config_.reset();
      *error = "kernel replay cannot measure collective kernels in a pass of their own on " + profiler->device_name_ +
               " (CUPTI refused their configuration; see the messages above), and replaying them could hang the job";
      return nullptr;
    }
  }

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
    description.messages.emplace_back(
        "--cache-control all does not apply to kernel replay (CUPTI replays inside the launch); caches are not "
        "flushed. Application replay flushes before every pass of every launch.");
  } else if (settings.flush_caches) {
    std::string flush_error;
    // With user ranges the flush runs in the program's context, before the launch's range is pushed: outside
    // any range, it costs only its own GPU time. With auto ranges it would be a range of its own there, so it
    // runs in a context of its own (OPENGPA_PROFILE_FLUSH_CONTEXT=program: in the program's, to compare).
    profiler->l2_flush_ = profiler->user_ranges_ || EnvironmentIs("OPENGPA_PROFILE_FLUSH_CONTEXT", "program")
                              ? L2Flush::CreateInProgramContext(context, &flush_error)
                              : L2Flush::Create(context, &flush_error);
    if (const char* order = std::getenv("OPENGPA_PROFILE_FLUSH_ORDER")) {
      profiler->flush_order_ = FlushOrderChooser(order);  // gpu or host: no timing (flush_order.h)
    }
    if (!profiler->l2_flush_) {
      *error = flush_error;
      return nullptr;
    }
  }
  profiler->setup_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - setup_start).count();
  return profiler;
}

ContextProfiler::~ContextProfiler() { DropSession(); }

void ContextProfiler::UseGpu(const profiling::GpuIdentity& gpu, profiling::GpuTurns* turns, std::string gpu_key,
                             bool turn_held) {
  gpu_ = gpu;
  turns_ = turns;
  gpu_key_ = std::move(gpu_key);
  holds_turn_ = turn_held;
}

void ContextProfiler::DropSession() {
  session_.reset();  // CUPTI lets the GPU go with the range profiler: only then may another process take it
  if (holds_turn_ && turns_ != nullptr) turns_->Release(gpu_key_);
  holds_turn_ = false;
}

void ContextProfiler::Abandon() {
  DropSession();
  if (l2_flush_) l2_flush_->Abandon();
}

std::unique_ptr<L2Flush> ContextProfiler::TakeFlushForLater() {
  if (!l2_flush_) return nullptr;
  if (!l2_flush_->in_own_context()) {
    l2_flush_->Abandon();  // its module and buffers live in the context being destroyed
    return nullptr;
  }
  return std::move(l2_flush_);
}

const nvidia::CuptiMetricConfig& ContextProfiler::BatchConfig() const {
  return batch_collective_ && collective_config_ ? *collective_config_ : *config_;
}

bool ContextProfiler::HoldsCollective() const {
  if (!batch_open_) return false;
  for (const PendingLaunch& pending : batch_) {
    if (pending.launch.collective && !pending.cancelled) return true;
  }
  return false;
}

bool ContextProfiler::StartBatch(bool user, bool collective, bool wait_for_turn, std::string* error) {
  auto step = Clock::now();
  // The object of the batch before, its counter data reset; a fresh one for the other kind of range (on the
  // H100 an object set up for auto ranges and configured again for user ranges refused every PushRange with
  // CUPTI_ERROR_INVALID_PARAMETER), or if CUPTI refuses the reset.
  // Collective launches' own pass is another configuration and replay: another object too.
  collective = collective && collective_config_ != nullptr;
  if (session_ && (batch_user_ != user || batch_collective_ != collective)) session_.reset();
  if (session_ && session_->ResetCounterData(false) != kGpaStatusOk) session_.reset();
  if (!session_ && !holds_turn_ && turns_ != nullptr && !gpu_key_.empty()) {
    // Another process of the program may hold the GPU: wait for its turn (gpu_turns.h), unless the launch is a
    // collective, which never waits (its peers may be what the holder waits for).
    if (!turns_->Acquire(gpu_key_, error, wait_for_turn)) return false;
    holds_turn_ = true;
  }
  if (!session_) {
    nvidia::RangeProfilerOptions options;
    options.range = user ? CUPTI_UserRange : CUPTI_AutoRange;
    options.replay = collective ? CUPTI_UserReplay : replay_;
    // With auto ranges a flush kernel in the program's context is a range of its own.
    const bool flush_ranges = !user && l2_flush_ && !l2_flush_->in_own_context();
    options.max_ranges_per_pass = flush_ranges ? 2 * batch_size_ : batch_size_;
    if (nvidia::CuptiRangeSession::Create(context_, collective ? *collective_config_ : *config_, options, &session_) !=
        kGpaStatusOk) {
      session_.reset();
      *error = "cannot set up CUPTI range profiling (" + std::string(user ? "user" : "auto") + " range, " +
               std::string(options.replay == CUPTI_KernelReplay ? "kernel" : "user") + " replay" +
               (collective ? ", collective launches' own pass" : "") + ") on " + device_name_;
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
  batch_started_ = Clock::now();
  if (l2_flush_ && l2_flush_->in_own_context()) l2_flush_->set_host_ordered(flush_order_.host_ordered());
  batch_user_ = user;
  batch_collective_ = collective;
  ++batches_;
  return true;
}

std::size_t ContextProfiler::BeginLaunch(KernelLaunch launch, std::uint64_t index, bool profiled,
                                         profiling::SampleStreamWriter& stream) {
  // Under kernel replay a collective launch is never in a batch that replays (collective_kernels.h).
  const bool own_pass = launch.collective && collective_config_ != nullptr;
  if (!profiled) {
    // An unprofiled collective ends an open batch of kernel replay first: auto ranges would make it a range of
    // that batch, replayed once per pass.
    if (own_pass && batch_open_ && !batch_user_ && !batch_collective_) {
      Flush(stream);
      return static_cast<std::size_t>(-1);
    }
    // Outside a batch nothing profiles it, nor outside a user range; inside a batch of auto ranges it is a
    // range that must be skipped.
    if (!batch_open_ || batch_user_) return static_cast<std::size_t>(-1);
    batch_.push_back({index, std::move(launch), false, false, false});
    return batch_.size() - 1;
  }
  // After graph launches, a kernel launch of an auto-range run; a collective after other launches, or the reverse.
  EndBatchOfOtherKind(user_ranges_, own_pass, stream);
  std::size_t in_batch = 0;  // ranges the batch holds (its flushes aside)
  for (const PendingLaunch& pending : batch_) in_batch += pending.cancelled ? 0 : 1;
  if (in_batch >= batch_size_) Flush(stream);
  if (!batch_open_) {
    std::string error;
    if (!StartBatch(user_ranges_, own_pass, !launch.collective, &error)) {
      start_error_ = error;
      stream.WriteMessage(error);
      return static_cast<std::size_t>(-1);
    }
  }
  batch_.push_back({index, std::move(launch), true, false, false});
  return batch_.size() - 1;
}

void ContextProfiler::EndBatchOfOtherKind(bool user, bool collective, profiling::SampleStreamWriter& stream) {
  collective = collective && collective_config_ != nullptr;
  if (batch_open_ && (batch_user_ != user || batch_collective_ != collective)) Flush(stream);
}

std::size_t ContextProfiler::BeginGraphLaunch(KernelLaunch launch, std::uint64_t index,
                                              profiling::SampleStreamWriter& stream) {
  if (!SamplesGraphs()) {
    BeforeUnsampledGraphLaunch(stream);
    return static_cast<std::size_t>(-1);
  }
  EndBatchOfOtherKind(true, false, stream);
  if (batch_.size() >= batch_size_) Flush(stream);
  if (!batch_open_) {
    std::string error;
    if (!StartBatch(true, false, true, &error)) {
      stream.WriteMessage(error);
      return static_cast<std::size_t>(-1);
    }
  }
  batch_.push_back({index, std::move(launch), true, false, false});
  return batch_.size() - 1;
}

void ContextProfiler::BeforeUnsampledGraphLaunch(profiling::SampleStreamWriter& stream) {
  if (batch_open_ && !batch_user_) Flush(stream);
}

bool ContextProfiler::GraphRangeOpen() const {
  for (const PendingLaunch& pending : batch_) {
    if (pending.range_open && pending.launch.graph && !pending.launch.graph_node_launched) return true;
  }
  return false;
}

void ContextProfiler::ShareOpenGraphRange(profiling::SampleStreamWriter& stream) {
  for (PendingLaunch& pending : batch_) {
    if (!pending.range_open || !pending.launch.graph || pending.launch.graph_node_launched || pending.shared) continue;
    pending.shared = true;
    stream.WriteMessage("another thread launched work in this CUDA context while CUDA graph launch " +
                        std::to_string(pending.index) +
                        " was measured: that launch ran unprofiled, and the graph's sample, which would count it "
                        "too, is left unavailable");
  }
}

void ContextProfiler::HoldsGraphLaunch(std::size_t position) {
  if (position < batch_.size()) batch_[position].holds_graph = true;
}

void ContextProfiler::Release(profiling::SampleStreamWriter& stream) {
  Flush(stream);
  DropSession();
}

void ContextProfiler::LeaveOutUncountedInGraphs(std::vector<double>* values, profiling::SampleStreamWriter& stream) {
  const std::vector<std::string>& metrics = config_->metrics();  // the sample's columns, whatever its batch measured
  for (std::size_t m = 0; m < metrics.size() && m < values->size(); ++m) {
    if (CountedInsideGraphs(metrics[m])) continue;
    (*values)[m] = std::numeric_limits<double>::quiet_NaN();
    if (announced_uncounted_in_graphs_) continue;
    stream.WriteMessage(metrics[m] +
                        " is not counted inside CUDA graph launches (CUPTI instruments kernels at their own launch; it "
                        "read 0 on the H100): unavailable for samples that hold a graph launch");
    announced_uncounted_in_graphs_ = true;
  }
}

bool ContextProfiler::OpenRange(std::size_t position) {
  if (!batch_user_ || !batch_open_ || !session_ || position >= batch_.size()) return false;
  PendingLaunch& pending = batch_[position];
  if (!pending.profiled || pending.cancelled || pending.range_pushed) return pending.range_open;
  // The range's name is the launch's position in the batch: decoding matches samples by it.
  const auto step = Clock::now();
  if (session_->PushRange(std::to_string(position).c_str()) != kGpaStatusOk) return false;
  times_.push += MsSince(step);
  pending.range_open = pending.range_pushed = true;
  return true;
}

void ContextProfiler::CloseRange(std::size_t position) {
  if (position >= batch_.size()) return;
  PendingLaunch& pending = batch_[position];
  // A profiled launch that reached the GPU without a range of its own has no values: no sample.
  if (batch_user_ && pending.profiled && !pending.range_pushed) pending.cancelled = true;
  if (!pending.range_open || !session_) return;
  pending.range_open = false;
  const auto step = Clock::now();
  // A range CUPTI did not close holds no clean values: no sample (CUPTI's message is in the stream).
  if (session_->PopRange() != kGpaStatusOk) pending.cancelled = true;
  times_.push += MsSince(step);
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
  std::vector<PendingLaunch> batch = std::move(batch_);
  batch_.clear();
  if (!batch_open_ || !session_) return;
  batch_open_ = false;
  const auto decode_start = Clock::now();
  // At exit or context teardown the context need not be current on this thread; decoding waits on it.
  const nvidia::CudaDriver* driver = nvidia::LoadCudaDriver();
  std::optional<nvidia::ScopedCurrentContext> current;
  if (driver) current.emplace(*driver, context_);
  // A range still open (the batch ends inside an NVTX range, or inside a launch) is closed first: a pass
  // stops only with every range popped.
  for (PendingLaunch& pending : batch) {
    if (pending.range_open) {
      pending.range_open = false;
      if (session_->PopRange() != kGpaStatusOk) pending.cancelled = true;  // as in CloseRange
    }
  }
  bool all_passes = false;
  std::size_t dropped = 0;
  std::size_t ranges = 0;
  std::size_t samples = 0;
  auto step = Clock::now();
  const bool stopped = session_->Stop(&all_passes) == kGpaStatusOk;
  times_.stop += MsSince(step);
  if (l2_flush_ && l2_flush_->in_own_context() && !batch_user_) {
    std::size_t flushed = 0;
    for (const PendingLaunch& pending : batch) flushed += pending.flushed ? 1 : 0;
    if (auto choice = flush_order_.OnBatchEnd(MsSince(batch_started_), flushed)) stream.WriteMessage(*choice);
  }
  step = Clock::now();
  const bool decoded = stopped && session_->Decode(&dropped) == kGpaStatusOk;
  times_.decode += MsSince(step);
  step = Clock::now();
  if (!decoded || nvidia::CounterDataRangeCount(session_->counter_data(), &ranges) != kGpaStatusOk) {
    stream.WriteMessage("could not decode a batch of " + std::to_string(batch.size()) +
                        " kernel launches; their samples are lost");
  } else {
    if (dropped != 0) {
      stream.WriteMessage("CUPTI dropped " + std::to_string(dropped) + " ranges of a batch of " +
                          std::to_string(batch.size()) + " kernel launches");
    }
    if (batch_user_) {
      WriteUserRangeSamples(batch, ranges, stream, &samples);
    } else {
      WriteAutoRangeSamples(batch, ranges, stream, &samples);
    }
  }
  times_.evaluate += MsSince(step);
  if (!decoded) session_.reset();
  // Where the profiler's own time goes (setup once per context, decoding once per batch).
  char timing[440];
  std::snprintf(timing, sizeof timing,
                "timing: CUPTI setup %.1f ms (once per context), batch %zu of %zu launches (%zu ranges) decoded in "
                "%.1f ms; so far: create %.1f, start %.1f, flush %.1f, push/pop %.1f, stop %.1f, decode %.1f, "
                "evaluate %.1f ms",
                setup_ms_, batches_, samples, ranges, MsSince(decode_start), times_.create, times_.start, times_.flush,
                times_.push, times_.stop, times_.decode, times_.evaluate);
  stream.WriteMessage(timing);
}

void ContextProfiler::WriteAutoRangeSamples(std::vector<PendingLaunch>& batch, std::size_t ranges,
                                            profiling::SampleStreamWriter& stream, std::size_t* samples) {
  std::vector<PendingLaunch> launches;
  for (auto& pending : batch) {
    if (!pending.cancelled) launches.push_back(std::move(pending));
  }
  // Each launch is one range; a flushed launch is preceded by the flush kernel's own range when the
  // flush runs in the program's context.
  std::size_t flushes = 0;
  for (const PendingLaunch& launch : launches) flushes += launch.flushed ? 1 : 0;
  const bool flush_ranges = flushes > 0 && ranges == launches.size() + flushes;
  if (ranges != launches.size() && !flush_ranges) {
    stream.WriteMessage("CUPTI returned " + std::to_string(ranges) + " ranges for " + std::to_string(launches.size()) +
                        " kernel launches and " + std::to_string(flushes) +
                        " L2 flushes; samples are matched in launch order");
  }
  std::vector<double> values(config_->metrics().size());
  std::size_t range = 0;
  for (const PendingLaunch& launch : launches) {
    if (launch.flushed && flush_ranges) ++range;
    if (range >= ranges) break;
    const std::size_t this_range = range++;
    if (!launch.profiled) continue;
    WriteSample(launch, this_range, values, stream);
    ++*samples;
  }
}

void ContextProfiler::WriteUserRangeSamples(std::vector<PendingLaunch>& batch, std::size_t ranges,
                                            profiling::SampleStreamWriter& stream, std::size_t* samples) {
  // Each range is named by its launch's position in the batch; a launch that failed after its range was
  // pushed has a range with no work in it, and is left out.
  std::vector<std::size_t> range_of(batch.size(), ranges);
  std::size_t unnamed = 0;
  for (std::size_t range = 0; range < ranges; ++range) {
    std::string name;
    char* end = nullptr;
    std::size_t position = batch.size();
    if (nvidia::CounterDataRangeName(session_->counter_data(), range, &name) == kGpaStatusOk && !name.empty()) {
      position = static_cast<std::size_t>(std::strtoull(name.c_str(), &end, 10));
      if (end == nullptr || *end != '\0') position = batch.size();
    }
    if (position < batch.size()) {
      range_of[position] = range;
    } else {
      ++unnamed;
    }
  }
  std::size_t missing = 0;
  std::vector<double> values(config_->metrics().size());
  for (std::size_t position = 0; position < batch.size(); ++position) {
    const PendingLaunch& launch = batch[position];
    if (!launch.profiled || launch.cancelled) continue;
    if (range_of[position] >= ranges) {
      ++missing;
      continue;
    }
    WriteSample(launch, range_of[position], values, stream);
    ++*samples;
  }
  if (missing != 0 || unnamed != 0) {
    stream.WriteMessage("CUPTI returned " + std::to_string(ranges) + " ranges for a batch of " +
                        std::to_string(batch.size()) + " profiled launches: " + std::to_string(missing) +
                        " launch(es) have no range (their samples are lost), " + std::to_string(unnamed) +
                        " range(s) no launch");
  }
}

void ContextProfiler::WriteSample(const PendingLaunch& launch, std::size_t range, std::vector<double>& values,
                                  profiling::SampleStreamWriter& stream) {
  profiling::Sample sample;
  sample.index = launch.index;
  sample.name = launch.launch.name;
  sample.queue = launch.launch.stream_id;
  sample.grid = launch.launch.grid;
  sample.block = launch.launch.block;
  sample.nvtx = launch.launch.nvtx;
  sample.context = launch.launch.context_id;
  sample.graph = launch.launch.graph;
  sample.graph_node = launch.launch.graph_node;
  const nvidia::CuptiMetricConfig& measured = BatchConfig();
  if (&measured != config_.get()) {
    // A collective's own pass: its metrics fill their columns, the others stay empty (collective_kernels.h).
    std::vector<double> own(measured.metrics().size());
    sample.values.assign(values.size(), std::numeric_limits<double>::quiet_NaN());
    if (measured.Evaluate(session_->counter_data(), range, own.data()) == kGpaStatusOk) {
      for (std::size_t m = 0; m < own.size() && m < collective_columns_.size(); ++m) {
        if (collective_columns_[m] < sample.values.size()) sample.values[collective_columns_[m]] = own[m];
      }
    }
    if (!announced_collective_pass_) {
      std::vector<std::string> left_empty;
      for (const std::string& metric : config_->metrics()) {
        const auto& own_metrics = measured.metrics();
        if (std::find(own_metrics.begin(), own_metrics.end(), metric) == own_metrics.end()) {
          left_empty.push_back(metric);
        }
      }
      stream.WriteMessage(profiling::CollectivePassNote(launch.launch.name, measured.metrics(), left_empty));
      announced_collective_pass_ = true;
    }
  } else if (config_->Evaluate(session_->counter_data(), range, values.data()) == kGpaStatusOk) {
    sample.values = values;
  } else {
    sample.values.assign(values.size(), std::numeric_limits<double>::quiet_NaN());
  }
  if ((sample.graph && !launch.launch.graph_node_launched) || launch.holds_graph) {
    LeaveOutUncountedInGraphs(&sample.values, stream);
  }
  if (launch.shared) sample.values.assign(values.size(), std::numeric_limits<double>::quiet_NaN());
  if (announced_streams_.insert(sample.queue).second) {
    stream.WriteQueue({sample.queue, "stream " + std::to_string(sample.queue), device_name_, gpu_});
  }
  stream.WriteSample(sample);
}

}  // namespace opengpa::inject_cuda
