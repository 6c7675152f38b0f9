#include "monitor/periodic_sampler.h"

namespace opengpa::monitor {

PeriodicSampler::PeriodicSampler(std::chrono::nanoseconds interval, std::function<void()> tick)
    : interval_(interval.count() > 0 ? interval : std::chrono::nanoseconds(1)), tick_(std::move(tick)) {}

PeriodicSampler::~PeriodicSampler() { Stop(); }

void PeriodicSampler::Start() {
  if (thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = false;
  }
  thread_ = std::thread([this] { Run(); });
}

void PeriodicSampler::Stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void PeriodicSampler::Run() {
  using Clock = std::chrono::steady_clock;  // immune to wall-clock jumps
  auto next = Clock::now();
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (wake_.wait_until(lock, next, [this] { return stop_requested_; })) return;
    }
    tick_();
    ticks_.fetch_add(1);
    next += interval_;
    const auto now = Clock::now();
    if (next <= now) {  // the tick overran: skip to the next slot in the future
      const auto behind = (now - next) / interval_ + 1;
      skipped_.fetch_add(static_cast<uint64_t>(behind));
      next += behind * interval_;
    }
  }
}

}  // namespace opengpa::monitor
