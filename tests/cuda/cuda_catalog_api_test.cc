// The GPA-style catalog (catalogs/cuda*.json) on chips CUPTI supports, through offline contexts: every
// counter resolves to metrics the chip has, every counter can be scheduled, and the default groups take
// the pass counts docs/cuda.md reports.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "tests/cuda/cuda_test_fixture.h"

namespace opengpa::testing {
namespace {

struct CatalogCounter {
  std::string name;
  std::string group;
};

// Distinct counter names of every catalogs/cuda*.json, in file order (a name listed twice is a
// preferred definition and its fallback).
std::vector<CatalogCounter> CatalogCounters() {
  std::vector<CatalogCounter> counters;
  std::set<std::string> seen;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(OPENGPA_CATALOGS_DIR)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("cuda", 0) == 0 && entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream stream(path);
    const nlohmann::json catalog = nlohmann::json::parse(stream);
    for (const auto& counter : catalog.at("counters")) {
      const std::string name = counter.at("name").get<std::string>();
      if (seen.insert(name).second) counters.push_back({name, counter.at("group").get<std::string>()});
    }
  }
  return counters;
}

struct ChipExpectation {
  const char* chip;
  std::set<std::string> absent;     // counters whose metrics the chip does not have
  GpaUInt32 default_groups_passes;  // Timing + General + GlobalMemory + MemoryCache together
  std::map<std::string, GpaUInt32> group_passes;
};

// Pass counts from CUPTI 13.0's scheduler; docs/cuda.md shows the same table.
const std::vector<ChipExpectation>& Expectations() {
  static const std::vector<ChipExpectation> expectations{
      {"GH100",
       {},
       1,
       {{"Timing", 1},
        {"General", 1},
        {"GlobalMemory", 1},
        {"MemoryCache", 1},
        {"ComputeShader", 3},
        {"LocalMemory", 1},
        {"Interconnect", 1},
        {"MemoryCacheSectors", 2},
        {"ComputeUnit", 7}}},
      {"AD102",
       {"NvlinkReceivedBytes", "NvlinkTransmittedBytes", "NvlinkBytes"},
       1,
       {{"Timing", 1},
        {"General", 1},
        {"GlobalMemory", 1},
        {"MemoryCache", 1},
        {"ComputeShader", 3},
        {"LocalMemory", 1},
        {"Interconnect", 1},
        {"MemoryCacheSectors", 2}}},
      // GA100 has no gr__ctas_launched: CSThreadGroups falls back to sm__ctas_launched, which needs its own pass.
      {"GA100",
       {},
       2,
       {{"Timing", 1},
        {"General", 1},
        {"GlobalMemory", 1},
        {"MemoryCache", 1},
        {"ComputeShader", 2},
        {"LocalMemory", 1},
        {"Interconnect", 1},
        {"MemoryCacheSectors", 2}}},
      // Volta and Turing have fewer L2/DRAM counter slots; Volta has no uniform datapath (SALU counters).
      {"GV100", {"SALUInsts", "SALUBusy"}, 3, {{"GlobalMemory", 2}, {"MemoryCache", 3}}},
      {"TU102", {}, 2, {{"GlobalMemory", 2}}},
      {"GA102", {}, 1, {}},
      {"GB100", {}, 1, {}},
      {"GB202", {"NvlinkReceivedBytes", "NvlinkTransmittedBytes", "NvlinkBytes"}, 1, {}},
  };
  return expectations;
}

std::vector<std::string> GroupCounters(const std::vector<std::string>& exposed, const std::vector<CatalogCounter>& all,
                                       const std::set<std::string>& groups) {
  std::set<std::string> available(exposed.begin(), exposed.end());
  std::vector<std::string> names;
  for (const CatalogCounter& counter : all) {
    if (groups.count(counter.group) != 0 && available.count(counter.name) != 0) names.push_back(counter.name);
  }
  return names;
}

class CudaCatalogTest : public CudaApiTest, public ::testing::WithParamInterface<ChipExpectation> {};

TEST_P(CudaCatalogTest, EveryCatalogCounterResolvesToMetricsTheChipHas) {
  const ChipExpectation& expected = GetParam();
  GpaContextId context = OpenOffline(expected.chip);
  const std::vector<std::string> exposed = CounterNames(context);
  const std::set<std::string> exposed_set(exposed.begin(), exposed.end());
  for (const CatalogCounter& counter : CatalogCounters()) {
    EXPECT_EQ(exposed_set.count(counter.name) == 0, expected.absent.count(counter.name) != 0)
        << counter.name << " on " << expected.chip;
  }
}

TEST_P(CudaCatalogTest, EveryExposedCounterCanBeScheduledByCupti) {
  GpaContextId context = OpenOffline(GetParam().chip);
  for (const std::string& name : CounterNames(context)) {
    GpaStatus status = kGpaStatusOk;
    const GpaUInt32 passes = PassCount(context, {name}, &status);
    EXPECT_EQ(status, kGpaStatusOk) << name << ": " << CudaErrorLog::Errors();
    EXPECT_GE(passes, 1u) << name;
  }
}

TEST_P(CudaCatalogTest, TheDefaultGroupsTakeTheDocumentedPassCount) {
  const ChipExpectation& expected = GetParam();
  GpaContextId context = OpenOffline(expected.chip);
  const std::vector<std::string> exposed = CounterNames(context);
  const auto all = CatalogCounters();
  const std::vector<std::string> defaults =
      GroupCounters(exposed, all, {"Timing", "General", "GlobalMemory", "MemoryCache"});
  EXPECT_EQ(PassCount(context, defaults), expected.default_groups_passes) << CudaErrorLog::Errors();

  // Each group on its own (printed for docs/cuda.md).
  std::set<std::string> groups;
  for (const CatalogCounter& counter : all) groups.insert(counter.group);
  for (const std::string& group : groups) {
    const std::vector<std::string> names = GroupCounters(exposed, all, {group});
    if (names.empty()) continue;
    GpaStatus status = kGpaStatusOk;
    const GpaUInt32 passes = PassCount(context, names, &status);
    std::printf("[ passes   ] %s %-14s %2zu counters: %u passes%s\n", expected.chip, group.c_str(), names.size(),
                passes, status == kGpaStatusOk ? "" : " (cannot be collected together)");
    if (const auto it = expected.group_passes.find(group); it != expected.group_passes.end()) {
      EXPECT_EQ(passes, it->second) << group;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Chips, CudaCatalogTest, ::testing::ValuesIn(Expectations()),
                         [](const ::testing::TestParamInfo<ChipExpectation>& info) { return info.param.chip; });

}  // namespace
}  // namespace opengpa::testing
