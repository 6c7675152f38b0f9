// The layer's mapping between the GPU periodic sampler's block and PerfWorks' metrics (src/vulkan_layer/
// sampler_events.h), on GH100's metrics offline: no GPU, only the toolkit's libnvperf_host.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "sampler_events.h"
#include "tests/nvidia/gh100_offline_source.h"

namespace opengpa::vklayer {
namespace {

class SamplerEventsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string problem;
    source_ = opengpa::testing::Gh100OfflineSource(&problem);
    if (source_ == nullptr) GTEST_SKIP() << "no PerfWorks host library: " << problem;
  }
  const nvidia::GraphicsCounterSource& source() const { return *source_; }

 private:
  const nvidia::GraphicsCounterSource* source_ = nullptr;
};

TEST_F(SamplerEventsTest, EventEIsMetricEOfTheSourceWithItsNameUnitAndKind) {
  const auto& metrics = source().Metrics();
  ASSERT_GT(metrics.size(), 100u);
  RecordProperty("events", std::to_string(metrics.size()));
  for (std::uint32_t e = 0; e < metrics.size(); ++e) {
    const OpenGpaPerfEventInfo info = DescribeSamplerEvent(source(), e);
    EXPECT_EQ(info.eventID, e);
    EXPECT_EQ(std::string(info.name), metrics[e].described.name.substr(0, OPENGPA_PERF_EVENT_NAME_SIZE - 1));
    EXPECT_EQ(info.additive == VK_TRUE, metrics[e].additive) << info.name;
    EXPECT_EQ(SamplerEventOf(source(), metrics[e].described.name), static_cast<std::int64_t>(e));
  }
  EXPECT_EQ(SamplerEventOf(source(), "no_such__metric.sum"), -1);
  const std::int64_t ps = SamplerEventOf(source(), "sm__threads_launched_shader_ps_killmask_off.sum");
  ASSERT_GE(ps, 0);
  const OpenGpaPerfEventInfo info = DescribeSamplerEvent(source(), static_cast<std::uint32_t>(ps));
  EXPECT_EQ(info.additive, VK_TRUE) << "a count";
  EXPECT_STREQ(info.unit, "sm");
}

TEST_F(SamplerEventsTest, TheBlockHasOneInstanceAndEveryEvent) {
  const auto events = static_cast<std::uint32_t>(source().Metrics().size());
  const VkGpaPerfBlockPropertiesAMD block = SamplerBlock(events);
  EXPECT_EQ(block.blockType, OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER);
  EXPECT_EQ(block.instanceCount, 1u);
  EXPECT_EQ(block.maxEventID, events - 1);
  EXPECT_EQ(block.maxGlobalOnlyCounters, events);
  EXPECT_EQ(block.maxStreamingCounters, 0u);
}

TEST_F(SamplerEventsTest, SetsArePlannedIntoPassesAsPerfWorksPlansThem) {
  const auto ps =
      static_cast<std::uint32_t>(SamplerEventOf(source(), "sm__threads_launched_shader_ps_killmask_off.sum"));
  const auto vs = static_cast<std::uint32_t>(SamplerEventOf(source(), "sm__threads_launched_shader_vs.sum"));
  const auto cs = static_cast<std::uint32_t>(SamplerEventOf(source(), "sm__threads_launched_shader_cs.sum"));
  SamplerEventSet set;
  std::string problem;
  ASSERT_EQ(PlanSamplerEvents(source(), {ps}, &set, &problem), VK_SUCCESS) << problem;
  EXPECT_EQ(set.names, (std::vector<std::string>{"sm__threads_launched_shader_ps_killmask_off.sum"}));
  EXPECT_EQ(set.passes.size(), 1u);
  // Vertex- and pixel-shader thread counts cannot share one sampler pass on GH100 (docs/graphics-counters.md).
  ASSERT_EQ(PlanSamplerEvents(source(), {ps, vs, cs}, &set, &problem), VK_SUCCESS) << problem;
  EXPECT_EQ(set.names.size(), 3u);
  std::vector<std::string> names = {"sm__threads_launched_shader_ps_killmask_off.sum"};
  std::vector<nvidia::perfworks::PassConfig> expected;
  names = {set.names[0], set.names[1], set.names[2]};
  ASSERT_EQ(source().PlanPasses(names, &expected), kGpaStatusOk);
  EXPECT_EQ(set.passes.size(), expected.size());
  EXPECT_GT(set.passes.size(), 1u);
  // An event past the list.
  const auto past = static_cast<std::uint32_t>(source().Metrics().size());
  EXPECT_EQ(PlanSamplerEvents(source(), {ps, past}, &set, &problem), VK_ERROR_FEATURE_NOT_PRESENT);
  EXPECT_NE(problem.find("past the block"), std::string::npos) << problem;
}

TEST(CopyField, CutsToFitAndAlwaysEndsTheString) {
  char field[8];
  CopyField(field, "short");
  EXPECT_STREQ(field, "short");
  CopyField(field, "much longer than eight");
  EXPECT_STREQ(field, "much lo");
  CopyField(field, "");
  EXPECT_STREQ(field, "");
}

}  // namespace
}  // namespace opengpa::vklayer
