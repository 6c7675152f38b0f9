// Turns on a GPU for the processes of one profiled program. CUPTI lets one process at a time profile a GPU: while
// one holds a range profiler there, another's setup fails with CUPTI_ERROR_HARDWARE_BUSY. A program that starts
// another CUDA program (fork and exec, vfork, posix_spawn: Python's subprocess, torchrun, mpirun) has both under
// the profiler, so they take turns: a process holds a GPU's turn (an exclusive flock on a file named by the GPU's
// UUID in the folder `opengpa profile` names in OPENGPA_PROFILE_TURNS) while it has a range profiler there, and a
// process that wants the GPU waits for it, saying so with a shared flock on the GPU's "waiting" file. The holder
// looks for waiters every few milliseconds (a thread of the injection, injection_session.cc) and, at the first
// moment no launch of its own is in flight and it has held the GPU for at least kMinimumHold, collects its open
// batch and hands the turn over; it takes a turn again at its next profiled launch. Setting up costs 0.2-0.4 s on
// the H100, so processes that launch on one GPU at the same time profile slowly, but every launch is profiled.
//
// Locks go with the process (a killed holder frees the GPU) and are never inherited across exec (O_CLOEXEC). With
// no folder named (the in-process session of Python, or a library older than the CLI) turns are always granted
// and nothing waits: the behaviour before turns existed.
#ifndef OPENGPA_PROFILER_GPU_TURNS_H_
#define OPENGPA_PROFILER_GPU_TURNS_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace opengpa::profiling {

inline constexpr const char* kTurnsFolderVariable = "OPENGPA_PROFILE_TURNS";
// Seconds a process waits for a GPU's turn before it gives up (the launch then runs unprofiled, and the process
// is reported as not profiled); default kDefaultTurnWait.
inline constexpr const char* kTurnWaitVariable = "OPENGPA_PROFILE_TURN_WAIT_S";
inline constexpr std::chrono::seconds kDefaultTurnWait{60};
// How long a holder keeps a GPU before it hands it to a waiter: bounds the share of time spent setting up (each
// hand-over costs a setup of 0.2-0.4 s on the H100) when two processes launch on one GPU at the same time.
inline constexpr std::chrono::milliseconds kMinimumHold{250};
// How long a process that handed a GPU over leaves it to the waiter before it takes it back itself (a waiter tries
// every 2 ms; one that died or gave up is not waited for longer).
inline constexpr std::chrono::milliseconds kYieldGrace{100};

class GpuTurns {
 public:
  // `folder`: where the lock files are; empty: turns are always granted (no other process is coordinated).
  GpuTurns(std::string folder, std::chrono::milliseconds wait) : folder_(std::move(folder)), wait_(wait) {}
  ~GpuTurns();
  GpuTurns(const GpuTurns&) = delete;
  GpuTurns& operator=(const GpuTurns&) = delete;

  // From OPENGPA_PROFILE_TURNS and OPENGPA_PROFILE_TURN_WAIT_S.
  static std::unique_ptr<GpuTurns> FromEnvironment();
  bool Coordinated() const { return !folder_.empty(); }

  // Blocks until this process holds `gpu`'s turn (a UUID or any name without '/'): true at once when it already
  // does (each Acquire is matched by one Release; also when its lock file cannot be made, then nothing is
  // coordinated). False and *error after the wait, naming the process (and its rank in the job, when it has one)
  // that held the GPU all along and how long this one waited. After such a wait this process never waits for
  // that GPU again: a holder that does not hand over (one whose collective kernel waits for this process, say)
  // would otherwise cost the wait at every launch. `wait` false: try once, never wait (a collective launch,
  // collective_kernels.h: its peers may be what the holder waits for).
  bool Acquire(const std::string& gpu, std::string* error, bool wait = true);
  void Release(const std::string& gpu);
  // After handing `gpu` to a waiter: this process's next Acquire lets the waiter take it first (for up to
  // kYieldGrace), instead of taking it back before the waiter's next try (seen on the H100: a parent starved for
  // 6.8 s while its child took the GPU back at each of its launches).
  void Yield(const std::string& gpu);
  // The GPUs this process holds, for at least kMinimumHold, that another process waits for.
  std::vector<std::string> Wanted();
  // Whether any turn is held (the injection starts its watcher at the first).
  bool HoldsAny();
  // Acquires that had to wait for another process, and their time in all (for the stream's summary line).
  std::size_t waits() const { return waits_; }
  double waited_ms() const { return waited_ms_; }

 private:
  struct Held {
    int lock_fd = -1;
    int count = 0;
    std::chrono::steady_clock::time_point since;
  };
  std::string PathOf(const std::string& gpu, const char* suffix) const;
  std::string folder_;
  std::chrono::milliseconds wait_;
  std::mutex mutex_;
  std::map<std::string, Held> held_;
  std::map<std::string, std::chrono::steady_clock::time_point> yield_until_;
  std::map<std::string, std::string> given_up_;  // GPUs waited for in vain, and why
  std::size_t waits_ = 0;
  double waited_ms_ = 0.0;
};

}  // namespace opengpa::profiling

#endif  // OPENGPA_PROFILER_GPU_TURNS_H_
