// CUPTI range profiling of one CUDA context for `opengpa profile`: one range per profiled kernel launch
// (or per NVTX range with --range-mode nvtx), with the replay the run asked for (profile_environment.h):
//   none         user replay with a one-pass set: each launch runs once, as the program made it, and
//                costs about a millisecond; a set of several passes is refused
//   kernel       CUPTI's kernel replay: each launch runs once per pass, device memory saved and restored
//   application  this run collects one group of metrics that fits a pass (counter_plan.h), like none; the
//                CLI runs the program once per group and joins the runs
// With --cache-control all, an L2 flush (l2_flush.h) runs before every profiled launch.
//
// Ranges: each profiled launch is a CUPTI auto range (CUPTI makes one of every kernel of the context). With
// --range-mode nvtx each sample is a CUPTI user range around an NVTX range instead, pushed by OpenRange
// (after its flush) and popped by CloseRange; work outside user ranges is not profiled. Kernel launches can
// be user ranges too (OPENGPA_PROFILE_RANGES=user: pushed right before the launch reaches the driver, popped
// right after), which costs less with the flush but measures the window of the launch call rather than the
// kernel (UseUserRanges in the .cc has the figures).
// A CUDA graph launch is one user range around cuGraphLaunch (graph_sampling.h says why). So a batch is of
// auto ranges or of user ranges: where kernel launches are auto ranges, a graph launch ends a batch of auto
// ranges and opens one of user ranges, and the next kernel launch the reverse, the range profiler object
// made afresh at each switch (a setup's cost). Kernel replay samples no graphs.
//
// Collective kernels (launch.collective, collective_kernels.h) wait for peers: under kernel replay they are
// measured in batches of their own with user replay and one single-pass group of the metrics (the others left
// empty, a message says which), so that no collective is ever run twice; an unprofiled one ends an open batch of
// kernel replay before it. A collective launch never waits for the GPU's turn.
//
// Launches are profiled in batches: when a batch's counter-data image is full, or the context ends, or
// the launch filter is exhausted, the batch is stopped, decoded and evaluated, each range becomes a sample
// in the stream, and the next profiled launch starts the next batch. One range-profiler object serves
// every batch of the context, its counter data reset in between: a fresh object per batch cost 6 times as
// much in cuptiRangeProfilerStart on the H100 (557 against 93 ms per batch of 512 ranges; docs/benchmarks.md).
#ifndef OPENGPA_PROFILER_CONTEXT_PROFILER_H_
#define OPENGPA_PROFILER_CONTEXT_PROFILER_H_

#include <cuda.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "nvidia/counter_handover.h"
#include "nvidia/cupti_host_metrics.h"
#include "nvidia/cupti_range_session.h"
#include "profiler/counter_plan.h"
#include "profiler/flush_order.h"
#include "profiler/gpu_turns.h"
#include "profiler/kernel_launch.h"
#include "profiler/l2_flush.h"
#include "profiler/profile_environment.h"
#include "profiler/sample_stream.h"

namespace opengpa::inject_cuda {

// Whether a run with `settings` may make kernel launches user ranges of their own (then a launch's range is
// open from its entry callback to its exit, and launches must not overlap: injection_session.cc serializes them).
bool LaunchesMayBeUserRanges(const profiling::ProfileSettings& settings);

class ContextProfiler {
 public:
  // Sets up CUPTI for `context` (current on this thread): resolves `names` (counter_plan.h), picks the
  // replay of `settings` (auto: none for a one-pass set, application otherwise). On failure returns nullptr
  // and *error says why (unknown counter, a set none cannot collect, another profiler attached).
  static std::unique_ptr<ContextProfiler> Create(CUcontext context, const std::vector<std::string>& names,
                                                 const profiling::ProfileSettings& settings, std::size_t batch_size,
                                                 std::string* error);
  struct PrivateKey {  // only Create constructs one
   private:
    PrivateKey() = default;
    friend class ContextProfiler;
  };
  explicit ContextProfiler(PrivateKey) {}
  ~ContextProfiler();

  // The GPU the context runs on (named in its queue records), and the turns of the program's processes on it
  // (gpu_turns.h) under `gpu_key`: `turn_held` when the caller acquired the turn for this profiler's setup. The
  // profiler holds the turn while it has a range profiler, takes it again before setting one up, and hands it
  // back in Release. Without `turns` nothing is coordinated.
  void UseGpu(const profiling::GpuIdentity& gpu, profiling::GpuTurns* turns, std::string gpu_key, bool turn_held);
  const std::string& gpu_key() const { return gpu_key_; }
  bool holds_turn() const { return holds_turn_; }
  // Keeps the process's claim on the GPU's counters (nvidia/counter_handover.h) for the profiler's life.
  void HoldCounterClaim(std::shared_ptr<nvidia::CounterClaim> claim) { counter_claim_ = std::move(claim); }

