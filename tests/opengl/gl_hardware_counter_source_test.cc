// Which GL context gets the GPU periodic sampler's hardware counters: an EGL context on an NVIDIA GPU; every other
// context keeps timer and pipeline-statistics queries, and the log says once why.
#include <algorithm>

#include "gl_test_fixture.h"

namespace opengpa::testing {
namespace {

class GlHardwareCounterSourceTest : public GlTest {};

TEST_F(GlHardwareCounterSourceTest, OnlyAnNvidiaGpuHasSampledCountersAndOtherDriversSayWhyNot) {
  OpenGpa(kGpaOpenContextEnableHardwareCountersBit);
  const std::vector<std::string> names = sampler_->CounterNames();
  std::size_t sampled = 0;
  for (const std::string& name : names) sampled += name.find("__") != std::string::npos;  // PerfWorks' names
  if (gl_->renderer().find("NVIDIA") != std::string::npos) {
    EXPECT_GT(sampled, 100u);
    EXPECT_NE(GpaLog::Text().find("hardware counters of PerfWorks' GPU periodic sampler"), std::string::npos);
  } else {
    EXPECT_EQ(sampled, 0u);
    EXPECT_NE(GpaLog::Text().find("no hardware counters, only timestamps and pipeline statistics"), std::string::npos)
        << GpaLog::Text();
    EXPECT_NE(std::find(names.begin(), names.end(), "PSPixelsIn"), names.end());
    EXPECT_EQ(std::find(names.begin(), names.end(), "VSBusy"), names.end());
  }
}

}  // namespace
}  // namespace opengpa::testing
