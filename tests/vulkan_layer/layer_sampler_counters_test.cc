// NVIDIA's GPU periodic sampler published as the perf block of
// include/vulkan_layer/vk_gpa_interface_sampler_counters.h, and the layer's event queries. On lavapipe (CI) the block
// is absent: listing, event queries and samples refuse it, while the statistics blocks are named. On the H100
// (tests/device/vulkan_layer/run.sh) a cumulative sample of the block counts known work exactly, beside the pipeline
// statistic of the same work, and a set of several sampler passes is refused; every value goes to
// $OUT/sampler_counters.tsv for docs/validation.md.
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "layer_fixture.h"
#include "vk_gpa_interface_sampler_counters.h"

namespace opengpa::layertest {
namespace {

constexpr float kColor[4] = {0.9f, 0.3f, 0.1f, 1.0f};
constexpr const char* kPsThreads = "sm__threads_launched_shader_ps_killmask_off.sum";
constexpr const char* kVsThreads = "sm__threads_launched_shader_vs.sum";
constexpr const char* kCsThreads = "sm__threads_launched_shader_cs.sum";

class LayerSamplerCountersTest : public LayerTest {
 protected:
  void SetUp() override {
    LayerTest::SetUp();
    events_ = reinterpret_cast<PFN_vkGetPerfBlockEventsOPENGPA>(
        vkGetDeviceProcAddr(vk(), OPENGPA_GET_PERF_BLOCK_EVENTS_NAME));
    passes_ = reinterpret_cast<PFN_vkGetPerfCounterPassCountOPENGPA>(
        vkGetDeviceProcAddr(vk(), OPENGPA_GET_PERF_COUNTER_PASS_COUNT_NAME));
    ASSERT_NE(events_, nullptr) << "the layer resolves its event query on a device with VK_AMD_gpa_interface";
    ASSERT_NE(passes_, nullptr);
  }

  static const VkGpaPerfBlockPropertiesAMD* SamplerBlock(const std::vector<VkGpaPerfBlockPropertiesAMD>& blocks) {
    for (const VkGpaPerfBlockPropertiesAMD& block : blocks) {
      if (block.blockType == OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER) return &block;
    }
    return nullptr;
  }

  std::vector<OpenGpaPerfEventInfo> Events(VkGpaPerfBlockAMD block, VkResult* result) const {
    std::uint32_t count = 0;
    *result = events_(vk(), block, &count, nullptr);
    std::vector<OpenGpaPerfEventInfo> events(count);
    if (*result != VK_SUCCESS) return {};
    *result = events_(vk(), block, &count, events.data());
    events.resize(count);
    return events;
  }

  // The sampler block's event of that metric name; fails the test when there is none.
  std::uint32_t EventNamed(const char* name) const {
    VkResult result = VK_SUCCESS;
    for (const OpenGpaPerfEventInfo& event : Events(OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER, &result)) {
      if (std::strcmp(event.name, name) == 0) return event.eventID;
    }
    ADD_FAILURE() << "the sampler block has no event " << name;
    return UINT32_MAX;
  }

  // One session, one primary command buffer: `record` records the work between the sample's begin and end (inside
  // the render target's render pass when `in_render_pass`). Returns the sample's values (doubles for the sampler
  // block's events, as the header says; statistics as integers).
  template <typename Record>
  std::vector<std::uint64_t> SampleOnce(const std::vector<VkGpaPerfCounterAMD>& counters, bool in_render_pass,
                                        Record&& record) {
    const VkGpaSessionAMD session = CreateSession();
    const VkCommandBuffer command_buffer = BeginPrimary();
    EXPECT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
    const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
    std::uint32_t id = UINT32_MAX;
    if (in_render_pass) target().Begin(command_buffer, VK_SUBPASS_CONTENTS_INLINE);
    const VkResult begun = gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &id);
    EXPECT_EQ(begun, VK_SUCCESS);
    record(command_buffer);
    if (begun == VK_SUCCESS) gpa().CmdEndGpaSample(command_buffer, session, id);
    if (in_render_pass) target().End(command_buffer);
    EXPECT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
    End(command_buffer);
    Submit({command_buffer});
    if (begun != VK_SUCCESS) return {};
    EXPECT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_SUCCESS);
    return Results(session, id);
  }

  static double AsDouble(std::uint64_t bits) {
    double value = 0;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }

  static std::ofstream RecordFile(const std::string& name) {
    const char* out_dir = std::getenv("OUT");
    return out_dir != nullptr ? std::ofstream(std::string(out_dir) + "/" + name, std::ios::app) : std::ofstream();
  }