  // The stream header: the metrics this run measures, the outputs asked for, the replay and its pass.
  const profiling::ProfileRun& Description() const { return description_; }
  const std::string& DeviceName() const { return device_name_; }

  // Before a launch reaches the driver. `profiled`: the filter chose it (its range becomes a sample);
  // otherwise, with auto ranges, it is only accounted for when a batch is open (auto range makes a range
  // of it anyway), and with user ranges it is not recorded at all. Returns its position in the batch, for
  // Update, OpenRange, CloseRange and CancelLaunch (or -1: not recorded). With --range-mode nvtx the
  // "launch" is an NVTX range: its name the range's path, its work every kernel until CloseRange.
  std::size_t BeginLaunch(KernelLaunch launch, std::uint64_t index, bool profiled,
                          profiling::SampleStreamWriter& stream);
  // Grid, block and stream from a nested driver callback.
  void Update(std::size_t position, const KernelLaunch& details);
  // --cache-control all: the L2 flush, on the launch's stream, right before the launch at `position`.
  void FlushCachesBefore(std::size_t position, CUstream stream, profiling::SampleStreamWriter& stream_writer);
  // The launch failed (no range was made): forget it.
  void CancelLaunch(std::size_t position);
  // User ranges: the CUPTI range of the launch at `position`, pushed once, after its flush (false: none
  // was pushed, e.g. with auto ranges), and popped after the launch.
  bool OpenRange(std::size_t position);
  // Whether the open batch holds a collective launch (another context must not end it from a launch of its
  // own: the collective may wait for that very launch's peers, injection_session.cc's ProfileOnly).
  bool HoldsCollective() const;
  void CloseRange(std::size_t position);
  bool user_ranges() const { return user_ranges_; }

  // A CUDA graph launch the filter chose (graph_sampling.h): ends a batch of auto ranges, opens a batch of
  // user ranges if none is open, and returns the launch's position, for FlushCachesBefore, OpenRange (its
  // user range), CloseRange (after cuGraphLaunch) and CancelLaunch; -1 where graphs cannot be sampled
  // (kernel replay: SamplesGraphs).
  std::size_t BeginGraphLaunch(KernelLaunch launch, std::uint64_t index, profiling::SampleStreamWriter& stream);
  // A graph launch that is not sampled: an open batch of auto ranges must end before it (a pass of auto ranges
  // holding a graph launch fails to stop); a batch of user ranges may stay open.
  void BeforeUnsampledGraphLaunch(profiling::SampleStreamWriter& stream);
  bool SamplesGraphs() const { return replay_ == CUPTI_UserReplay; }
  // Whether a graph launch's user range is open (between cuGraphLaunch's entry and exit on some thread): a
  // range holds all of the context's work, so a launch another thread makes then must run unprofiled, and
  // ShareOpenGraphRange leaves the graph's sample unavailable rather than let it count that launch too.
  bool GraphRangeOpen() const;
  void ShareOpenGraphRange(profiling::SampleStreamWriter& stream);
  // --range-mode nvtx: the NVTX range at `position` holds a graph launch, whose SASS-instrumented metrics
  // CUPTI does not count (graph_sampling.h): they are left unavailable in its sample.
  void HoldsGraphLaunch(std::size_t position);

  // Collects the open batch and gives CUPTI's range profiler of this context back, so that another context
  // (of this process or another) can be profiled (CUPTI profiles one context at a time: the other's setup fails
  // with CUPTI_ERROR_HARDWARE_BUSY), and with it the GPU's turn; the next launch here sets it up again.
  void Release(profiling::SampleStreamWriter& stream);
  // Why the last batch could not start (CUPTI, or the GPU's turn: gpu_turns.h names the holder), for the report
  // of the process's unprofiled launches.
  const std::string& start_error() const { return start_error_; }
  // Counts the batches started: a position is valid only in the batch it was given in.
  std::size_t batch_number() const { return batches_; }

  // Decodes the current batch into samples and ends the range-profiler session.
  void Flush(profiling::SampleStreamWriter& stream);
  // The context is being destroyed: what it owns goes with it.
  void Abandon();
  // The program's context is being destroyed (CUPTI's context-destroy callback): the profiler may go, but
  // an L2 flush in a context of its own is not destroyed from inside the driver's teardown of another
  // context (at exit that teardown is the runtime's). Returns that flush for the caller to destroy later,
  // outside the callback; a flush in the program's context is abandoned.
  std::unique_ptr<L2Flush> TakeFlushForLater();

