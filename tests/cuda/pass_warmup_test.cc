// The CUDA session's pass warm-up (backends/cuda/cuda_pass_warmup.h): its length from the environment, and that a
// warm-up turned off touches no driver entry point. The warm-up itself needs a GPU: tests/device/sol and
// tests/device/gputime check what it is for (the first sample of a pass as fast as the others).
#include <gtest/gtest.h>

#include <chrono>

#include "backends/cuda/cuda_pass_warmup.h"

namespace opengpa::cuda {
namespace {

using std::chrono::microseconds;

TEST(PassWarmUpDurationTest, IsTwoMillisecondsWhenTheVariableIsUnset) {
  EXPECT_EQ(PassWarmUpDuration(nullptr), microseconds(2000));
}

TEST(PassWarmUpDurationTest, ReadsWholeMicrosecondsAndZeroTurnsItOff) {
  EXPECT_EQ(PassWarmUpDuration("0"), microseconds(0));
  EXPECT_EQ(PassWarmUpDuration("500"), microseconds(500));
  EXPECT_EQ(PassWarmUpDuration("1000000"), microseconds(1000000));
}

TEST(PassWarmUpDurationTest, KeepsTheDefaultForAnythingElse) {
  for (const char* text : {"", "-1", "1000001", "2ms", " 5", "1e3", "99999999999999999999999"}) {
    EXPECT_EQ(PassWarmUpDuration(text), kDefaultPassWarmUp) << '"' << text << '"';
  }
}

TEST(PassWarmUpTest, TurnedOffItCallsNoDriverEntryPoint) {
  const nvidia::CudaDriver no_driver;  // every entry point null: a call would crash
  PassWarmUp warm_up(no_driver, nullptr, microseconds(0));
  EXPECT_FALSE(warm_up.Run());
  EXPECT_FALSE(warm_up.Run());
}

}  // namespace
}  // namespace opengpa::cuda