  PFN_vkGetPerfBlockEventsOPENGPA events_ = nullptr;
  PFN_vkGetPerfCounterPassCountOPENGPA passes_ = nullptr;
};

TEST_F(LayerSamplerCountersTest, TheStatisticsBlocksAreNamedEventByEvent) {
  VkResult result = VK_SUCCESS;
  const std::vector<OpenGpaPerfEventInfo> spi = Events(VK_GPA_PERF_BLOCK_SPI_AMD, &result);
  ASSERT_EQ(result, VK_SUCCESS);
  ASSERT_EQ(spi.size(), 2u);
  EXPECT_EQ(spi[0].eventID, 0u);
  EXPECT_STREQ(spi[0].name, "fragment-shader invocations");
  EXPECT_STREQ(spi[1].name, "compute-shader invocations");
  EXPECT_EQ(spi[1].additive, VK_TRUE);
  // The two-call idiom: room for one of two.
  std::uint32_t count = 1;
  OpenGpaPerfEventInfo one{};
  EXPECT_EQ(events_(vk(), VK_GPA_PERF_BLOCK_SPI_AMD, &count, &one), VK_INCOMPLETE);
  EXPECT_EQ(count, 1u);
  EXPECT_STREQ(one.name, "fragment-shader invocations");
  // Statistics take no sampler pass of their own.
  const VkGpaPerfCounterAMD statistics[] = {kFsInvocations, kCsInvocations, kIaVertices};
  std::uint32_t passes = 0;
  EXPECT_EQ(passes_(vk(), 3, statistics, &passes), VK_SUCCESS);
  EXPECT_EQ(passes, 1u);
}

TEST_F(LayerSamplerCountersTest, ABlockOrEventTheDeviceDoesNotPublishIsRefusedWithALogLine) {
  VkResult result = VK_SUCCESS;
  std::string log = LayerMessages([&] { Events(static_cast<VkGpaPerfBlockAMD>(12345), &result); });
  EXPECT_EQ(result, VK_ERROR_FEATURE_NOT_PRESENT);
  EXPECT_NE(log.find("is not published on this device"), std::string::npos) << log;
  const VkGpaPerfCounterAMD past{VK_GPA_PERF_BLOCK_SPI_AMD, 0, 2};
  std::uint32_t passes = 0;
  log = LayerMessages([&] { result = passes_(vk(), 1, &past, &passes); });
  EXPECT_EQ(result, VK_ERROR_FEATURE_NOT_PRESENT);
  EXPECT_NE(log.find("is not a counter of this device"), std::string::npos) << log;
}

// Where the GPU periodic sampler is absent (lavapipe: not an NVIDIA GPU) the block is not listed, its events are
// unknown, and a sample asking for one is refused; where it is present, the listing and the event query agree.
TEST_F(LayerSamplerCountersTest, TheSamplerBlockIsListedExactlyWhereItsEventsAreNamed) {
  const std::vector<VkGpaPerfBlockPropertiesAMD> blocks = Blocks();
  const VkGpaPerfBlockPropertiesAMD* block = SamplerBlock(blocks);
  VkResult result = VK_SUCCESS;
  const std::vector<OpenGpaPerfEventInfo> events = Events(OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER, &result);
  const bool nvidia = device().properties().vendorID == 0x10de;
  if (!nvidia) EXPECT_EQ(block, nullptr) << "the sampler block on " << device().properties().deviceName;
  if (block == nullptr) {
    EXPECT_EQ(result, VK_ERROR_FEATURE_NOT_PRESENT);
    const VkGpaSessionAMD session = CreateSession();
    const VkCommandBuffer command_buffer = BeginPrimary();
    ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
    const std::vector<VkGpaPerfCounterAMD> counters = {{OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER, 0, 0}};
    const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
    std::uint32_t id = UINT32_MAX;
    const std::string log =
        LayerMessages([&] { result = gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &id); });
    EXPECT_EQ(result, VK_ERROR_FEATURE_NOT_PRESENT);
    EXPECT_NE(log.find("is not a counter of this device"), std::string::npos) << log;
    ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
    End(command_buffer);
    Submit({command_buffer});
    return;
  }
  ASSERT_EQ(result, VK_SUCCESS);
  EXPECT_EQ(block, &blocks.back()) << "listed last";
  EXPECT_EQ(block->instanceCount, 1u);
  ASSERT_EQ(block->maxEventID + 1, events.size());
  for (std::uint32_t e = 0; e < events.size(); ++e) {
    EXPECT_EQ(events[e].eventID, e);
    EXPECT_GT(std::strlen(events[e].name), 0u) << "event " << e;
  }
  RecordProperty("samplerEvents", std::to_string(events.size()));
}

