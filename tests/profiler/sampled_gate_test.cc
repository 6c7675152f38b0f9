#include "profiler/sampled_gate.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <thread>

namespace opengpa::profiling {
namespace {

std::string Folder() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

TEST(SampledGateTest, AProcessPassesOnceTheGateSaysSampling) {
  SampledGate gate(Folder());
  // Taken before the opener starts its 30 ms: taken after, the opener's sleep could begin first and the wait
  // measure less than 30 ms however right the gate (29.8 ms seen in a CI run).
  const auto start = std::chrono::steady_clock::now();
  std::thread opener([&gate] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_TRUE(gate.Open(true, ""));
  });
  std::string why;
  EXPECT_TRUE(WaitAtSampledGate(gate.Path(), std::chrono::seconds(10), &why)) << why;
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(30));  // it waited for the gate
  opener.join();
}

TEST(SampledGateTest, ANotSamplingGateSaysWhyAndAWaitThatRunsOutSaysSo) {
  SampledGate gate(Folder());
  std::string why;
  EXPECT_FALSE(WaitAtSampledGate(gate.Path(), std::chrono::milliseconds(20), &why));
  EXPECT_NE(why.find("did not say within 20 ms"), std::string::npos) << why;
  EXPECT_FALSE(GateSaysNotSampling(why));
  ASSERT_TRUE(gate.Open(false, "CUPTI PM sampling: no CUDA device"));
  EXPECT_FALSE(WaitAtSampledGate(gate.Path(), std::chrono::seconds(1), &why));
  EXPECT_EQ(why, "not sampling: CUPTI PM sampling: no CUDA device");
  EXPECT_TRUE(GateSaysNotSampling(why));
}

TEST(SampledGateTest, TheGatesFileGoesWithIt) {
  std::string path;
  {
    SampledGate gate(Folder());
    path = gate.Path();
    ASSERT_TRUE(gate.Open(true, ""));
    EXPECT_EQ(access(path.c_str(), F_OK), 0);
  }
  EXPECT_NE(access(path.c_str(), F_OK), 0);
  SampledGate unwritable("/nonexistent-folder");
  EXPECT_FALSE(unwritable.Open(true, ""));
}

}  // namespace
}  // namespace opengpa::profiling
