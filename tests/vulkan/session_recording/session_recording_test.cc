// What the Vulkan session records for a sample through core queries, in order, against fake entry points: the
// sample's pipeline-statistics query begins before its first timestamps and ends after its last, and counts every
// supported statistic once the sample counts one graphics statistic (QueriedStatistics), as the query of
// VK_LAYER_OPENGPA_gpa_interface does, so both recording paths record the same query. With NVIDIA's GPU periodic
// sampler (GH100's metrics offline: the toolkit's libnvperf_host, no GPU), the timing counters get a pass of their own
// after the sampler's, which records no trigger and may be recorded while the sampler samples its first pass.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/vulkan/vulkan_session.h"
#include "nvidia/sampled_passes.h"
#include "tests/nvidia/gh100_offline_source.h"

namespace opengpa::vulkan {
namespace {

std::vector<std::string> recorded;                           // the commands, in order
std::vector<VkQueryPipelineStatisticFlags> pool_statistics;  // per created pool (handle = index + 1)

std::size_t PoolIndex(VkQueryPool pool) { return reinterpret_cast<std::uintptr_t>(pool) - 1; }

VKAPI_ATTR VkResult VKAPI_CALL FakeCreateQueryPool(VkDevice, const VkQueryPoolCreateInfo* info,
                                                   const VkAllocationCallbacks*, VkQueryPool* pool) {
  pool_statistics.push_back(info->queryType == VK_QUERY_TYPE_PIPELINE_STATISTICS ? info->pipelineStatistics : 0);
  *pool = reinterpret_cast<VkQueryPool>(static_cast<std::uintptr_t>(pool_statistics.size()));
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL FakeDestroyQueryPool(VkDevice, VkQueryPool, const VkAllocationCallbacks*) {}
VKAPI_ATTR void VKAPI_CALL FakeResetQueryPool(VkDevice, VkQueryPool, std::uint32_t, std::uint32_t) {}
VKAPI_ATTR void VKAPI_CALL FakeCmdWriteTimestamp(VkCommandBuffer, VkPipelineStageFlagBits stage, VkQueryPool,
                                                 std::uint32_t) {
  recorded.emplace_back(stage == VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT ? "timestamp top" : "timestamp bottom");
}
VKAPI_ATTR void VKAPI_CALL FakeCmdBeginQuery(VkCommandBuffer, VkQueryPool pool, std::uint32_t, VkQueryControlFlags) {
  recorded.push_back("begin statistics " + std::to_string(pool_statistics[PoolIndex(pool)]));
}
VKAPI_ATTR void VKAPI_CALL FakeCmdEndQuery(VkCommandBuffer, VkQueryPool pool, std::uint32_t) {
  recorded.push_back("end statistics " + std::to_string(pool_statistics[PoolIndex(pool)]));
}

constexpr VkQueryPipelineStatisticFlags kVertices = VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT;
constexpr VkQueryPipelineStatisticFlags kCompute = VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
constexpr VkQueryPipelineStatisticFlags kAll = 0x7ff;  // the eleven core statistics

VulkanHardwareCounter Counter(CounterSource source, VkQueryPipelineStatisticFlags statistic = 0) {
  VulkanHardwareCounter counter;
  counter.source = source;
  counter.statistic = static_cast<VkQueryPipelineStatisticFlagBits>(statistic);
  // A time counter as the backend describes it (its info makes it a timing counter: backends/common/timing_pass.h).
  MeasurementCapabilities capabilities;
  capabilities.timestamps = true;
  for (const VulkanHardwareCounter& built : BuildHardwareCounters(capabilities)) {
    if (built.source == source) counter.info = built.info;
  }
  return counter;
}

class SessionRecordingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    recorded.clear();
    pool_statistics.clear();
    functions_.CreateQueryPool = FakeCreateQueryPool;
    functions_.DestroyQueryPool = FakeDestroyQueryPool;
    functions_.ResetQueryPool = FakeResetQueryPool;
    functions_.CmdWriteTimestamp = FakeCmdWriteTimestamp;
    functions_.CmdBeginQuery = FakeCmdBeginQuery;
    functions_.CmdEndQuery = FakeCmdEndQuery;
  }
  SessionSetup Setup(std::vector<VulkanHardwareCounter> counters) {
    SessionSetup setup;
    setup.functions = &functions_;
    setup.counters = std::move(counters);
    setup.supported_statistics = kAll;
    return setup;
  }
  // Records one sample on a primary command list of `pass`, as GpaBeginSample / GpaEndSample do.
  static void RecordOneSample(VulkanSession& session, GpaUInt32 pass) {
    std::unique_ptr<BackendCommandList> list;
    auto* command_buffer = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{7});
    ASSERT_EQ(session.BeginCommandList(pass, command_buffer, kGpaCommandListPrimary, &list), kGpaStatusOk);
    ASSERT_EQ(session.BeginSample(*list, 0), kGpaStatusOk);
    recorded.emplace_back("draw");
    ASSERT_EQ(session.EndSample(*list, 0), kGpaStatusOk);
    ASSERT_EQ(session.EndCommandList(*list), kGpaStatusOk);
  }
  void RecordOneSample(std::vector<VulkanHardwareCounter> counters) {
    VulkanSession session(Setup(std::move(counters)));
    ASSERT_EQ(session.Begin(), kGpaStatusOk);
    RecordOneSample(session, 0);
  }
  DeviceFunctions functions_;
};

