// How a profiler and `opengpa monitor` share a GPU's performance counters. CUPTI lets one user at a time take a
// GPU's counters: while the monitor's PM sampling holds them, a profiler's range profiler fails with
// CUPTI_ERROR_HARDWARE_BUSY, and the other way round. So a profiler announces that it wants a GPU, the monitor
// lets go of that GPU's PM sampling (GPM and NVML values keep flowing: they take no counters), and takes it back
// when the profiler ends.
//
// The announcement: two lock files per GPU, named by its UUID, in one folder both sides know
// ($OPENGPA_MONITOR_HANDOVER_DIR, default /tmp/opengpa-monitor-handover, made with mode 1777 so that every user's
// profiler can take part):
//
//   <uuid>.want   every profiler that wants the GPU's counters holds a shared flock on it, from before it
//                 waits until it is done with the GPU;
//   <uuid>.use    the monitor holds an exclusive flock while its PM sampling is on the GPU; a profiler takes a
//                 shared one before it sets up its range profiler, so it starts only once the monitor let go.
//
// The monitor looks at <uuid>.want every kHandoverWatchPeriod (an exclusive, non-blocking flock it drops at
// once: refused means a profiler wants the GPU), stops and disables PM sampling there, and drops <uuid>.use. It
// takes the GPU back when it can lock <uuid>.use exclusively and nobody holds <uuid>.want. Locks go with their
// process (a killed profiler or monitor frees the GPU), are never inherited across exec (O_CLOEXEC), and cost a
// profiler one wait when it first takes a GPU, nothing per kernel launch. docs/realtime.md "Hand-over".
#ifndef OPENGPA_NVIDIA_COUNTER_HANDOVER_H_
#define OPENGPA_NVIDIA_COUNTER_HANDOVER_H_

#include <chrono>
#include <memory>
#include <string>

namespace opengpa::nvidia {

inline constexpr const char* kHandoverFolderVariable = "OPENGPA_MONITOR_HANDOVER_DIR";
inline constexpr const char* kDefaultHandoverFolder = "/tmp/opengpa-monitor-handover";
// Seconds a profiler waits for a monitor to let go of a GPU (then it goes on, and CUPTI says whether the GPU is
// free); default kDefaultHandoverWait.
inline constexpr const char* kHandoverWaitVariable = "OPENGPA_MONITOR_HANDOVER_WAIT_S";
inline constexpr std::chrono::milliseconds kDefaultHandoverWait{10000};
// How often the monitor looks for a profiler that wants one of its GPUs.
inline constexpr std::chrono::milliseconds kHandoverWatchPeriod{20};

// $OPENGPA_MONITOR_HANDOVER_DIR, else kDefaultHandoverFolder; "off" (or an empty value): no hand-over.
std::string HandoverFolder();

// The profiler's side: held while a process uses a GPU's counters.
class CounterClaim {
 public:
  // Says that this process wants `gpu`'s counters and waits up to `wait` for a monitor sampling them to let go.
  // Always returns a claim; *note (when not null) says what went wrong, if anything: the folder could not be
  // used (nothing is coordinated), or the wait ran out (the profiler goes on; CUPTI then says whether the GPU is
  // busy). *waited gets the time spent waiting.
  static std::unique_ptr<CounterClaim> Acquire(const std::string& folder, const std::string& gpu,
                                               std::chrono::milliseconds wait, std::string* note,
                                               std::chrono::milliseconds* waited = nullptr);
  ~CounterClaim();
  CounterClaim(const CounterClaim&) = delete;
  CounterClaim& operator=(const CounterClaim&) = delete;

  // Whether a monitor is now kept off the GPU (false: the folder could not be used, or the wait ran out).
  bool Holds() const { return use_fd_ >= 0; }

 private:
  CounterClaim(int want_fd, int use_fd) : want_fd_(want_fd), use_fd_(use_fd) {}
  int want_fd_;
  int use_fd_;
};

// The claim of this process on `gpu`, shared by every user of the GPU in the process (two CUDA contexts of one
// GPU wait once): made by the first call, with HandoverFolder() and $OPENGPA_MONITOR_HANDOVER_WAIT_S, and let go when
// the last holder drops it. A non-empty *note is what a caller should log.
std::shared_ptr<CounterClaim> ClaimGpuCounters(const std::string& gpu, std::string* note);

// The monitor's side, for one GPU.
class MonitorHold {
 public:
  MonitorHold(std::string folder, std::string gpu);
  ~MonitorHold();
  MonitorHold(const MonitorHold&) = delete;
  MonitorHold& operator=(const MonitorHold&) = delete;

  // Takes the GPU for the monitor: true when it now holds it (also when the folder cannot be used: then nothing
  // is coordinated, as before hand-overs existed); false while a profiler holds or wants it.
  bool TryTake();
  // Whether a profiler wants the GPU (the monitor should let go).
  bool ProfilerWants();
  void Release();
  bool Held() const { return held_; }

 private:
  bool Open();
  std::string folder_;
  std::string gpu_;
  int want_fd_ = -1;
  int use_fd_ = -1;
  bool held_ = false;
  bool unusable_ = false;  // the folder or its files could not be made: never coordinate
};

}  // namespace opengpa::nvidia

#endif  // OPENGPA_NVIDIA_COUNTER_HANDOVER_H_
