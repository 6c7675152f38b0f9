// Arm's Mali G1 counters in the counter library (docs/arm-mali.md): a Vulkan, OpenGL or OpenCL context opened with
// Arm's vendor id and a Mali G1's device id lists every counter of Arm's reference (from the committed catalog,
// cross-checked with the reference's own name list in tests/counters/data), and computes each derived counter from
// the raw values given exactly as the reference's formula says: all 124 (as extracted into tests/counters/data)
// against an evaluator written here, and one case per family of formulas worked out by hand from the reference's
// definitions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "counter_library_fixture.h"

namespace opengpa::testing {
namespace {

constexpr GpaUInt32 kArm = 0x13B5;
constexpr GpaUInt32 kMaliG1Ultra = 0xE800;  // GPU product id: arch major 14, arch minor 8, product major 0

nlohmann::json MaliCatalog() {
  std::ifstream in(std::string(OPENGPA_CATALOG_DIR) + "/arm_mali_g1.json");
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

// The reference's 124 derived formulas as extracted into tests/counters/data (not the catalog): (name, formula).
std::vector<std::pair<std::string, std::string>> ReferenceFormulas() {
  std::ifstream in(std::string(OPENGPA_SOURCE_DIR) + "/tests/counters/data/mali_g1_formulas.txt");
  std::vector<std::pair<std::string, std::string>> formulas;
  for (std::string line; std::getline(in, line);) {
    const std::size_t equals = line.find(" = ");
    if (line.empty() || line[0] == '#' || equals == std::string::npos) continue;
    formulas.emplace_back(line.substr(0, equals), line.substr(equals + 3));
  }
  return formulas;
}

std::vector<std::string> ReferenceNames() {
  std::ifstream in(std::string(OPENGPA_SOURCE_DIR) + "/tests/counters/data/mali_g1_counter_names.txt");
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') names.push_back(line);
  }
  return names;
}

// An evaluator of the reference's formula text written for this test (not src/counters/expression.cc): numbers,
// names, + - * /, unary minus, parentheses, min() and max() of any arity. Division by zero gives 0, the library's
// documented rule (catalogs/README.md).
class ReferenceEvaluator {
 public:
  ReferenceEvaluator(const std::string& text, const std::map<std::string, double>& values)
      : text_(text), values_(values) {}

  double Run() {
    const double value = Sum();
    Skip();
    EXPECT_EQ(position_, text_.size()) << "trailing text in " << text_;
    return value;
  }

 private:
  void Skip() {
    while (position_ < text_.size() && text_[position_] == ' ') ++position_;
  }
  bool Take(char c) {
    Skip();
    if (position_ < text_.size() && text_[position_] == c) {
      ++position_;
      return true;
    }
    return false;
  }
  double Sum() {
    double value = Product();
    for (;;) {
      if (Take('+')) {
        value += Product();
      } else if (Take('-')) {
        value -= Product();
      } else {
        return value;
      }
    }
  }
  double Product() {
    double value = Unary();
    for (;;) {
      if (Take('*')) {
        value *= Unary();
      } else if (Take('/')) {
        const double divisor = Unary();
        value = divisor == 0 ? 0 : value / divisor;
      } else {
        return value;
      }
    }
  }
  double Unary() { return Take('-') ? -Unary() : Primary(); }
  double Primary() {
    Skip();
    if (Take('(')) {
      const double value = Sum();
      EXPECT_TRUE(Take(')')) << text_;
      return value;
    }
    const std::size_t start = position_;
    if (std::isdigit(static_cast<unsigned char>(text_[position_])) != 0) {
      while (position_ < text_.size() &&
             (std::isdigit(static_cast<unsigned char>(text_[position_])) != 0 || text_[position_] == '.')) {
        ++position_;
      }
      return std::stod(text_.substr(start, position_ - start));
    }
    while (position_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[position_])) != 0 || text_[position_] == '_')) {
      ++position_;
    }
    const std::string name = text_.substr(start, position_ - start);
    if (name == "min" || name == "max") {
      EXPECT_TRUE(Take('(')) << text_;
      double value = Sum();
      while (Take(',')) {
        const double next = Sum();
        value = name == "min" ? std::min(value, next) : std::max(value, next);
      }
      EXPECT_TRUE(Take(')')) << text_;
      return value;
    }
    const auto it = values_.find(name);
    EXPECT_NE(it, values_.end()) << "no value for " << name << " in " << text_;
    return it == values_.end() ? NAN : it->second;
  }

  std::string text_;
  const std::map<std::string, double>& values_;
  std::size_t position_ = 0;
};