TEST_F(SessionRecordingTest, AGraphicsStatisticMakesTheSampleCountEveryStatisticAroundItsTimestamps) {
  RecordOneSample({Counter(CounterSource::kBottomToBottomTime), Counter(CounterSource::kPipelineStatistic, kVertices)});
  const std::string all = std::to_string(kAll);
  EXPECT_EQ(recorded, (std::vector<std::string>{"begin statistics " + all, "timestamp top", "timestamp bottom", "draw",
                                                "timestamp bottom", "end statistics " + all}));
}

TEST_F(SessionRecordingTest, ComputeInvocationsAloneStayAlone) {
  // Graphics statistics would make the query invalid in a command buffer of a compute-only queue.
  RecordOneSample({Counter(CounterSource::kPipelineStatistic, kCompute)});
  const std::string compute = std::to_string(kCompute);
  EXPECT_EQ(recorded, (std::vector<std::string>{"begin statistics " + compute, "draw", "end statistics " + compute}));
}

TEST_F(SessionRecordingTest, TimestampsAloneRecordNoQuery) {
  RecordOneSample({Counter(CounterSource::kBottomToBottomTime)});
  EXPECT_EQ(recorded, (std::vector<std::string>{"timestamp top", "timestamp bottom", "draw", "timestamp bottom"}));
}

TEST(QueriedStatistics, WhatTheCountersReadWithEverySupportedStatisticOnceOneIsGraphics) {
  EXPECT_EQ(QueriedStatistics({Counter(CounterSource::kPipelineStatistic, kVertices)}, kAll), kAll);
  EXPECT_EQ(QueriedStatistics({Counter(CounterSource::kPipelineStatistic, kVertices)}, kVertices | kCompute),
            kVertices | kCompute);
  EXPECT_EQ(QueriedStatistics({Counter(CounterSource::kPipelineStatistic, kCompute)}, kAll), kCompute);
  EXPECT_EQ(QueriedStatistics({Counter(CounterSource::kSampledMetric)}, kAll), 0u);
  EXPECT_EQ(QueriedStatistics({}, kAll), 0u);
}

// A session whose kSampledMetric counters are GH100's `metrics` (planned into sampler passes offline), beside
// `others`. Not begun: beginning would start the sampler, which needs the GPU.
class SampledSessionTest : public SessionRecordingTest {
 protected:
  void SetUp() override {
    std::string problem;
    source_ = testing::Gh100OfflineSource(&problem);
    if (source_ == nullptr) GTEST_SKIP() << "no PerfWorks host library: " << problem;
    SessionRecordingTest::SetUp();
  }
  std::unique_ptr<VulkanSession> Session(const std::vector<std::string>& metrics,
                                         std::vector<VulkanHardwareCounter> others) {
    std::vector<nvidia::perfworks::PassConfig> passes;
    EXPECT_EQ(source_->PlanPasses(metrics, &passes), kGpaStatusOk);
    sampler_passes_ = static_cast<GpaUInt32>(passes.size());
    SessionSetup setup = Setup(std::move(others));
    for (std::size_t i = 0; i < metrics.size(); ++i) setup.counters.push_back(Counter(CounterSource::kSampledMetric));
    setup.sampler = source_;
    setup.sampled = std::make_shared<nvidia::SampledPasses>(*source_, nvidia::perfworks::kTriggerEngine, metrics,
                                                            std::vector<bool>(metrics.size(), true), passes);
    return std::make_unique<VulkanSession>(std::move(setup));
  }
  GpaUInt32 sampler_passes_ = 0;

 private:
  const nvidia::GraphicsCounterSource* source_ = nullptr;
};

// Vertex- and pixel-shader threads cannot share a sampler pass on GH100.
const std::vector<std::string> kTwoSamplerPasses = {"sm__threads_launched_shader_vs.sum",
                                                    "sm__threads_launched_shader_ps_killmask_off.sum"};

TEST_F(SampledSessionTest, TimingCountersGetAPassOfTheirOwnAfterTheSamplersWithNoTrigger) {
  auto session = Session(kTwoSamplerPasses, {Counter(CounterSource::kBottomToBottomTime)});
  ASSERT_EQ(sampler_passes_, 2u);
  EXPECT_EQ(session->PassCount(), 3u);
  // The sampler samples its pass 0: its pass 1 cannot be recorded yet (its triggers would not count), the timing
  // pass can, and records the sample's timestamps alone: no marker timestamps, no trigger, at its end none either.
  std::unique_ptr<BackendCommandList> list;
  auto* command_buffer = reinterpret_cast<VkCommandBuffer>(std::uintptr_t{9});
  EXPECT_EQ(session->BeginCommandList(1, command_buffer, kGpaCommandListPrimary, &list), kGpaStatusErrorFailed);
  RecordOneSample(*session, 2);
  EXPECT_EQ(recorded, (std::vector<std::string>{"timestamp top", "timestamp bottom", "draw", "timestamp bottom"}));
}

TEST_F(SampledSessionTest, WithoutTimingCountersThereIsNoTimingPass) {
  auto session = Session(kTwoSamplerPasses, {Counter(CounterSource::kPipelineStatistic, kVertices)});
  EXPECT_EQ(session->PassCount(), sampler_passes_);
}

}  // namespace
}  // namespace opengpa::vulkan
