// Which ordering of the L2 flush against the program's stream a context keeps (flush_order.h): host waits
// until it has timed a batch of each (host, then GPU) after a warm-up batch, then the cheaper per flushed launch.
#include "profiler/flush_order.h"

#include <gtest/gtest.h>

namespace opengpa::inject_cuda {
namespace {

constexpr std::size_t kLaunches = 256;

TEST(FlushOrderTest, TimesHostThenGpuAfterTheWarmUpBatchAndKeepsHostWhenItIsCheaper) {
  FlushOrderChooser chooser;
  EXPECT_TRUE(chooser.host_ordered());
  EXPECT_FALSE(chooser.OnBatchEnd(5000.0, kLaunches).has_value());  // warm-up: not timed
  EXPECT_TRUE(chooser.host_ordered());
  EXPECT_FALSE(chooser.OnBatchEnd(1.3 * kLaunches, kLaunches).has_value());  // host-ordered batch
  EXPECT_FALSE(chooser.host_ordered());                                      // the next one GPU-ordered
  const auto message = chooser.OnBatchEnd(3.4 * kLaunches, kLaunches);
  ASSERT_TRUE(message.has_value());
  EXPECT_TRUE(chooser.host_ordered());
  EXPECT_NE(message->find("by host waits from now on: 1.30 ms per launch with host waits, 3.40 ms"), std::string::npos)
      << *message;
  EXPECT_FALSE(chooser.OnBatchEnd(100.0 * kLaunches, kLaunches).has_value());  // chosen once, for good
  EXPECT_TRUE(chooser.host_ordered());
}

TEST(FlushOrderTest, KeepsGpuWaitsWhenHostWaitsCostMore) {
  FlushOrderChooser chooser;
  chooser.OnBatchEnd(1.0, kLaunches);
  chooser.OnBatchEnd(3.7 * kLaunches, kLaunches);
  const auto message = chooser.OnBatchEnd(2.5 * kLaunches, kLaunches);
  ASSERT_TRUE(message.has_value());
  EXPECT_FALSE(chooser.host_ordered());
  EXPECT_NE(message->find("on the GPU from now on"), std::string::npos) << *message;
}

TEST(FlushOrderTest, BatchesOfFewFlushedLaunchesAreNotTimed) {
  FlushOrderChooser chooser;
  chooser.OnBatchEnd(1.0, kLaunches);
  EXPECT_FALSE(chooser.OnBatchEnd(1.0, FlushOrderChooser::kMinimumLaunches - 1).has_value());
  EXPECT_TRUE(chooser.host_ordered());  // still waiting for a timed host-ordered batch
  chooser.OnBatchEnd(2.0 * kLaunches, kLaunches);
  EXPECT_FALSE(chooser.host_ordered());
}

TEST(FlushOrderTest, AForcedOrderingIsKeptWithoutTiming) {
  FlushOrderChooser host(std::string("host"));
  FlushOrderChooser gpu(std::string("gpu"));
  FlushOrderChooser neither(std::string("sometimes"));
  EXPECT_TRUE(host.host_ordered());
  EXPECT_FALSE(gpu.host_ordered());
  for (int batch = 0; batch < 4; ++batch) {
    EXPECT_FALSE(host.OnBatchEnd(1.0 * kLaunches * (batch + 1), kLaunches).has_value());
    EXPECT_FALSE(gpu.OnBatchEnd(1.0 * kLaunches * (4 - batch), kLaunches).has_value());
  }
  EXPECT_TRUE(host.host_ordered());
  EXPECT_FALSE(gpu.host_ordered());
  neither.OnBatchEnd(1.0, kLaunches);
  neither.OnBatchEnd(1.0, kLaunches);
  EXPECT_FALSE(neither.host_ordered());  // an unknown value measures, as no value does: now the GPU batch
}

}  // namespace
}  // namespace opengpa::inject_cuda
