// A thread that calls `tick` at a fixed rate: at Start, then at Start + k * interval. A tick that runs
// long makes the next ones that were due be skipped (counted), never run back to back, so the rate never
// exceeds the one asked for. Stop wakes the thread at once and returns after the running tick finished.
#ifndef OPENGPA_MONITOR_PERIODIC_SAMPLER_H_
#define OPENGPA_MONITOR_PERIODIC_SAMPLER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace opengpa::monitor {

class PeriodicSampler {
 public:
  PeriodicSampler(std::chrono::nanoseconds interval, std::function<void()> tick);
  ~PeriodicSampler();  // stops
  PeriodicSampler(const PeriodicSampler&) = delete;
  PeriodicSampler& operator=(const PeriodicSampler&) = delete;

  void Start();  // no effect when running
  void Stop();   // no effect when stopped

  bool Running() const { return thread_.joinable(); }
  uint64_t Ticks() const { return ticks_.load(); }
  uint64_t SkippedTicks() const { return skipped_.load(); }

 private:
  void Run();

  const std::chrono::nanoseconds interval_;
  const std::function<void()> tick_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_requested_ = false;
  std::thread thread_;
  std::atomic<uint64_t> ticks_{0};
  std::atomic<uint64_t> skipped_{0};
};

}  // namespace opengpa::monitor

#endif  // OPENGPA_MONITOR_PERIODIC_SAMPLER_H_
