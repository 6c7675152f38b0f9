// Every catalog shipped in catalogs/ must be well-formed and its formulas must parse, whatever device
// later decides which of its counters are visible; and together the catalogs speak one vocabulary: a name
// means one thing (one data type and usage) on every backend, and a GPA name carries GPA's data type and
// usage (catalogs/README.md, "One vocabulary").
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "counters/catalog.h"
#include "counters/expression.h"

namespace opengpa {
namespace {

std::vector<std::filesystem::path> CatalogFiles() {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(OPENGPA_SOURCE_DIR "/catalogs", error)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// file name -> parsed catalog; a file that does not parse fails the test that reads it.
std::map<std::string, Catalog> ParsedCatalogs() {
  std::map<std::string, Catalog> catalogs;
  for (const auto& file : CatalogFiles()) {
    std::ifstream stream(file);
    std::stringstream text;
    text << stream.rdbuf();
    Catalog catalog;
    std::string error;
    EXPECT_TRUE(ParseCatalog(text.str(), &catalog, &error)) << file.filename() << ": " << error;
    catalogs[file.filename().string()] = std::move(catalog);
  }
  return catalogs;
}

// GPA's usage for the GPA names our catalogs use, from the v3 seed's per-generation tables (compute tables
// for the compute counters: FetchSize and WriteSize in kilobytes) and, for PSPixelsIn, GPA v2's table.
// GPA defines every derived counter as float64.
const std::map<std::string, GpaUsageType>& GpaUsages() {
  static const std::map<std::string, GpaUsageType> usages{{"GPUTime", kGpaUsageTypeNanoseconds},
                                                          {"ExecutionDuration", kGpaUsageTypeNanoseconds},
                                                          {"ExecutionStart", kGpaUsageTypeNanoseconds},
                                                          {"ExecutionEnd", kGpaUsageTypeNanoseconds},
                                                          {"GPUBusy", kGpaUsageTypePercentage},
                                                          {"GPUBusyCycles", kGpaUsageTypeCycles},
                                                          {"CSBusy", kGpaUsageTypePercentage},
                                                          {"CSBusyCycles", kGpaUsageTypeCycles},
                                                          {"CSTime", kGpaUsageTypeNanoseconds},
                                                          {"VSVerticesIn", kGpaUsageTypeItems},
                                                          {"HSPatches", kGpaUsageTypeItems},
                                                          {"DSVerticesIn", kGpaUsageTypeItems},
                                                          {"GSPrimsIn", kGpaUsageTypeItems},
                                                          {"PrimitivesIn", kGpaUsageTypeItems},
                                                          {"PSPixelsIn", kGpaUsageTypeItems},
                                                          {"CSThreadGroups", kGpaUsageTypeItems},
                                                          {"CSThreads", kGpaUsageTypeItems},
                                                          {"CSThreadGroupSize", kGpaUsageTypeItems},
                                                          {"Wavefronts", kGpaUsageTypeItems},
                                                          {"VALUInsts", kGpaUsageTypeItems},
                                                          {"SALUInsts", kGpaUsageTypeItems},
                                                          {"VFetchInsts", kGpaUsageTypeItems},
                                                          {"VWriteInsts", kGpaUsageTypeItems},
                                                          {"VALUUtilization", kGpaUsageTypePercentage},
                                                          {"VALUBusy", kGpaUsageTypePercentage},
                                                          {"SALUBusy", kGpaUsageTypePercentage},
                                                          {"LDSInsts", kGpaUsageTypeItems},
                                                          {"LDSBankConflict", kGpaUsageTypePercentage},
                                                          {"FlatVMemInsts", kGpaUsageTypeItems},
                                                          {"FlatLDSInsts", kGpaUsageTypeItems},
                                                          {"ALUStalledByLDS", kGpaUsageTypePercentage},
                                                          {"MemUnitStalled", kGpaUsageTypePercentage},
                                                          {"FetchSize", kGpaUsageTypeKilobytes},
                                                          {"WriteSize", kGpaUsageTypeKilobytes},
                                                          {"L0CacheHit", kGpaUsageTypePercentage},
                                                          {"L2CacheHit", kGpaUsageTypePercentage},
                                                          {"L2CacheMiss", kGpaUsageTypePercentage},
                                                          {"L2CacheRequestCount", kGpaUsageTypeItems},
                                                          {"L2CacheHitCount", kGpaUsageTypeItems},
                                                          {"L2CacheMissCount", kGpaUsageTypeItems},
                                                          {"LocalVidMemBytes", kGpaUsageTypeBytes},
                                                          {"PcieBytes", kGpaUsageTypeBytes},
                                                          {"SFetchInsts", kGpaUsageTypeItems},
                                                          {"GDSInsts", kGpaUsageTypeItems},
                                                          {"L1CacheHit", kGpaUsageTypePercentage}};
  return usages;
}

TEST(RepositoryCatalogsTest, ANameHasOneDataTypeAndUsageOnEveryBackend) {
  std::map<std::string, std::pair<std::string, const CounterDefinition*>> first;  // name -> (file, counter)
  for (const auto& [file, catalog] : ParsedCatalogs()) {
    for (const CounterDefinition& counter : catalog.counters) {
      const auto [it, inserted] = first.emplace(counter.name, std::make_pair(file, &counter));
      if (inserted) continue;
      EXPECT_EQ(counter.data_type, it->second.second->data_type)
          << counter.name << ": data type in " << file << " differs from " << it->second.first;
      EXPECT_EQ(counter.usage, it->second.second->usage)
          << counter.name << ": usage in " << file << " differs from " << it->second.first;
    }
  }
  EXPECT_GT(first.size(), 60u);
}

TEST(RepositoryCatalogsTest, GpaNamesCarryGpaDataTypeAndUsage) {
  std::set<std::string> used;
  for (const auto& [file, catalog] : ParsedCatalogs()) {
    for (const CounterDefinition& counter : catalog.counters) {
      const auto it = GpaUsages().find(counter.name);
      if (it == GpaUsages().end()) continue;
      used.insert(counter.name);
      EXPECT_EQ(counter.data_type, kGpaDataTypeFloat64)
          << file << " " << counter.name << ": GPA's data type is float64";
      EXPECT_EQ(counter.usage, it->second) << file << " " << counter.name << ": not GPA's usage";
    }
  }
  // Every GPA name of the table is in use somewhere (a rename away from it must update the table).
  for (const auto& [name, usage] : GpaUsages()) EXPECT_EQ(used.count(name), 1u) << name << " is in no catalog";
}

TEST(RepositoryCatalogsTest, NoBackendUsesAGpaNameForADifferentQuantity) {
  // (catalog, GPA name): why that backend's nearest quantity has another name (catalogs/README.md).
  const std::map<std::pair<std::string, std::string>, const char*> refused{
      {{"cuda.json", "L1CacheHit"}, "the SM's L1TEX is at AMD's L0 position: L0CacheHit"},
      {{"cuda.json", "MemUnitBusy"}, "the data-stage wavefront rate is L1TEXDataPipeUtilization"},
      {{"cuda.json", "CacheHit"}, "no single data cache"},
      {{"vulkan.json", "CulledPrims"}, "ClipperPrimsRejected counts view-volume rejects only"},
      {{"opengl.json", "CulledPrims"}, "ClipperPrimsRejected counts view-volume rejects only"},
      {{"vulkan.json", "PAPixelsPerTriangle"}, "PSPixelsPerPrimitive divides by primitives before culling"},
      {{"opengl.json", "PAPixelsPerTriangle"}, "PSPixelsPerPrimitive divides by primitives before culling"}};
  // Names retired by the one-vocabulary change: no catalog may bring them back.
  const std::set<std::string> retired{"InputVertices", "InputPrimitives",  "PSInvocations",
                                      "GSInvocations", "GSPrimitivesOut",  "ClipperPrimitivesOut",
                                      "L1SectorCount", "L1SectorHitCount", "L1SectorMissCount"};
  for (const auto& [file, catalog] : ParsedCatalogs()) {
    for (const CounterDefinition& counter : catalog.counters) {
      const auto it = refused.find({file, counter.name});
      EXPECT_TRUE(it == refused.end()) << file << " defines " << counter.name << ": " << it->second;
      EXPECT_EQ(retired.count(counter.name), 0u) << file << " defines the retired name " << counter.name;
    }
  }
}

TEST(RepositoryCatalogsTest, EveryCatalogInTheTreeParsesWithWellFormedFormulas) {
  const std::vector<std::filesystem::path> files = CatalogFiles();
  ASSERT_FALSE(files.empty()) << "no *.json catalog under " << OPENGPA_SOURCE_DIR "/catalogs";
  // Any name is accepted: which hardware counters exist is the device's business, the syntax is ours.
  std::uint32_t next_input = 0;
  const SymbolResolver any_name = [&next_input](std::string_view) -> std::optional<Symbol> {
    Symbol symbol;
    symbol.input = next_input++;
    return symbol;
  };
  for (const auto& file : files) {
    std::ifstream stream(file);
    std::stringstream text;
    text << stream.rdbuf();
    Catalog catalog;
    std::string error;
    if (!ParseCatalog(text.str(), &catalog, &error)) {
      ADD_FAILURE() << file.filename() << ": " << error;
      continue;
    }
    EXPECT_FALSE(catalog.counters.empty()) << file.filename() << " defines no counter";
    for (const CounterDefinition& counter : catalog.counters) {
      Expression expression;
      EXPECT_TRUE(Expression::Parse(counter.formula, any_name, &expression, &error))
          << file.filename() << " " << counter.name << ": " << error;
    }
  }
}

}  // namespace
}  // namespace opengpa
