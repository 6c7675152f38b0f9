// CUPTI range profiling of one CUDA context for `opengpa profile`: auto ranges (one range per kernel
// launch), with the replay the run asked for (profile_environment.h):
//   none         user replay with a one-pass set: each launch runs once, as the program made it, and
//                costs about a millisecond; a set of several passes is refused
//   kernel       CUPTI's kernel replay: each launch runs once per pass, device memory saved and restored
//   application  this run collects one group of metrics that fits a pass (counter_plan.h), like none; the
//                CLI runs the program once per group and joins the runs
// With --cache-control all, an L2 flush (l2_flush.h) runs before every profiled launch.
//
// Launches are profiled in batches: when a batch's counter-data image is full, or the context ends, or
// the launch filter is exhausted, the batch is stopped, decoded and evaluated, each range becomes a sample
// in the stream, and the next profiled launch starts the next batch. One range-profiler object serves
// every batch of the context, its counter data reset in between: a fresh object per batch cost 6 times as
// much in cuptiRangeProfilerStart on the H100 (557 against 93 ms per batch of 512 ranges; docs/benchmarks.md).
#ifndef OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_CONTEXT_PROFILER_H_
#define OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_CONTEXT_PROFILER_H_

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "counter_plan.h"
#include "kernel_launch.h"
#include "l2_flush.h"
#include "nvidia/cupti_host_metrics.h"
#include "nvidia/cupti_range_session.h"
#include "profile_environment.h"
#include "sample_stream.h"

namespace opengpa::inject_cuda {

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

  // The stream header: the metrics this run measures, the outputs asked for, the replay and its pass.
  const profiling::ProfileRun& Description() const { return description_; }
  const std::string& DeviceName() const { return device_name_; }

  // Before a launch reaches the driver. `profiled`: the filter chose it (its range becomes a sample);
  // otherwise it is only accounted for when a batch is open (auto range makes a range of it anyway).
  // Returns its position in the batch, for Update and CancelLaunch.
  std::size_t BeginLaunch(KernelLaunch launch, std::uint64_t index, bool profiled,
                          profiling::SampleStreamWriter& stream);
  // Grid, block and stream from a nested driver callback.
  void Update(std::size_t position, const KernelLaunch& details);
  // --cache-control all: the L2 flush, on the launch's stream, right before the launch at `position`.
  void FlushCachesBefore(std::size_t position, CUstream stream, profiling::SampleStreamWriter& stream_writer);
  // The launch failed (no range was made): forget it.
  void CancelLaunch(std::size_t position);

  // Decodes the current batch into samples and ends the range-profiler session.
  void Flush(profiling::SampleStreamWriter& stream);
  // The context is being destroyed: what it owns goes with it.
  void Abandon();

  struct PendingLaunch {
    std::uint64_t index = 0;
    KernelLaunch launch;
    bool profiled = true;  // its range becomes a sample
    bool flushed = false;  // an L2 flush kernel (a range of its own) ran right before it
    bool cancelled = false;
  };

 private:
  bool StartBatch(std::string* error);

  // Milliseconds spent in each step since the context was set up, for the `timing:` lines.
  struct StepTimes {
    double create = 0, start = 0, flush = 0, stop = 0, decode = 0, evaluate = 0;
  };

  CUcontext context_ = nullptr;
  std::string device_name_;
  std::size_t batch_size_ = 0;
  CUpti_ProfilerReplayMode replay_ = CUPTI_UserReplay;
  std::unique_ptr<nvidia::CuptiHostMetrics> chip_;
  std::unique_ptr<nvidia::CuptiMetricConfig> config_;
  std::unique_ptr<nvidia::CuptiRangeSession> session_;
  std::unique_ptr<L2Flush> l2_flush_;
  std::vector<PendingLaunch> batch_;
  bool batch_open_ = false;  // the session is started and collecting this batch's ranges
  StepTimes times_;
  profiling::ProfileRun description_;
  std::set<std::uint32_t> announced_streams_;
  double setup_ms_ = 0.0;
  std::size_t batches_ = 0;
};

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_CONTEXT_PROFILER_H_