// The configuration the tests state: 12 shader cores, 4 L2 slices, a 32-byte bus (not the defaults, so a formula
// that ignored them would fail).
struct Configuration {
  GpaHardwareAttribute attributes[3] = {{kGpaHardwareAttributeNumComputeUnits, 12},
                                        {kGpaHardwareAttributeL2SliceCount, 4},
                                        {kGpaHardwareAttributeExternalBusBytes, 32}};
};

class MaliG1ContextTest : public CounterLibraryTest {
 protected:
  GpaCounterContextHardwareInfo G1(GpaUInt32 device_id = kMaliG1Ultra) {
    GpaCounterContextHardwareInfo info = Device(kArm, device_id);
    info.gpa_hardware_attributes = configuration_.attributes;
    info.gpa_hardware_attribute_count = 3;
    return info;
  }

  // Counter `name` of `context` (opened with the hardware counters) from the values of its hardware counters by
  // name; every hardware counter it reads must be given. MALI_CONFIG_TIME_SPAN is float64: its double's bits.
  double Compute(GpaCounterContext context, const std::string& name, const std::map<std::string, double>& values) {
    const GpaUInt32 index = IndexOf(context, name.c_str());
    std::vector<GpaUInt64> raw;
    for (const std::string& input : HardwareNamesBehind(context, index)) {
      const auto it = values.find(input);
      EXPECT_NE(it, values.end()) << name << " reads " << input << ", which the test does not give";
      if (it == values.end()) return NAN;
      if (input == "MALI_CONFIG_TIME_SPAN") {
        GpaUInt64 bits = 0;
        std::memcpy(&bits, &it->second, sizeof bits);
        raw.push_back(bits);
      } else {
        raw.push_back(static_cast<GpaUInt64>(it->second));
      }
    }
    double result = NAN;
    EXPECT_EQ(lib_.GpaCounterLibComputeDerivedCounterResult(context, index, raw.empty() ? nullptr : raw.data(),
                                                            static_cast<GpaUInt32>(raw.size()), &result),
              kGpaStatusOk)
        << name << ": " << Errors();
    return result;
  }

  Configuration configuration_;
};

struct ApiCase {
  GpaApiType api;
  const char* name;
};

class MaliG1OnEachApiTest : public MaliG1ContextTest, public ::testing::WithParamInterface<ApiCase> {};