// The H100: PS threads = the pixels of a full-screen draw, VS threads = the vertices of a non-indexed draw, CS
// threads = the dispatched threads, each beside the pipeline statistic of the same sample; PS and VS threads together
// need two sampler passes there, and such a sample is refused.
TEST_F(LayerSamplerCountersTest, HardwareCountersCountKnownWorkExactly) {
  if (SamplerBlock(Blocks()) == nullptr) {
    GTEST_SKIP() << device().properties().deviceName << " has no GPU periodic sampler block";
  }
  const std::uint32_t ps = EventNamed(kPsThreads), vs = EventNamed(kVsThreads), cs = EventNamed(kCsThreads);
  ASSERT_NE(ps, UINT32_MAX);
  ASSERT_NE(vs, UINT32_MAX);
  ASSERT_NE(cs, UINT32_MAX);
  constexpr VkGpaPerfBlockAMD kBlock = OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER;
  std::ofstream table = RecordFile("sampler_counters.tsv");

  const std::vector<VkGpaPerfCounterAMD> both = {{kBlock, 0, ps}, {kBlock, 0, vs}};
  std::uint32_t passes = 0;
  ASSERT_EQ(passes_(vk(), 2, both.data(), &passes), VK_SUCCESS);
  table << "passes(PS threads, VS threads)\t" << passes << '\n';
  if (passes > 1) {
    const VkGpaSessionAMD session = CreateSession();
    const VkCommandBuffer command_buffer = BeginPrimary();
    ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
    const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(both);
    std::uint32_t id = UINT32_MAX;
    VkResult result = VK_SUCCESS;
    const std::string log =
        LayerMessages([&] { result = gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &id); });
    EXPECT_EQ(result, VK_ERROR_FEATURE_NOT_PRESENT);
    EXPECT_NE(log.find("sampler passes"), std::string::npos) << log;
    ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
    End(command_buffer);
    Submit({command_buffer});
  }

  const std::uint64_t pixels = 256ull * 192ull;  // the fixture's render target
  std::vector<std::uint64_t> values = SampleOnce({{kBlock, 0, ps}, kFsInvocations}, true,
                                                 [&](VkCommandBuffer cb) { fullscreen().Draw(cb, 3, 1, kColor); });
  ASSERT_EQ(values.size(), 2u);
  table << "full-screen draw\t" << kPsThreads << '\t' << AsDouble(values[0]) << "\tfragment-shader invocations\t"
        << values[1] << "\tpixels\t" << pixels << '\n';
  EXPECT_EQ(AsDouble(values[0]), static_cast<double>(pixels));
  EXPECT_EQ(values[1], pixels);

  values = SampleOnce({{kBlock, 0, vs}, kVsInvocations}, true,
                      [&](VkCommandBuffer cb) { grid().Draw(cb, 3 * 100, 1, kColor); });
  ASSERT_EQ(values.size(), 2u);
  table << "300-vertex draw\t" << kVsThreads << '\t' << AsDouble(values[0]) << "\tvertex-shader invocations\t"
        << values[1] << "\tvertices\t300\n";
  EXPECT_EQ(AsDouble(values[0]), 300.0);

  struct Shape {
    std::uint32_t x, y, z;
  };
  for (const Shape& shape : {Shape{1, 1, 1}, Shape{7, 3, 2}, Shape{256, 4, 1}}) {
    values = SampleOnce({{kBlock, 0, cs}, kCsInvocations}, false,
                        [&](VkCommandBuffer cb) { compute().Dispatch(cb, shape.x, shape.y, shape.z, 16); });
    ASSERT_EQ(values.size(), 2u);
    const std::uint64_t threads = 64ull * shape.x * shape.y * shape.z;
    table << "dispatch " << shape.x << 'x' << shape.y << 'x' << shape.z << '\t' << kCsThreads << '\t'
          << AsDouble(values[0]) << "\tcompute-shader invocations\t" << values[1] << "\tthreads\t" << threads << '\n';
    EXPECT_EQ(AsDouble(values[0]), static_cast<double>(threads));
    EXPECT_EQ(values[1], threads);
  }
}

}  // namespace
}  // namespace opengpa::layertest
