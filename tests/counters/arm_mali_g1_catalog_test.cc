// catalogs/arm_mali_g1.json against two extractions of Arm's Mali G1 reference kept in data/ (made with other
// tools than catalogs/generate_arm_mali_g1.py): every counter of the reference is in the catalog, every derived
// counter carries the reference's formula character for character, and every name a formula uses resolves.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "counters/catalog.h"
#include "counters/expression.h"

namespace opengpa {
namespace {

const char kCatalogPath[] = OPENGPA_SOURCE_DIR "/catalogs/arm_mali_g1.json";
const char kNamesPath[] = OPENGPA_SOURCE_DIR "/tests/counters/data/mali_g1_counter_names.txt";
const char kFormulasPath[] = OPENGPA_SOURCE_DIR "/tests/counters/data/mali_g1_formulas.txt";

// The configuration constants the reference's formulas use; a context supplies their values
// (docs/arm-mali.md). MALI_CONFIG_TIME_SPAN is not among them: the catalog makes it a per-sample input.
const std::set<std::string, std::less<>> kConfigurationConstants = {
    "MALI_CONFIG_SHADER_CORE_COUNT", "MALI_CONFIG_L2_CACHE_COUNT", "MALI_CONFIG_EXT_BUS_BYTE_SIZE"};

std::vector<std::string> DataLines(const char* path) {
  std::ifstream file(path);
  EXPECT_TRUE(file) << "cannot read " << path;
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) {
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

class ArmMaliG1CatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ifstream file(kCatalogPath);
    ASSERT_TRUE(file) << "cannot read " << kCatalogPath;
    std::stringstream text;
    text << file.rdbuf();
    std::string error;
    ASSERT_TRUE(ParseCatalog(text.str(), &catalog_, &error)) << error;
    seed_names_ = DataLines(kNamesPath);
    ASSERT_EQ(seed_names_.size(), 291u) << "the reference describes 291 counters";
  }

  bool IsHardware(const std::string& name) const {
    return std::any_of(catalog_.hardware_counters.begin(), catalog_.hardware_counters.end(),
                       [&name](const HardwareCounterDefinition& counter) { return counter.name == name; });
  }

  Catalog catalog_;
  std::vector<std::string> seed_names_;
};

TEST_F(ArmMaliG1CatalogTest, EveryCounterOfTheReferenceIsRawOrDerivedInItsOrder) {
  std::vector<std::string> raw;
  for (const HardwareCounterDefinition& counter : catalog_.hardware_counters) {
    if (std::find(seed_names_.begin(), seed_names_.end(), counter.name) != seed_names_.end())
      raw.push_back(counter.name);
  }
  std::vector<std::string> derived;
  for (const CounterDefinition& counter : catalog_.counters) derived.push_back(counter.name);
  EXPECT_EQ(raw.size(), 167u);
  EXPECT_EQ(derived.size(), 124u);
  // Both lists keep the reference's order, and together they are the reference.
  std::vector<std::string> raw_in_seed_order;
  std::vector<std::string> derived_in_seed_order;
  for (const std::string& name : seed_names_) {
    (IsHardware(name) ? raw_in_seed_order : derived_in_seed_order).push_back(name);
  }
  EXPECT_EQ(raw, raw_in_seed_order);
  EXPECT_EQ(derived, derived_in_seed_order);
}

TEST_F(ArmMaliG1CatalogTest, DerivedFormulasAreTheReferencesCharacterForCharacter) {
  const std::vector<std::string> lines = DataLines(kFormulasPath);
  ASSERT_EQ(lines.size(), catalog_.counters.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(catalog_.counters[i].name + " = " + catalog_.counters[i].formula, lines[i]);
    EXPECT_EQ(catalog_.counters[i].data_type, kGpaDataTypeFloat64) << catalog_.counters[i].name;
  }
}

TEST_F(ArmMaliG1CatalogTest, HardwareCountersBeyondTheReferenceAreOnlyWhatItsFormulasRead) {
  // The filtered reference leaves out some raw counters its formulas read; the catalog adds exactly those (with
  // the hardware name of the reference's hardware derivation) and the per-sample time span.
  std::set<std::string> read_by_formulas;
  for (const CounterDefinition& counter : catalog_.counters) {
    const SymbolResolver collect = [&read_by_formulas](std::string_view name) -> std::optional<Symbol> {
      Symbol symbol;
      if (kConfigurationConstants.count(name) != 0) {
        symbol.kind = Symbol::Kind::kConstant;
        return symbol;
      }
      read_by_formulas.emplace(name);
      return symbol;
    };
    Expression expression;
    std::string error;
    EXPECT_TRUE(Expression::Parse(counter.formula, collect, &expression, &error)) << error;
  }
  std::set<std::string> beyond;
  for (const HardwareCounterDefinition& counter : catalog_.hardware_counters) {
    if (std::find(seed_names_.begin(), seed_names_.end(), counter.name) != seed_names_.end()) {
      EXPECT_FALSE(counter.hardware_name.empty()) << counter.name;
      continue;
    }
    beyond.insert(counter.name);
    EXPECT_EQ(read_by_formulas.count(counter.name), 1u) << counter.name << " is read by no formula";
    if (counter.name != "MALI_CONFIG_TIME_SPAN") {
      EXPECT_FALSE(counter.hardware_name.empty()) << counter.name;
    }
  }
  EXPECT_EQ(beyond.size(), 17u);
  EXPECT_EQ(beyond.count("MALI_CONFIG_TIME_SPAN"), 1u);
  // And every name a formula reads is a hardware counter of the catalog.
  for (const std::string& name : read_by_formulas) EXPECT_TRUE(IsHardware(name)) << name << " resolves to nothing";
}

TEST_F(ArmMaliG1CatalogTest, UsagesFollowWhatEachFormulaYields) {
  for (const CounterDefinition& counter : catalog_.counters) {
    const bool clamped_percent = counter.formula.rfind("max(min(", 0) == 0 && counter.formula.size() > 16 &&
                                 counter.formula.substr(counter.formula.size() - 16) == " * 100, 100), 0)";
    EXPECT_EQ(counter.usage == kGpaUsageTypePercentage, clamped_percent) << counter.name << ": " << counter.formula;
    const std::string& name = counter.name;
    const auto ends_with = [&name](const std::string& suffix) {
      return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends_with("By")) {
      EXPECT_EQ(counter.usage, kGpaUsageTypeBytes) << name;
    }
    if (ends_with("BPS")) {
      EXPECT_EQ(counter.usage, kGpaUsageTypeRatio) << name << ": bytes per second";
    }
  }
  for (const HardwareCounterDefinition& counter : catalog_.hardware_counters) {
    const std::string& name = counter.name;
    const bool cycles = name.size() > 2 && name.compare(name.size() - 2, 2, "Cy") == 0;
    EXPECT_EQ(counter.usage, cycles ? kGpaUsageTypeCycles
                                    : (name == "MALI_CONFIG_TIME_SPAN" ? kGpaUsageTypeRatio : kGpaUsageTypeItems))
        << name;
    EXPECT_EQ(counter.data_type, name == "MALI_CONFIG_TIME_SPAN" ? kGpaDataTypeFloat64 : kGpaDataTypeUint64) << name;
  }
}

}  // namespace
}  // namespace opengpa