  struct PendingLaunch {
    std::uint64_t index = 0;
    KernelLaunch launch;
    bool profiled = true;  // its range becomes a sample
    bool flushed = false;  // an L2 flush kernel ran right before it (with auto ranges, a range of its own)
    bool cancelled = false;
    bool range_open = false;    // user ranges: pushed, not yet popped
    bool range_pushed = false;  // user ranges: its range exists in the batch's counter data
    bool shared = false;        // a graph launch: another thread's launch ran inside its range
    bool holds_graph = false;   // an NVTX range: a graph launch ran inside it
  };

 private:
  // `user`: a batch of user ranges (graph launches, NVTX ranges, kernel launches as user ranges); `collective`:
  // a batch of collective launches in their own pass (collective_config_); `wait_for_turn` false: a collective
  // launch, which never waits for the GPU's turn.
  bool StartBatch(bool user, bool collective, bool wait_for_turn, std::string* error);
  // The range profiler goes, then the GPU's turn.
  void DropSession();
  // Ends the open batch when it collects the other kind of range than `user`, or of launch than `collective`.
  void EndBatchOfOtherKind(bool user, bool collective, profiling::SampleStreamWriter& stream);
  // The metric configuration of the open batch: the run's, or collective launches' own pass.
  const nvidia::CuptiMetricConfig& BatchConfig() const;
  // Values of metrics CUPTI does not count inside graph launches become unavailable (graph_sampling.h).
  void LeaveOutUncountedInGraphs(std::vector<double>* values, profiling::SampleStreamWriter& stream);
  // Samples of a decoded batch: auto ranges in launch order, user ranges by their names (positions).
  void WriteAutoRangeSamples(std::vector<PendingLaunch>& batch, std::size_t ranges,
                             profiling::SampleStreamWriter& stream, std::size_t* samples);
  void WriteUserRangeSamples(std::vector<PendingLaunch>& batch, std::size_t ranges,
                             profiling::SampleStreamWriter& stream, std::size_t* samples);
  void WriteSample(const PendingLaunch& launch, std::size_t range, std::vector<double>& values,
                   profiling::SampleStreamWriter& stream);

  // Milliseconds spent in each step since the context was set up, for the `timing:` lines.
  struct StepTimes {
    double create = 0, start = 0, flush = 0, push = 0, stop = 0, decode = 0, evaluate = 0;
  };

  CUcontext context_ = nullptr;
  std::string device_name_;
  profiling::GpuIdentity gpu_;
  profiling::GpuTurns* turns_ = nullptr;
  std::string gpu_key_;
  bool holds_turn_ = false;
  // This process's claim on the GPU's counters against a monitor's PM sampling (injection_session.cc), kept for
  // as long as the context is profiled.
  std::shared_ptr<nvidia::CounterClaim> counter_claim_;
  std::size_t batch_size_ = 0;
  CUpti_ProfilerReplayMode replay_ = CUPTI_UserReplay;
  bool user_ranges_ = false;       // kernel launches (or NVTX ranges) are user ranges
  bool batch_user_ = false;        // the last batch started, the range profiler object's: user ranges
  bool batch_collective_ = false;  // the last batch started: collective launches in their own pass
  // Kernel replay: collective launches' own pass (one single-pass group of config_'s metrics, user replay), and
  // for each of its metrics the column of config_ it fills; null where collectives need no pass of their own.
  std::unique_ptr<nvidia::CuptiMetricConfig> collective_config_;
  std::vector<std::size_t> collective_columns_;
  bool announced_collective_pass_ = false;
  bool announced_uncounted_in_graphs_ = false;
  std::unique_ptr<nvidia::CuptiHostMetrics> chip_;
  std::unique_ptr<nvidia::CuptiMetricConfig> config_;
  std::unique_ptr<nvidia::CuptiRangeSession> session_;
  std::unique_ptr<L2Flush> l2_flush_;
  FlushOrderChooser flush_order_;                        // for a flush in a context of its own
  std::chrono::steady_clock::time_point batch_started_;  // the open batch's Start, for flush_order_
  std::vector<PendingLaunch> batch_;
  bool batch_open_ = false;  // the session is started and collecting this batch's ranges
  StepTimes times_;
  profiling::ProfileRun description_;
  std::set<std::uint32_t> announced_streams_;
  double setup_ms_ = 0.0;
  std::string start_error_;
  std::size_t batches_ = 0;
};

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_PROFILER_CONTEXT_PROFILER_H_