TEST_P(MaliG1OnEachApiTest, EveryCounterOfArmsReferenceIsListedBesideTheApisOwn) {
  const nlohmann::json catalog = MaliCatalog();
  const std::vector<std::string> reference = ReferenceNames();
  ASSERT_EQ(reference.size(), 291u);
  ASSERT_EQ(catalog["counters"].size() + catalog["hardware_counters"].size(), 308u);  // 291 + 16 unlisted + span

  // Derived counters: the API's own (as any vendor's), then the 124 Mali ones.
  GpaCounterContext api_only = Open(GetParam().api, Device(0x1002, 0x744C));
  GpaCounterContext mali = Open(GetParam().api, G1());
  ASSERT_NE(api_only, nullptr);
  ASSERT_NE(mali, nullptr);
  std::vector<std::string> expected = Names(api_only);
  for (const nlohmann::json& counter : catalog["counters"]) expected.push_back(counter["name"]);
  EXPECT_EQ(Names(mali), expected);

  // With the hardware counters: every name of the reference, raw ones as hardware counters.
  GpaCounterContext all = Open(GetParam().api, G1(), kGpaOpenContextEnableHardwareCountersBit);
  GpaCounterContext api_all = Open(GetParam().api, Device(0x1002, 0x744C), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(all, nullptr);
  ASSERT_NE(api_all, nullptr);
  const std::vector<std::string> names = Names(all);
  EXPECT_EQ(names.size(), Names(api_all).size() + 308u);
  const std::set<std::string> listed(names.begin(), names.end());
  for (const std::string& name : reference) EXPECT_EQ(listed.count(name), 1u) << name << " is not listed";
}

TEST_P(MaliG1OnEachApiTest, EachMaliCounterHasItsCatalogGroupDescriptionTypeAndUsage) {
  GpaCounterContext context = Open(GetParam().api, G1(), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  const nlohmann::json catalog = MaliCatalog();
  const auto check = [&](const nlohmann::json& counter, bool hardware) {
    const std::string name = counter["name"];
    const GpaUInt32 index = IndexOf(context, name.c_str());
    const char* text = nullptr;
    ASSERT_EQ(lib_.GpaCounterLibGetCounterGroup(context, index, &text), kGpaStatusOk);
    EXPECT_EQ(text, counter["group"].get<std::string>()) << name;
    ASSERT_EQ(lib_.GpaCounterLibGetCounterDescription(context, index, &text), kGpaStatusOk);
    std::string description = counter["description"];
    if (counter.contains("hardware_name"))
      description += " Hardware counter " + counter["hardware_name"].get<std::string>() + ".";
    EXPECT_EQ(text, description) << name;
    GpaDataType type{};
    ASSERT_EQ(lib_.GpaCounterLibGetCounterDataType(context, index, &type), kGpaStatusOk);
    EXPECT_EQ(type, counter["type"] == "uint64" ? kGpaDataTypeUint64 : kGpaDataTypeFloat64) << name;
    GpaUsageType usage{};
    ASSERT_EQ(lib_.GpaCounterLibGetCounterUsageType(context, index, &usage), kGpaStatusOk);
    const std::map<std::string, GpaUsageType> usages{{"percentage", kGpaUsageTypePercentage},
                                                     {"cycles", kGpaUsageTypeCycles},
                                                     {"bytes", kGpaUsageTypeBytes},
                                                     {"items", kGpaUsageTypeItems},
                                                     {"ratio", kGpaUsageTypeRatio}};
    EXPECT_EQ(usage, usages.at(counter["usage"])) << name;
    const GpaCounterInfo* info = nullptr;
    ASSERT_EQ(lib_.GpaCounterLibGetCounterInfo(context, index, &info), kGpaStatusOk);
    EXPECT_EQ(info->is_derived_counter, !hardware) << name;
  };
  for (const nlohmann::json& counter : catalog["counters"]) check(counter, false);
  for (const nlohmann::json& counter : catalog["hardware_counters"]) check(counter, true);
}

TEST_P(MaliG1OnEachApiTest, EveryDerivedCounterIsItsReferenceFormulaOverTheValuesGiven) {
  GpaCounterContext context = Open(GetParam().api, G1(), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  const nlohmann::json catalog = MaliCatalog();
  std::set<std::string> inside_the_clamp;  // percentages seen strictly between 0 and 100: the values discriminate
  std::size_t percentages = 0;
  for (std::uint64_t seed : {1u, 2u, 3u, 4u, 5u, 6u}) {
    // Distinct values per raw counter (a fixed linear congruential sequence per seed), cycle counts (...Cy) ten
    // times the range of event counts as on a GPU, so that utilizations land inside 0..100; and the configuration.
    std::map<std::string, double> values{{"MALI_CONFIG_SHADER_CORE_COUNT", 12},
                                         {"MALI_CONFIG_L2_CACHE_COUNT", 4},
                                         {"MALI_CONFIG_EXT_BUS_BYTE_SIZE", 32},
                                         {"MALI_CONFIG_TIME_SPAN", 0.016 * static_cast<double>(seed)}};
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL;
    for (const nlohmann::json& counter : catalog["hardware_counters"]) {
      if (counter["name"] == "MALI_CONFIG_TIME_SPAN") continue;
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      const std::string name = counter["name"];
      const bool cycles = name.size() > 2 && name.compare(name.size() - 2, 2, "Cy") == 0;
      values[name] = static_cast<double>((cycles ? 1000000 : 1) + (state >> 33) % (cycles ? 9000000 : 1000000));
    }
    std::size_t evaluated = 0;
    for (const auto& [name, formula] : ReferenceFormulas()) {
      const double expected = ReferenceEvaluator(formula, values).Run();
      const double computed = Compute(context, name, values);
      EXPECT_DOUBLE_EQ(computed, expected) << name << " = " << formula << " (seed " << seed << ")";
      ++evaluated;
      GpaUsageType usage{};
      ASSERT_EQ(lib_.GpaCounterLibGetCounterUsageType(context, IndexOf(context, name.c_str()), &usage), kGpaStatusOk);
      if (usage == kGpaUsageTypePercentage) {
        if (seed == 1) ++percentages;
        if (computed > 0 && computed < 100) inside_the_clamp.insert(name);
      }
    }
    EXPECT_EQ(evaluated, 124u);
  }
  EXPECT_EQ(percentages, 58u);
  for (const nlohmann::json& counter : catalog["counters"]) {
    if (counter["usage"] == "percentage") {
      EXPECT_EQ(inside_the_clamp.count(counter["name"]), 1u)
          << counter["name"]
          << " was always clamped to 0 or 100: the values cannot tell a wrong input from a right one";
    }
  }
}

TEST_P(MaliG1OnEachApiTest, EachCounterShowsItsFormulaThroughTheExtension) {
  // OpenGpaCounterLibGetCounterFormula (opengpa_counters_ext.h): a derived counter's is the catalog's, a hardware
  // counter's its own name.
  GpaCounterContext context = Open(GetParam().api, G1(), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  const nlohmann::json catalog = MaliCatalog();
  const char* formula = nullptr;
  for (const nlohmann::json& counter : catalog["counters"]) {
    ASSERT_EQ(OpenGpaCounterLibGetCounterFormula(context, IndexOf(context, counter["name"].get<std::string>().c_str()),
                                                 &formula),
              kGpaStatusOk);
    EXPECT_EQ(formula, counter["formula"].get<std::string>());
  }
  ASSERT_EQ(OpenGpaCounterLibGetCounterFormula(context, IndexOf(context, "MaliGPUActiveCy"), &formula), kGpaStatusOk);
  EXPECT_STREQ(formula, "MaliGPUActiveCy");
  EXPECT_EQ(OpenGpaCounterLibGetCounterFormula(context, 0, nullptr), kGpaStatusErrorNullPointer);
  EXPECT_EQ(OpenGpaCounterLibGetCounterFormula(context, 100000, &formula), kGpaStatusErrorIndexOutOfRange);
}

TEST_P(MaliG1OnEachApiTest, AnySetOfMaliAndApiCountersIsOnePass) {
  // kbase's and panthor's counter interfaces collect every enabled counter of every block at once.
  GpaCounterContext context = Open(GetParam().api, G1(), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(context, nullptr);
  GpaUInt32 count = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetNumCounters(context, &count), kGpaStatusOk);
  std::vector<GpaUInt32> all(count);
  for (GpaUInt32 i = 0; i < count; ++i) all[i] = i;
  GpaUInt32 passes = 0;
  ASSERT_EQ(lib_.GpaCounterLibGetPassCount(context, all.data(), count, &passes), kGpaStatusOk) << Errors();
  EXPECT_EQ(passes, 1u);
}

INSTANTIATE_TEST_SUITE_P(Apis, MaliG1OnEachApiTest,
                         ::testing::Values(ApiCase{kGpaApiVulkan, "Vulkan"}, ApiCase{kGpaApiOpengl, "OpenGL"},
                                           ApiCase{kGpaApiOpencl, "OpenCL"}),
                         [](const ::testing::TestParamInfo<ApiCase>& info) { return info.param.name; });

// ---- One case per family, worked out by hand from the reference's definitions (configuration: 12 shader cores,
// ---- 4 L2 slices, 32 bytes per bus beat) ----

class MaliG1HandComputedTest : public MaliG1ContextTest {
 protected:
  void SetUp() override {
    MaliG1ContextTest::SetUp();
    context_ = Open(kGpaApiVulkan, G1(), kGpaOpenContextEnableHardwareCountersBit);
    ASSERT_NE(context_, nullptr);
  }
  double Compute(const std::string& name, const std::map<std::string, double>& values) {
    return MaliG1ContextTest::Compute(context_, name, values);
  }
  GpaCounterContext context_ = nullptr;
};

TEST_F(MaliG1HandComputedTest, QueueActiveCyclesAndUtilization) {
  // "Compute queue active": queued cycles less the cycles the queue waited for an endpoint: 800 - 200 = 600.
  EXPECT_DOUBLE_EQ(Compute("MaliCompQueueActiveCy", {{"MaliCompQueuedCy", 800}, {"MaliCompQueueAssignStallCy", 200}}),
                   600.0);
  // "Compute queue utilization": those 600 cycles of 1000 GPU active cycles = 60 %.
  EXPECT_DOUBLE_EQ(Compute("MaliCompQueueUtil",
                           {{"MaliCompQueuedCy", 800}, {"MaliCompQueueAssignStallCy", 200}, {"MaliGPUActiveCy", 1000}}),
                   60.0);
  // Clamped to 0..100: 3000 queued cycles in 1000 active reads 100 %, more stalls than queued cycles 0 %, and an
  // idle GPU (0 active cycles) 0 %, not a division by zero.
  EXPECT_DOUBLE_EQ(Compute("MaliCompQueueUtil",
                           {{"MaliCompQueuedCy", 3000}, {"MaliCompQueueAssignStallCy", 0}, {"MaliGPUActiveCy", 1000}}),
                   100.0);
  EXPECT_DOUBLE_EQ(Compute("MaliCompQueueUtil",
                           {{"MaliCompQueuedCy", 100}, {"MaliCompQueueAssignStallCy", 150}, {"MaliGPUActiveCy", 1000}}),
                   0.0);
  EXPECT_DOUBLE_EQ(Compute("MaliCompQueueUtil",
                           {{"MaliCompQueuedCy", 10}, {"MaliCompQueueAssignStallCy", 0}, {"MaliGPUActiveCy", 0}}),
                   0.0);
  // "Tiler utilization": 250 tiler active cycles of 1000 = 25 %.
  EXPECT_DOUBLE_EQ(Compute("MaliTilerUtil", {{"MaliTilerActiveCy", 250}, {"MaliGPUActiveCy", 1000}}), 25.0);
}

TEST_F(MaliG1HandComputedTest, ExternalBusBytesAndBandwidthUseTheBusWidthAndTheSamplesTimeSpan) {
  // Bytes: 1000 read beats of 32 bytes (the configured bus) = 32000 bytes.
  EXPECT_DOUBLE_EQ(Compute("MaliExtBusRdBy", {{"MaliExtBusRdBt", 1000}}), 32000.0);
  // Bandwidth: 500 write beats x 32 bytes = 16000 bytes in a 0.25 s sample = 64000 bytes per second.
  EXPECT_DOUBLE_EQ(Compute("MaliExtBusWrBPS", {{"MaliExtBusWrBt", 500}, {"MALI_CONFIG_TIME_SPAN", 0.25}}), 64000.0);
}

TEST_F(MaliG1HandComputedTest, ExternalBusStallRatesArePerL2Slice) {
  // "Read stall rate": 600 stall cycles summed over 4 L2 slices = 150 per slice, of 1000 GPU active cycles = 15 %.
  EXPECT_DOUBLE_EQ(Compute("MaliExtBusRdStallRate", {{"MaliExtBusRdStallCy", 600}, {"MaliGPUActiveCy", 1000}}), 15.0);
}

TEST_F(MaliG1HandComputedTest, HistogramRemaindersAreTheTotalLessTheCountedBins) {
  // "384+ cycles": 1000 read beats less those returned in 0-127 (100), 128-191 (200), 192-255 (300), 256-319 (150)
  // and 320-383 (50) cycles = 200.
  EXPECT_DOUBLE_EQ(Compute("MaliExtBusRdLat384", {{"MaliExtBusRdBt", 1000},
                                                  {"MaliExtBusRdLat0", 100},
                                                  {"MaliExtBusRdLat128", 200},
                                                  {"MaliExtBusRdLat192", 300},
                                                  {"MaliExtBusRdLat256", 150},
                                                  {"MaliExtBusRdLat320", 50}}),
                   200.0);
  // "75-100% outstanding": 90 read transactions less 40 + 30 + 15 in the lower quarters = 5.
  EXPECT_DOUBLE_EQ(
      Compute("MaliExtBusRdOTQ4",
              {{"MaliExtBusRd", 90}, {"MaliExtBusRdOTQ1", 40}, {"MaliExtBusRdOTQ2", 30}, {"MaliExtBusRdOTQ3", 15}}),
      5.0);
}

TEST_F(MaliG1HandComputedTest, PrimitiveTotalsAndCullingRates) {
  const std::map<std::string, double> primitives{{"MaliGeomFaceCullPrim", 300},
                                                 {"MaliGeomPlaneCullPrim", 100},
                                                 {"MaliGeomSampleCullPrim", 50},
                                                 {"MaliGeomScissorCullPrim", 50},
                                                 {"MaliGeomVisiblePrim", 500}};
  // Input primitives: every culled one (300 + 100 + 50 + 50) and the 500 visible = 1000.
  EXPECT_DOUBLE_EQ(Compute("MaliGeomTotalPrim", primitives), 1000.0);
  EXPECT_DOUBLE_EQ(Compute("MaliGeomVisibleRate", primitives), 50.0);  // 500 of 1000
  // "Facing culled primitive rate" counts only primitives that reached the facing test: 1000 less the 100 frustum
  // and 50 scissor culled = 850, of which 300 were culled: 35.29... %.
  EXPECT_DOUBLE_EQ(Compute("MaliGeomFaceCullRate", primitives), 300.0 / 850.0 * 100.0);
}

TEST_F(MaliG1HandComputedTest, PerPrimitiveAndPerPixelRatios) {
  // Position threads per input primitive: 100 tasks of 16 threads = 1600 threads for 800 primitives = 2.
  EXPECT_DOUBLE_EQ(Compute("MaliGeomPosShadThreadPerPrim", {{"MaliGeomPosShadTask", 100},
                                                            {"MaliGeomFaceCullPrim", 200},
                                                            {"MaliGeomPlaneCullPrim", 100},
                                                            {"MaliGeomSampleCullPrim", 0},
                                                            {"MaliGeomScissorCullPrim", 0},
                                                            {"MaliGeomVisiblePrim", 500}}),
                   2.0);
  // Pixels: each main phase task is a 64 x 64 region: 5 tasks = 20480 pixels; 81920 GPU cycles / 20480 = 4 per pixel.
  EXPECT_DOUBLE_EQ(Compute("MaliGPUPix", {{"MaliMainQueueTask", 5}}), 20480.0);
  EXPECT_DOUBLE_EQ(Compute("MaliGPUCyPerPix", {{"MaliGPUActiveCy", 81920}, {"MaliMainQueueTask", 5}}), 4.0);
  // Overdraw: 20480 fragment threads over 2 tasks' 8192 pixels = 2.5 fragments per pixel.
  EXPECT_DOUBLE_EQ(Compute("MaliFragOverdraw", {{"MaliFragThread", 20480}, {"MaliMainQueueTask", 2}}), 2.5);
  // Tile write bytes per pixel: 1024 beats of 16 bytes (the shader core bus) = 16384 bytes over 4096 pixels = 4.
  EXPECT_DOUBLE_EQ(Compute("MaliSCBusTileWrBPerPx", {{"MaliSCBusTileWrBt", 1024}, {"MaliMainQueueTask", 1}}), 4.0);
}

TEST_F(MaliG1HandComputedTest, ShaderCoreUtilizations) {
  // "Shader core clock ratio": 9000 active cycles summed over 12 cores = 750 per core, of 1000 GPU cycles = 75 %.
  EXPECT_DOUBLE_EQ(Compute("MaliAnyUtil", {{"MaliAnyActiveCy", 9000}, {"MaliGPUActiveCy", 1000}}), 75.0);
  // "Execution core utilization": 400 execution core cycles of 500 shader core active cycles = 80 %.
  EXPECT_DOUBLE_EQ(Compute("MaliCoreUtil", {{"MaliCoreActiveCy", 400}, {"MaliAnyActiveCy", 500}}), 80.0);
  // "Arithmetic unit utilization": the busiest of slot 0 (300 FMA + 100 CVT + 50 SFU - 120 slot 1 = 330), slot 1
  // (120) and the SFU (50 x 4 = 200) = 330 of 1000 execution core cycles = 33 %.
  EXPECT_DOUBLE_EQ(Compute("MaliALUUtil", {{"MaliEngFMAInstr", 300},
                                           {"MaliEngCVTInstr", 100},
                                           {"MaliEngSFUInstr", 50},
                                           {"MaliEngSlot1IssueCy", 120},
                                           {"MaliCoreActiveCy", 1000}}),
                   33.0);
  // "FMA pipe utilization": 2 FMA pipes, so 600 instructions in 1000 cycles = 30 %.
  EXPECT_DOUBLE_EQ(Compute("MaliEngFMAPipeUtil", {{"MaliEngFMAInstr", 600}, {"MaliCoreActiveCy", 1000}}), 30.0);
  // "Varying unit utilization": 4 slots per cycle: (800 + 400) slots / 4 = 300 cycles of 1000 = 30 %.
  EXPECT_DOUBLE_EQ(
      Compute("MaliVarUtil", {{"MaliVar32IssueSlot", 800}, {"MaliVar16IssueSlot", 400}, {"MaliCoreActiveCy", 1000}}),
      30.0);
}

TEST_F(MaliG1HandComputedTest, WarpsThreadsAndQuads) {
  // 16 threads per warp: 50 non-fragment warps = 800 threads; 30 fragment warps of which 10 prepass = 320 main
  // pass threads.
  EXPECT_DOUBLE_EQ(Compute("MaliNonFragThread", {{"MaliNonFragWarp", 50}}), 800.0);
  EXPECT_DOUBLE_EQ(Compute("MaliFragMainThread", {{"MaliFragWarp", 30}, {"MaliFragPrepassWarp", 10}}), 320.0);
  // Texture quads: 40 output messages carry 2 quads each, less the 6 that carried one = 74.
  EXPECT_DOUBLE_EQ(Compute("MaliTexQuads", {{"MaliTexOutMsg", 40}, {"MaliTexOutSingleMsg", 6}}), 74.0);
  // Fragment warp occupancy: 240 fragment threads in 20 warps of 16 lanes (320) = 75 %.
  EXPECT_DOUBLE_EQ(Compute("MaliCoreFragWarpOcc", {{"MaliFragThread", 240}, {"MaliFragWarp", 20}}), 75.0);
}

TEST_F(MaliG1HandComputedTest, BytesPerAccessAndCacheMissRates) {
  // Load/store L2 read bytes per read: 500 beats x 16 bytes = 8000 bytes over 300 full + 100 partial reads = 20.
  EXPECT_DOUBLE_EQ(
      Compute("MaliSCBusLSL2RdByPerRd", {{"MaliSCBusLSL2RdBt", 500}, {"MaliLSFullRd", 300}, {"MaliLSPartRd", 100}}),
      20.0);
  // "Read miss rate": 250 external reads of 1000 L2 read lookups = 25 %.
  EXPECT_DOUBLE_EQ(Compute("MaliL2CacheRdMissRate", {{"MaliExtBusRd", 250}, {"MaliL2CacheRdLookup", 1000}}), 25.0);
  // Texture CPI: the busiest texture stage (filtering: 900 cycles) over 4 samples per quad of (2 x 60 - 10 = 110)
  // quads = 440 samples: 2.045... cycles per sample.
  EXPECT_DOUBLE_EQ(Compute("MaliTexCPI", {{"MaliTexFiltIssueCy", 900},
                                          {"MaliTexCacheLookupCy", 100},
                                          {"MaliTexCacheSimpleLoadCy", 100},
                                          {"MaliTexCacheComplexLoadCy", 100},
                                          {"MaliTexInBt", 100},
                                          {"MaliTexOutBt", 100},
                                          {"MaliTexL1CacheOutputCy", 100},
                                          {"MaliTexL1CacheLookupCy", 100},
                                          {"MaliTexIndexCy", 100},
                                          {"MaliTexOutMsg", 60},
                                          {"MaliTexOutSingleMsg", 10}}),
                   900.0 / 440.0);
}

TEST_F(MaliG1HandComputedTest, ConstantsNeedNoValuesAndFollowTheConfiguration) {
  // Configuration constants are the attributes given; static ones are the reference's literals. They read no
  // hardware counter, so the result set is empty (and may be NULL).
  EXPECT_DOUBLE_EQ(Compute("MaliConfigCoreCount", {}), 12.0);
  EXPECT_DOUBLE_EQ(Compute("MaliConfigL2CacheCount", {}), 4.0);
  EXPECT_DOUBLE_EQ(Compute("MaliConfigExtBusBeatSize", {}), 32.0);
  EXPECT_DOUBLE_EQ(Compute("MaliGPUWarpSize", {}), 16.0);
  EXPECT_DOUBLE_EQ(Compute("MaliMainQueueTaskSize", {}), 64.0);
  // Without attributes: the documented defaults, 1 core, 1 slice, 16 bytes per beat.
  GpaCounterContext defaults =
      Open(kGpaApiVulkan, Device(kArm, kMaliG1Ultra), kGpaOpenContextEnableHardwareCountersBit);
  ASSERT_NE(defaults, nullptr);
  EXPECT_DOUBLE_EQ(MaliG1ContextTest::Compute(defaults, "MaliConfigCoreCount", {}), 1.0);
  EXPECT_DOUBLE_EQ(MaliG1ContextTest::Compute(defaults, "MaliConfigL2CacheCount", {}), 1.0);
  EXPECT_DOUBLE_EQ(MaliG1ContextTest::Compute(defaults, "MaliExtBusRdBy", {{"MaliExtBusRdBt", 10}}), 160.0);
}

// ---- Which ids open the Mali counters, and refusals ----

std::vector<std::string> MaliNames(const std::vector<std::string>& names) {
  std::vector<std::string> mali;
  for (const std::string& name : names) {
    if (name.rfind("Mali", 0) == 0) mali.push_back(name);
  }
  return mali;
}

TEST_F(MaliG1ContextTest, TheG1sThreeProductsInEitherIdFormHaveTheCounters) {
  // The 16-bit product id (kbase, panfrost, libGPUCounters) and the 32-bit GPU_ID register value a Vulkan driver
  // reports as deviceID (product id above, revision r1p0 below).
  for (GpaUInt32 id : {0xE800u, 0xE801u, 0xE803u, 0xE8001000u, 0xE8031000u}) {
    GpaCounterContext context = Open(kGpaApiVulkan, G1(id));
    ASSERT_NE(context, nullptr);
    EXPECT_EQ(MaliNames(Names(context)).size(), 124u) << std::hex << id;
  }
}

TEST_F(MaliG1ContextTest, OtherArmGpusAndOtherVendorsGetTheApisCatalogOnly) {
  ASSERT_EQ(OpenGpaCounterLibRegisterLoggingCallback(kGpaLoggingErrorAndMessage, &Capture), kGpaStatusOk);
  // A Mali-G725 (arch 13), the G1's unused product major 2, and the G1's id under NVIDIA's vendor id.
  const std::vector<std::string> api_only = Names(Open(kGpaApiVulkan, Device(0x1002, 0x744C)));
  for (const GpaCounterContextHardwareInfo& info :
       {Device(kArm, 0xD800), Device(kArm, 0xE802), Device(0x10DE, 0xE800)}) {
    ClearErrors();
    GpaCounterContext context = Open(kGpaApiVulkan, info);
    ASSERT_NE(context, nullptr);
    EXPECT_EQ(Names(context), api_only);
  }
  ClearErrors();
  Open(kGpaApiOpengl, Device(kArm, 0xD800));
  EXPECT_THAT(Errors(), ::testing::HasSubstr("Arm device_id 0xD800 is no Mali G1"));
}

TEST_F(MaliG1ContextTest, AZeroConfigurationValueIsRefusedAndNamed) {
  GpaHardwareAttribute zero_slices[] = {{kGpaHardwareAttributeL2SliceCount, 0}};
  GpaCounterContextHardwareInfo info = Device(kArm, kMaliG1Ultra);
  info.gpa_hardware_attributes = zero_slices;
  info.gpa_hardware_attribute_count = 1;
  GpaCounterContext context = nullptr;
  EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(kGpaApiVulkan, info, kGpaOpenContextDefaultBit, 1, &context),
            kGpaStatusErrorInvalidParameter);
  EXPECT_EQ(context, nullptr);
  EXPECT_THAT(Errors(), ::testing::HasSubstr("gpa_hardware_attributes[0]: kGpaHardwareAttributeL2SliceCount is 0"));
}

TEST_F(MaliG1ContextTest, CudaIsRefusedForArmsVendorId) {
  GpaCounterContext context = nullptr;
  EXPECT_EQ(lib_.GpaCounterLibOpenCounterContext(kGpaApiCuda, G1(), kGpaOpenContextDefaultBit, 1, &context),
            kGpaStatusErrorHardwareNotSupported);
  EXPECT_THAT(Errors(), ::testing::HasSubstr("CUDA needs vendor_id 0x10DE (NVIDIA), not 0x13B5"));
}

TEST_F(MaliG1ContextTest, AnEmptyResultSetIsRefusedForACounterThatReadsHardwareCounters) {
  GpaCounterContext context = Open(kGpaApiVulkan, G1());
  ASSERT_NE(context, nullptr);
  double result = 0;
  EXPECT_EQ(
      lib_.GpaCounterLibComputeDerivedCounterResult(context, IndexOf(context, "MaliTilerUtil"), nullptr, 0, &result),
      kGpaStatusErrorInvalidParameter);
  EXPECT_THAT(Errors(), ::testing::HasSubstr("gpa_hw_counter_result_count is 0"));
  // A constant needs no values but still an output.
  EXPECT_EQ(
      lib_.GpaCounterLibComputeDerivedCounterResult(context, IndexOf(context, "MaliGPUTileSize"), nullptr, 0, nullptr),
      kGpaStatusErrorNullPointer);
  EXPECT_EQ(
      lib_.GpaCounterLibComputeDerivedCounterResult(context, IndexOf(context, "MaliGPUTileSize"), nullptr, 0, &result),
      kGpaStatusOk);
  EXPECT_DOUBLE_EQ(result, 32.0);
}

}  // namespace
}  // namespace opengpa::testing
