#include "monitor/periodic_sampler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace opengpa::monitor {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

TEST(PeriodicSampler, TicksAtOnceAndThenAtTheInterval) {
  std::mutex mutex;
  std::vector<Clock::time_point> ticks;
  PeriodicSampler sampler(milliseconds(50), [&] {
    std::lock_guard<std::mutex> lock(mutex);
    ticks.push_back(Clock::now());
  });
  const auto start = Clock::now();
  sampler.Start();
  std::this_thread::sleep_for(milliseconds(520));
  sampler.Stop();
  std::lock_guard<std::mutex> lock(mutex);
  ASSERT_GE(ticks.size(), 2u);
  EXPECT_LT(ticks[0] - start, milliseconds(40));  // the first tick does not wait an interval
  // 520 ms at 50 ms: ticks at 0, 50, ..., 500 -> 11. A loaded CI machine may lose a few, never gain.
  EXPECT_LE(ticks.size(), 11u);
  EXPECT_GE(ticks.size(), 6u);
  // Never early: tick i comes no sooner than i intervals after the schedule began (at or after Start).
  for (size_t i = 1; i < ticks.size(); ++i) EXPECT_GE(ticks[i] - start, milliseconds(50) * static_cast<int>(i)) << i;
  EXPECT_EQ(sampler.Ticks(), ticks.size());
}

TEST(PeriodicSampler, StopReturnsAtOnceEvenWithALongInterval) {
  std::atomic<int> ticks{0};
  PeriodicSampler sampler(std::chrono::hours(1), [&] { ++ticks; });
  sampler.Start();
  std::this_thread::sleep_for(milliseconds(20));
  const auto before = Clock::now();
  sampler.Stop();
  EXPECT_LT(Clock::now() - before, milliseconds(500));
  EXPECT_EQ(ticks.load(), 1);
  EXPECT_FALSE(sampler.Running());
}

TEST(PeriodicSampler, SkipsTheSlotsASlowTickOverranInsteadOfBursting) {
  std::mutex mutex;
  std::vector<Clock::time_point> ticks;
  PeriodicSampler sampler(milliseconds(20), [&] {
    {
      std::lock_guard<std::mutex> lock(mutex);
      ticks.push_back(Clock::now());
    }
    std::this_thread::sleep_for(milliseconds(70));  // overruns three slots
  });
  sampler.Start();
  std::this_thread::sleep_for(milliseconds(400));
  sampler.Stop();
  std::lock_guard<std::mutex> lock(mutex);
  ASSERT_GE(ticks.size(), 2u);
  for (size_t i = 1; i < ticks.size(); ++i) EXPECT_GE(ticks[i] - ticks[i - 1], milliseconds(70)) << i;
  EXPECT_GE(sampler.SkippedTicks(), ticks.size() - 1);
}

TEST(PeriodicSampler, CanBeRestartedAfterStop) {
  std::atomic<int> ticks{0};
  PeriodicSampler sampler(milliseconds(10), [&] { ++ticks; });
  sampler.Start();
  std::this_thread::sleep_for(milliseconds(15));
  sampler.Stop();
  const int after_first = ticks.load();
  EXPECT_GE(after_first, 1);
  sampler.Start();
  std::this_thread::sleep_for(milliseconds(30));
  sampler.Stop();
  EXPECT_GT(ticks.load(), after_first);
}

}  // namespace
}  // namespace opengpa::monitor
