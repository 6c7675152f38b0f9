// CUPTI range profiling of one CUDA context for `opengpa profile`: auto ranges (one range per kernel
// launch) with kernel replay (CUPTI runs each kernel once per pass, saving and restoring device memory),
// so an unmodified program gets one sample per launch however many passes its counters need.
//
// Launches are profiled in batches: when a batch's counter-data image is full, or the context ends, the
// batch is stopped, decoded and evaluated, each range becomes a sample in the stream, and a fresh
// range-profiler session starts the next batch.
#ifndef OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_CONTEXT_PROFILER_H_
#define OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_CONTEXT_PROFILER_H_

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "kernel_launch.h"
#include "nvidia/cupti_host_metrics.h"
#include "nvidia/cupti_range_session.h"
#include "sample_stream.h"

namespace opengpa::inject_cuda {

// Numbers launches across every context of the process, in launch order.
struct LaunchCounter {
  std::uint64_t next = 0;
};

class ContextProfiler {
 public:
  // Sets up CUPTI for `context` (current on this thread) and starts the first batch. On failure returns
  // nullptr and *error says why (unknown metric, device CUPTI cannot profile, another profiler attached).
  static std::unique_ptr<ContextProfiler> Create(CUcontext context, const std::vector<std::string>& metrics,
                                                 std::size_t batch_size, std::string* error);
  struct PrivateKey {  // only Create constructs one
   private:
    PrivateKey() = default;
    friend class ContextProfiler;
  };
  explicit ContextProfiler(PrivateKey) {}
  ~ContextProfiler();

  // The counters as the stream header lists them (usage = CUPTI's unit of each metric).
  std::vector<profiling::ProfiledCounter> Counters() const;
  const std::string& DeviceName() const { return device_name_; }

  // Before a launch reaches the driver: flushes a full batch, then records the launch. Returns its
  // position in the batch, for Update.
  std::size_t BeginLaunch(KernelLaunch launch, LaunchCounter& counter, profiling::SampleStreamWriter& stream);
  // Grid, block and stream from a nested driver callback.
  void Update(std::size_t position, const KernelLaunch& details);
  // The launch failed (no range was made): forget it.
  void CancelLaunch(std::size_t position);

  // Decodes the current batch into samples. With `restart`, starts a new batch afterwards.
  void Flush(profiling::SampleStreamWriter& stream, bool restart);

  struct PendingLaunch {
    std::uint64_t index = 0;
    KernelLaunch launch;
    bool cancelled = false;
  };

 private:
  bool StartBatch(std::string* error);

  CUcontext context_ = nullptr;
  std::string device_name_;
  std::size_t batch_size_ = 0;
  std::unique_ptr<nvidia::CuptiHostMetrics> chip_;
  std::unique_ptr<nvidia::CuptiMetricConfig> config_;
  std::unique_ptr<nvidia::CuptiRangeSession> session_;
  std::vector<PendingLaunch> batch_;
  std::vector<std::string> units_;
  std::set<std::uint32_t> announced_streams_;
  double setup_ms_ = 0.0;
};

}  // namespace opengpa::inject_cuda

#endif  // OPENGPA_TOOLS_OPENGPA_INJECT_CUDA_CONTEXT_PROFILER_H_
