// VK_KHR_performance_query counters published as the perf block of
// include/vulkan_layer/vk_gpa_interface_performance_counters.h. The tests enumerate the driver's counters
// themselves and apply the documented rule, so the layer's list is checked against the driver's, not against
// itself. lavapipe offers no VK_KHR_performance_query: there the block is absent and asking for it is refused.
// The NVIDIA driver offers it: there each counter is sampled around a dispatch of known size
// (tests/device/vulkan_layer/run.sh).
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include "layer_fixture.h"
#include "vk_gpa_interface_performance_counters.h"
#include "vk_gpa_interface_sampler_counters.h"

namespace opengpa::layertest {
namespace {

struct DriverCounter {
  VkPerformanceCounterKHR counter{};
  std::string name;
};

class LayerPerformanceCountersTest : public LayerTest {
 protected:
  // The counters the documented rule publishes, in event order: scope COMMAND, every queue family, family 0
  // first, each uuid once.
  // `listing`, when given, receives every counter of every family (all scopes), one line each.
  static std::vector<DriverCounter> DocumentedCounters(std::ostream* listing = nullptr) {
    std::vector<DriverCounter> published;
    const VkPhysicalDevice physical = device().physical_device();
    std::uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
    bool offered = false;
    for (const VkExtensionProperties& e : extensions)
      offered = offered || std::strcmp(e.extensionName, VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME) == 0;
    if (!offered) return published;
    VkPhysicalDevicePerformanceQueryFeaturesKHR performance{};
    performance.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &performance;
    vkGetPhysicalDeviceFeatures2(physical, &features);
    if (performance.performanceCounterQueryPools != VK_TRUE) return published;
    const auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR>(
        vkGetInstanceProcAddr(device().instance(), "vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR"));
    if (enumerate == nullptr) {
      ADD_FAILURE() << "the device offers VK_KHR_performance_query, but its enumeration does not resolve";
      return published;
    }
    std::uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
    for (std::uint32_t family = 0; family < families; ++family) {
      count = 0;
      if (enumerate(physical, family, &count, nullptr, nullptr) != VK_SUCCESS) continue;
      std::vector<VkPerformanceCounterKHR> counters(count);
      std::vector<VkPerformanceCounterDescriptionKHR> descriptions(count);
      for (std::uint32_t i = 0; i < count; ++i) {
        counters[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_KHR;
        descriptions[i].sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_KHR;
      }
      enumerate(physical, family, &count, counters.data(), descriptions.data());
      for (std::uint32_t i = 0; i < count; ++i) {
        if (listing != nullptr) {
          *listing << family << '\t' << i << '\t' << descriptions[i].category << '\t' << descriptions[i].name << '\t'
                   << counters[i].scope << '\t' << counters[i].unit << '\t' << counters[i].storage << '\n';
        }
        if (counters[i].scope != VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR) continue;
        bool known = false;
        for (const DriverCounter& p : published)
          known = known || std::memcmp(p.counter.uuid, counters[i].uuid, VK_UUID_SIZE) == 0;
        if (!known) published.push_back({counters[i], descriptions[i].name});
      }
    }
    return published;
  }

  // A file under $OUT (the device tool's folder) for docs/validation.md; without OUT, a stream that writes
  // nowhere.
  static std::ofstream RecordFile(const std::string& name) {
    const char* out_dir = std::getenv("OUT");
    return out_dir != nullptr ? std::ofstream(std::string(out_dir) + "/" + name) : std::ofstream();
  }

  static std::uint32_t device_subgroup_size() {
    VkPhysicalDeviceSubgroupProperties subgroup{};
    subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &subgroup;
    vkGetPhysicalDeviceProperties2(device().physical_device(), &properties);
    return subgroup.subgroupSize;
  }

  static bool IsLavapipe() { return std::string(device().properties().deviceName).rfind("llvmpipe", 0) == 0; }
};

TEST_F(LayerPerformanceCountersTest, PerfBlocksEndWithTheDriversCommandScopeCountersWhereItOffersThem) {
  std::ofstream listing = RecordFile("driver_performance_counters.tsv");
  listing << "family\tindex\tcategory\tname\tscope\tunit\tstorage\n";
  const std::vector<DriverCounter> documented = DocumentedCounters(&listing);
  if (IsLavapipe()) {
    EXPECT_TRUE(documented.empty()) << "lavapipe offers no VK_KHR_performance_query";
  }
  std::vector<VkGpaPerfBlockPropertiesAMD> blocks = Blocks();
  // An NVIDIA GPU the periodic sampler supports publishes its block last (layer_sampler_counters_test.cc pins it).
  if (!blocks.empty() && blocks.back().blockType == OPENGPA_GPA_PERF_BLOCK_NVIDIA_GPU_PERIODIC_SAMPLER) {
    EXPECT_EQ(device().properties().vendorID, 0x10DEu) << "the sampler block only on NVIDIA";
    blocks.pop_back();
  }
  ASSERT_EQ(blocks.size(), documented.empty() ? 4u : 5u) << "IA, VGT, PA, SPI, then the performance counters";
  for (std::size_t b = 0; b < 4; ++b) EXPECT_NE(blocks[b].blockType, OPENGPA_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY);
  RecordProperty("performanceCounters", std::to_string(documented.size()));
  if (documented.empty()) return;
  const VkGpaPerfBlockPropertiesAMD& block = blocks.back();
  EXPECT_EQ(block.blockType, OPENGPA_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY);
  EXPECT_EQ(block.instanceCount, 1u);
  EXPECT_EQ(block.maxEventID + 1, documented.size());
  EXPECT_EQ(block.maxStreamingCounters, 0u);

  VkPhysicalDeviceGpaFeaturesAMD gpa_features{};
  gpa_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &gpa_features;
  vkGetPhysicalDeviceFeatures2(device().physical_device(), &features);
  EXPECT_EQ(gpa_features.perfCounters, VK_TRUE);
}

TEST_F(LayerPerformanceCountersTest, AnEventPastTheDriversCountersIsRefusedWithALogLine) {
  const std::uint32_t past = static_cast<std::uint32_t>(DocumentedCounters().size());
  const VkGpaSessionAMD session = CreateSession();
  const VkCommandBuffer command_buffer = BeginPrimary();
  ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
  const std::vector<VkGpaPerfCounterAMD> counters = {{OPENGPA_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY, 0, past}};
  const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
  std::uint32_t id = UINT32_MAX;
  VkResult result = VK_SUCCESS;
  const std::string log =
      LayerMessages([&] { result = gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &id); });
  EXPECT_EQ(result, VK_ERROR_FEATURE_NOT_PRESENT);
  EXPECT_NE(log.find("is not a counter of this device"), std::string::npos) << log;
  EXPECT_EQ(id, UINT32_MAX);
  ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
  End(command_buffer);
  Submit({command_buffer});
  EXPECT_EQ(gpa().GetGpaSessionStatus(vk(), session), VK_SUCCESS) << "a session with no sample is complete";
}

// Each counter in its own sample, with the compute-shader statistic, inside a timing sample, around a
// dispatch of known size. The statistic must stay exact beside the counter; a percentage lies in [0, 100]; a
// duration in nanoseconds is positive and no longer than the timing sample around it; a counter of threads or
// warps launched, where the driver has one, equals the dispatch's. Every value is written to
// $OUT/performance_counters.tsv for docs/validation.md.
TEST_F(LayerPerformanceCountersTest, EachCounterSamplesAKnownDispatchBesideAnExactStatistic) {
  const std::vector<DriverCounter> documented = DocumentedCounters();
  if (documented.empty()) {
    GTEST_SKIP() << device().properties().deviceName << " offers no VK_KHR_performance_query";
  }
  constexpr std::uint32_t kGroups = 256, kLocalSize = 64, kThreads = kGroups * kLocalSize;
  std::ofstream table = RecordFile("performance_counters.tsv");
  table << "event\tname\tunit\tstorage\tvalue\ttiming_ns\n";
  const double period = device().properties().limits.timestampPeriod;
  std::uint32_t sampled = 0, refused = 0, exact_launch_checks = 0;
  for (std::uint32_t event = 0; event < documented.size(); ++event) {
    const DriverCounter& counter = documented[event];
    const VkGpaSessionAMD session = CreateSession();
    const VkCommandBuffer command_buffer = BeginPrimary();
    ASSERT_EQ(gpa().CmdBeginGpaSession(command_buffer, session), VK_SUCCESS);
    const VkGpaSampleBeginInfoAMD timing = TimingInfo();
    const std::vector<VkGpaPerfCounterAMD> counters = {{OPENGPA_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY, 0, event},
                                                       kCsInvocations};
    const VkGpaSampleBeginInfoAMD cumulative = CumulativeInfo(counters);
    std::uint32_t timing_id = 0, id = UINT32_MAX;
    ASSERT_EQ(gpa().CmdBeginGpaSample(command_buffer, session, &timing, &timing_id), VK_SUCCESS);
    VkResult begun = VK_SUCCESS;
    const std::string log =
        LayerMessages([&] { begun = gpa().CmdBeginGpaSample(command_buffer, session, &cumulative, &id); });
    compute().Dispatch(command_buffer, kGroups, 1, 1, 16);
    if (begun == VK_SUCCESS) gpa().CmdEndGpaSample(command_buffer, session, id);
    gpa().CmdEndGpaSample(command_buffer, session, timing_id);
    ASSERT_EQ(gpa().CmdEndGpaSession(command_buffer, session), VK_SUCCESS);
    End(command_buffer);
    Submit({command_buffer});
    if (begun != VK_SUCCESS) {
      // Only a set the driver needs several passes for may be refused, and it says so.
      EXPECT_EQ(begun, VK_ERROR_FEATURE_NOT_PRESENT) << counter.name;
      EXPECT_NE(log.find("passes"), std::string::npos) << counter.name << ": " << log;
      table << event << '\t' << counter.name << "\t\t\trefused: " << log.substr(0, log.find('\n')) << "\t\n";
      ++refused;
      continue;
    }
    ++sampled;
    const std::vector<std::uint64_t> values = Results(session, id);
    const std::vector<std::uint64_t> stamps = Results(session, timing_id);
    ASSERT_EQ(values.size(), 2u);
    ASSERT_EQ(stamps.size(), 2u);
    EXPECT_EQ(values[1], kThreads) << "the compute-shader statistic beside " << counter.name;
    const double timing_ns = double(stamps[1] - stamps[0]) * period;
    double value = 0;
    switch (counter.counter.storage) {
      case VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR:
      case VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR: value = double(static_cast<std::int64_t>(values[0])); break;
      case VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR:
      case VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR: value = double(values[0]); break;
      default: std::memcpy(&value, &values[0], sizeof(value)); break;  // float storages: double bits
    }
    table << event << '\t' << counter.name << '\t' << counter.counter.unit << '\t' << counter.counter.storage << '\t'
          << value << '\t' << timing_ns << '\n';
    EXPECT_FALSE(std::isnan(value)) << counter.name;
    if (counter.counter.unit == VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR) {
      EXPECT_GE(value, 0.0) << counter.name;
      EXPECT_LE(value, 100.0) << counter.name;
    }
    if (counter.counter.unit == VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR) {
      EXPECT_GT(value, 0.0) << counter.name;
      EXPECT_LE(value, timing_ns) << counter.name << " lasts longer than the timing sample around it";
    }
    std::string lower = counter.name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("launch") != std::string::npos && lower.find("thread") != std::string::npos) {
      EXPECT_EQ(value, double(kThreads)) << counter.name;
      ++exact_launch_checks;
    }
    if (lower.find("launch") != std::string::npos && lower.find("warp") != std::string::npos) {
      EXPECT_EQ(value, double(kThreads / device_subgroup_size())) << counter.name;
      ++exact_launch_checks;
    }
  }
  RecordProperty("sampled", std::to_string(sampled));
  RecordProperty("refused", std::to_string(refused));
  RecordProperty("exactLaunchChecks", std::to_string(exact_launch_checks));
  std::cout << sampled << " counters sampled, " << refused << " refused (passes), " << exact_launch_checks
            << " checked against the threads or warps launched\n";
  EXPECT_GT(sampled, 0u) << "no counter could be sampled alone";
}

}  // namespace
}  // namespace opengpa::layertest
