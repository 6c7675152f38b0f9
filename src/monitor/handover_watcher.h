// The monitor's side of the counter hand-over (nvidia/counter_handover.h): one thread looks every
// kHandoverWatchPeriod for a profiler that wants one of the monitored GPUs, lets go of that GPU's sampling (what
// was sampled until then still reaches the monitor), and takes it back when the profiler is done. Other GPUs
// and other sources (NVML, GPM) go on meanwhile. Knows nothing of CUPTI: the devices are HandedOverDevice, which
// PM sampling's per-GPU sampler implements and tests replace.
#ifndef OPENGPA_MONITOR_HANDOVER_WATCHER_H_
#define OPENGPA_MONITOR_HANDOVER_WATCHER_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu_performance_api/gpu_perf_api_types.h"
#include "monitor/monitor_types.h"
#include "nvidia/counter_handover.h"

namespace opengpa::monitor {

// One GPU whose counters the monitor samples and can give up for a while.
class HandedOverDevice {
 public:
  virtual ~HandedOverDevice() = default;
  virtual const DeviceIdentity& Identity() const = 0;
  // Takes the GPU's counters (again, after a Release) and samples.
  [[nodiscard]] virtual GpaStatus Resume() = 0;
  // Appends what was sampled since the last call.
  virtual void Collect(std::vector<MonitorRecord>* records) = 0;
  // Stops sampling, appends what is left, and frees the GPU's counters for another user.
  [[nodiscard]] virtual GpaStatus Release(std::vector<MonitorRecord>* records) = 0;
};

class HandoverWatcher {
 public:
  // `folder`: nvidia::HandoverFolder() (empty: no hand-over, every device samples from Start to Stop). Devices are
  // matched to lock files by their UUID and must outlive the watcher.
  HandoverWatcher(const std::string& folder, const std::vector<HandedOverDevice*>& devices,
                  std::chrono::milliseconds period = nvidia::kHandoverWatchPeriod);
  ~HandoverWatcher();
  HandoverWatcher(const HandoverWatcher&) = delete;
  HandoverWatcher& operator=(const HandoverWatcher&) = delete;

  // Takes every GPU no profiler holds and starts it (the others start when their profiler is done), then the
  // thread. The first device's failure to start is returned (after the others were released).
  [[nodiscard]] GpaStatus Start();
  // Appends what every device sampled since the last call, and what devices handed over meanwhile had left.
  void Collect(std::vector<MonitorRecord>* records);
  // Stops the thread and every sampling device.
  [[nodiscard]] GpaStatus Stop(std::vector<MonitorRecord>* records);

  // Times a GPU was let go of for a profiler / taken back, since construction.
  uint64_t Releases() const;
  uint64_t Resumptions() const;
  bool Sampling(size_t device) const;

 private:
  struct Slot {
    HandedOverDevice* device = nullptr;
    std::unique_ptr<nvidia::MonitorHold> hold;
    bool sampling = false;
    std::chrono::steady_clock::time_point next_try;  // after a failed resumption
  };
  void Watch();
  void CheckOnce();  // with mutex_ held

  std::vector<Slot> slots_;
  std::chrono::milliseconds period_;
  mutable std::mutex mutex_;  // slots_, pending_, counts; the devices are called with it held
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
  std::vector<MonitorRecord> pending_;  // drained at hand-overs, not yet collected
  uint64_t releases_ = 0;
  uint64_t resumptions_ = 0;
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_HANDOVER_WATCHER_H_
