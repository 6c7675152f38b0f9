// An external test of the formula language: every "libGPUCounters derivation" in Arm's Mali G1 counter
// reference (the seed document, copied into data/mali_g1_formulas.txt so that a clone alone passes) must
// parse, with Mali* names as inputs and MALI_CONFIG_* as constants.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "counters/expression.h"

namespace opengpa {
namespace {

const char kSeedPath[] = OPENGPA_SOURCE_DIR "/tests/counters/data/mali_g1_formulas.txt";

// Values for the configuration constants the reference uses; chosen for the hand-computed checks below.
const std::map<std::string, double, std::less<>> kMaliConfig = {
    {"MALI_CONFIG_EXT_BUS_BYTE_SIZE", 16},
    {"MALI_CONFIG_L2_CACHE_COUNT", 2},
    {"MALI_CONFIG_SHADER_CORE_COUNT", 8},
    {"MALI_CONFIG_TIME_SPAN", 0.5},
};

std::string Trim(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const auto last = line.find_last_not_of(" \t\r");
  return line.substr(first, last - first + 1);
}

struct SeedFormula {
  std::string counter;  // the libGPUCounters name
  std::string text;     // its derivation
};

struct Seed {
  bool opened = false;
  std::size_t headings = 0;  // lines that name a formula, well formed or not
  std::vector<SeedFormula> formulas;
};

// One "<counter> = <formula>" per line; '#' starts a comment line.
Seed ReadSeed() {
  Seed seed;
  std::ifstream file(kSeedPath);
  if (!file) return seed;
  seed.opened = true;
  for (std::string line; std::getline(file, line);) {
    line = Trim(line);
    if (line.empty() || line[0] == '#') continue;
    ++seed.headings;
    const std::size_t equals = line.find(" = ");
    if (equals == std::string::npos) continue;
    SeedFormula formula{Trim(line.substr(0, equals)), Trim(line.substr(equals + 3))};
    if (!formula.counter.empty() && !formula.text.empty()) seed.formulas.push_back(formula);
  }
  return seed;
}

// Gives every Mali* name the next input index, so one resolver serves all formulas.
class MaliNames {
 public:
  std::optional<Symbol> operator()(std::string_view name) {
    Symbol symbol;
    if (const auto constant = kMaliConfig.find(name); constant != kMaliConfig.end()) {
      symbol.kind = Symbol::Kind::kConstant;
      symbol.constant = constant->second;
      return symbol;
    }
    if (name.substr(0, 4) != "Mali") return std::nullopt;
    const auto [it, inserted] = inputs_.emplace(std::string(name), static_cast<std::uint32_t>(inputs_.size()));
    symbol.kind = Symbol::Kind::kInput;
    symbol.input = it->second;
    return symbol;
  }
  std::uint32_t Index(const std::string& name) const { return inputs_.at(name); }
  std::size_t size() const { return inputs_.size(); }

 private:
  std::map<std::string, std::uint32_t, std::less<>> inputs_;
};

class MaliSeedFormulasTest : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = ReadSeed();
    ASSERT_TRUE(seed_.opened) << "cannot read the Mali seed document " << kSeedPath;
    resolve_ = [this](std::string_view name) { return names_(name); };
  }

  const SeedFormula* Find(const std::string& counter) const {
    for (const SeedFormula& formula : seed_.formulas) {
      if (formula.counter == counter) return &formula;
    }
    return nullptr;
  }

  // Parses the formula of `counter` and evaluates it with the named inputs set (others 0).
  double Evaluate(const std::string& counter, const std::map<std::string, double>& values) {
    const SeedFormula* formula = Find(counter);
    EXPECT_NE(formula, nullptr) << counter << " not in the seed";
    if (formula == nullptr) return -1;
    Expression expression;
    std::string error;
    EXPECT_TRUE(Expression::Parse(formula->text, resolve_, &expression, &error)) << error;
    std::vector<double> inputs(names_.size(), 0.0);
    for (const auto& [name, value] : values) inputs.at(names_.Index(name)) = value;
    return expression.Evaluate(inputs.data());
  }

  Seed seed_;
  MaliNames names_;
  SymbolResolver resolve_;
};

TEST_F(MaliSeedFormulasTest, EveryLibGpuCountersDerivationParses) {
  EXPECT_GT(seed_.headings, 0u);
  EXPECT_EQ(seed_.formulas.size(), seed_.headings) << "a line is not <counter> = <formula>";
  std::size_t failures = 0;
  for (const SeedFormula& formula : seed_.formulas) {
    Expression expression;
    std::string error;
    if (!Expression::Parse(formula.text, resolve_, &expression, &error)) {
      ++failures;
      ADD_FAILURE() << formula.counter << ": " << error;
    }
  }
  EXPECT_EQ(failures, 0u);
}

TEST_F(MaliSeedFormulasTest, QueueUtilizationIsClampedToAPercentage) {
  // ((queued - stalled) / active) * 100, clamped to [0, 100].
  EXPECT_DOUBLE_EQ(
      Evaluate("MaliCompQueueUtil",
               {{"MaliCompQueuedCy", 800}, {"MaliCompQueueAssignStallCy", 200}, {"MaliGPUActiveCy", 1000}}),
      60.0);
  EXPECT_DOUBLE_EQ(Evaluate("MaliCompQueueUtil", {{"MaliCompQueuedCy", 3000}, {"MaliGPUActiveCy", 1000}}), 100.0);
  EXPECT_DOUBLE_EQ(Evaluate("MaliCompQueueUtil", {{"MaliCompQueueAssignStallCy", 50}, {"MaliGPUActiveCy", 1000}}), 0.0);
  EXPECT_DOUBLE_EQ(Evaluate("MaliCompQueueUtil", {{"MaliCompQueuedCy", 10}}), 0.0);  // idle GPU: 0, not NaN
}

TEST_F(MaliSeedFormulasTest, BandwidthUsesTheConfigurationConstants) {
  // (beats * 16 bytes) / 0.5 s
  EXPECT_DOUBLE_EQ(Evaluate("MaliExtBusRdBPS", {{"MaliExtBusRdBt", 1000}}), 32000.0);
  // stall cycles / 2 L2 slices / active cycles * 100
  EXPECT_DOUBLE_EQ(Evaluate("MaliExtBusRdStallRate", {{"MaliExtBusRdStallCy", 300}, {"MaliGPUActiveCy", 1000}}), 15.0);
}

}  // namespace
}  // namespace opengpa
