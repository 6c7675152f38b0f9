#include "counters/catalog.h"

#include <gtest/gtest.h>

#include <string>

namespace opengpa {
namespace {

std::string CatalogError(const std::string& json) {
  Catalog catalog;
  std::string error;
  EXPECT_FALSE(ParseCatalog(json, &catalog, &error)) << json;
  return error;
}

// A valid counter entry with one field replaced (or removed when `value` is empty).
std::string CounterWith(const std::string& field, const std::string& value) {
  const std::pair<const char*, const char*> fields[] = {
      {"name", R"("GPUBusy")"}, {"group", R"("Timing")"},     {"description", R"("Busy %")"},
      {"type", R"("float64")"}, {"usage", R"("percentage")"}, {"formula", R"("a / b * 100")"}};
  std::string entry = "{";
  for (const auto& [name, default_value] : fields) {
    const std::string text = field == name ? value : default_value;
    if (text.empty()) continue;
    if (entry.size() > 1) entry += ", ";
    entry += "\"" + std::string(name) + "\": " + text;
  }
  return R"({"counters": [)" + entry + "}]}";
}

TEST(CatalogTest, ParsesConstantsAndCountersWithEveryField) {
  const char* json = R"({
    "constants": {"SM_COUNT": 132, "BUS_BYTES": 32.5},
    "counters": [
      {"name": "GPUTime", "group": "Timing", "description": "Time spent", "type": "float64",
       "usage": "nanoseconds", "formula": "end - start"},
      {"name": "Vertices", "group": "Geometry", "description": "Vertices in", "type": "uint64",
       "usage": "items", "formula": "ia_vertices", "comment": "why this formula"}
    ]})";
  Catalog catalog;
  std::string error;
  ASSERT_TRUE(ParseCatalog(json, &catalog, &error)) << error;
  ASSERT_EQ(catalog.constants.size(), 2u);
  EXPECT_EQ(catalog.constants[0], (std::pair<std::string, double>("BUS_BYTES", 32.5)));
  EXPECT_EQ(catalog.constants[1], (std::pair<std::string, double>("SM_COUNT", 132.0)));
  ASSERT_EQ(catalog.counters.size(), 2u);
  EXPECT_EQ(catalog.counters[0].name, "GPUTime");
  EXPECT_EQ(catalog.counters[0].group, "Timing");
  EXPECT_EQ(catalog.counters[0].description, "Time spent");
  EXPECT_EQ(catalog.counters[0].data_type, kGpaDataTypeFloat64);
  EXPECT_EQ(catalog.counters[0].usage, kGpaUsageTypeNanoseconds);
  EXPECT_EQ(catalog.counters[0].formula, "end - start");
  EXPECT_EQ(catalog.counters[1].data_type, kGpaDataTypeUint64);
  EXPECT_EQ(catalog.counters[1].usage, kGpaUsageTypeItems);
}

TEST(CatalogTest, ConstantsAreOptional) {
  Catalog catalog;
  std::string error;
  ASSERT_TRUE(ParseCatalog(R"({"counters": []})", &catalog, &error)) << error;
  EXPECT_TRUE(catalog.constants.empty());
  EXPECT_TRUE(catalog.counters.empty());
}

TEST(CatalogTest, TypeAndUsageNamesMapToGpaEnums) {
  GpaDataType type{};
  EXPECT_TRUE(ParseDataType("uint64", &type));
  EXPECT_EQ(type, kGpaDataTypeUint64);
  EXPECT_TRUE(ParseDataType("float64", &type));
  EXPECT_EQ(type, kGpaDataTypeFloat64);
  EXPECT_FALSE(ParseDataType("Float64", &type));
  EXPECT_FALSE(ParseDataType("double", &type));

  const std::pair<const char*, GpaUsageType> usages[] = {
      {"ratio", kGpaUsageTypeRatio},         {"percentage", kGpaUsageTypePercentage},
      {"cycles", kGpaUsageTypeCycles},       {"milliseconds", kGpaUsageTypeMilliseconds},
      {"bytes", kGpaUsageTypeBytes},         {"items", kGpaUsageTypeItems},
      {"kilobytes", kGpaUsageTypeKilobytes}, {"nanoseconds", kGpaUsageTypeNanoseconds}};
  for (const auto& [name, expected] : usages) {
    GpaUsageType usage = kGpaUsageTypeLast;
    EXPECT_TRUE(ParseUsageType(name, &usage)) << name;
    EXPECT_EQ(usage, expected) << name;
  }
  GpaUsageType usage{};
  EXPECT_FALSE(ParseUsageType("percent", &usage));
  EXPECT_FALSE(ParseUsageType("", &usage));
}

TEST(CatalogTest, InvalidJsonIsReportedAsSuch) {
  EXPECT_EQ(CatalogError("{\"counters\": [").rfind("catalog is not valid JSON: ", 0), 0u);
}

TEST(CatalogTest, TopLevelShapeIsChecked) {
  EXPECT_EQ(CatalogError("[]"), "catalog must be a JSON object with \"counters\" (and optional \"constants\")");
  EXPECT_EQ(CatalogError("{}"), "catalog: missing field \"counters\"");
  EXPECT_EQ(CatalogError(R"({"counters": {}})"), "catalog: \"counters\" must be an array, found object");
  EXPECT_EQ(CatalogError(R"({"counters": [], "counter": []})"), "catalog: unknown top-level field \"counter\"");
}

TEST(CatalogTest, ConstantsMustBeNamedNumbers) {
  EXPECT_EQ(CatalogError(R"({"constants": [1], "counters": []})"),
            "\"constants\" must be an object of name: number, found [1]");
  EXPECT_EQ(CatalogError(R"({"constants": {"SM": "132"}, "counters": []})"),
            "constants: \"SM\" must be a number, found \"132\"");
  EXPECT_EQ(CatalogError(R"({"constants": {"2SM": 1}, "counters": []})"),
            "constants: \"2SM\" is not a valid name ([A-Za-z_][A-Za-z0-9_.]*)");
}

TEST(CatalogTest, EveryCounterFieldIsRequired) {
  EXPECT_EQ(CatalogError(CounterWith("name", "")), "counters[0]: missing field \"name\"");
  for (const char* field : {"group", "description", "type", "usage", "formula"}) {
    EXPECT_EQ(CatalogError(CounterWith(field, "")),
              std::string("counters[0] (\"GPUBusy\"): missing field \"") + field + "\"");
  }
}

TEST(CatalogTest, CounterFieldsMustBeNonEmptyStrings) {
  EXPECT_EQ(CatalogError(CounterWith("group", "7")),
            "counters[0] (\"GPUBusy\"): field \"group\" must be a string, found 7");
  EXPECT_EQ(CatalogError(CounterWith("formula", R"("")")), "counters[0] (\"GPUBusy\"): field \"formula\" is empty");
  EXPECT_EQ(CatalogError(CounterWith("name", R"("GPU Busy")")),
            "counters[0]: field \"name\": \"GPU Busy\" is not a valid name ([A-Za-z_][A-Za-z0-9_.]*)");
}

TEST(CatalogTest, UnknownTypeAndUsageNamesListTheValidOnes) {
  EXPECT_EQ(CatalogError(CounterWith("type", R"("double")")),
            "counters[0] (\"GPUBusy\"): field \"type\": unknown type \"double\" (expected one of float64, uint64)");
  EXPECT_EQ(CatalogError(CounterWith("usage", R"("percent")")),
            "counters[0] (\"GPUBusy\"): field \"usage\": unknown usage \"percent\" (expected one of ratio, percentage, "
            "cycles, milliseconds, bytes, items, kilobytes, nanoseconds)");
}

TEST(CatalogTest, UnknownCounterFieldsAreRejectedToCatchTypos) {
  EXPECT_EQ(CatalogError(R"({"counters": [{"name": "X", "formla": "a"}]})"), "counters[0]: unknown field \"formla\"");
}

TEST(CatalogTest, ErrorsNameTheIndexOfTheBadEntry) {
  const char* json = R"({"counters": [
      {"name": "A", "group": "G", "description": "d", "type": "uint64", "usage": "items", "formula": "x"},
      "not an object"]})";
  EXPECT_EQ(CatalogError(json), "counters[1]: must be an object, found \"not an object\"");
}

TEST(CatalogTest, ErrorsQuoteSmallValuesWhole) {
  EXPECT_EQ(CatalogError(R"({"counters": [[1, {"a": [true, null]}, "s"]]})"),
            "counters[0]: must be an object, found [1,{\"a\":[true,null]},\"s\"]");
}

TEST(CatalogTest, ErrorsQuoteAtMostThreeLevelsOfADeeplyNestedValue) {
  // 100,000 levels: printing the value whole (recursively) would overflow the stack.
  constexpr int kDepth = 100000;
  const std::string json = "{\"counters\": [" + std::string(kDepth, '[') + std::string(kDepth, ']') + "]}";
  EXPECT_EQ(CatalogError(json), "counters[0]: must be an object, found [[[[...]]]]");
  const std::string constants =
      "{\"constants\": {\"K\": " + std::string(kDepth, '[') + std::string(kDepth, ']') + "}, \"counters\": []}";
  EXPECT_EQ(CatalogError(constants), "constants: \"K\" must be a number, found [[[[...]]]]");
}

TEST(CatalogTest, ErrorsCutLongValuesAndNames) {
  const std::string long_text(100000, 'x');
  std::string error = CatalogError("{\"counters\": [\"" + long_text + "\"]}");
  EXPECT_EQ(error, "counters[0]: must be an object, found \"" + std::string(80, 'x') + "...\"");
  error = CatalogError("{\"counters\": [{\"" + long_text + "\": 1}]}");
  EXPECT_EQ(error, "counters[0]: unknown field \"" + std::string(80, 'x') + "...\"");
  std::string wide = "[";
  for (int i = 0; i < 10000; ++i) wide += "12345,";
  wide += "0]";
  error = CatalogError("{\"counters\": [" + wide + "]}");
  EXPECT_LT(error.size(), 200u) << error;
  EXPECT_NE(error.find("12345,12345"), std::string::npos) << error;
  EXPECT_EQ(error.substr(error.size() - 5), ",...]") << error;
  error = CatalogError("{\"counters\": [\"" + long_text);  // unterminated: the parser's message is cut too
  EXPECT_LT(error.size(), 400u) << error;
}

// A catalog may declare the hardware counters its formulas read (catalogs/README.md: Arm's Mali G1, which no
// backend reads).
TEST(CatalogTest, DeclaredHardwareCountersAreReadWithEveryField) {
  const char* json = R"({
    "hardware_counters": [
      {"name": "MaliGPUActiveCy", "group": "GPU Front-end", "description": "Cycles with work", "type": "uint64",
       "usage": "cycles", "hardware_name": "GPU_ACTIVE", "comment": "why"},
      {"name": "TIME_SPAN", "group": "Constants", "description": "Seconds", "type": "float64", "usage": "ratio"}
    ],
    "counters": []})";
  Catalog catalog;
  std::string error;
  ASSERT_TRUE(ParseCatalog(json, &catalog, &error)) << error;
  ASSERT_EQ(catalog.hardware_counters.size(), 2u);
  const HardwareCounterDefinition& active = catalog.hardware_counters[0];
  EXPECT_EQ(active.name, "MaliGPUActiveCy");
  EXPECT_EQ(active.group, "GPU Front-end");
  EXPECT_EQ(active.description, "Cycles with work");
  EXPECT_EQ(active.data_type, kGpaDataTypeUint64);
  EXPECT_EQ(active.usage, kGpaUsageTypeCycles);
  EXPECT_EQ(active.hardware_name, "GPU_ACTIVE");
  EXPECT_EQ(catalog.hardware_counters[1].data_type, kGpaDataTypeFloat64);
  EXPECT_EQ(catalog.hardware_counters[1].usage, kGpaUsageTypeRatio);
  EXPECT_EQ(catalog.hardware_counters[1].hardware_name, "");
}

TEST(CatalogTest, DeclaredHardwareCountersAreCheckedLikeCounters) {
  EXPECT_EQ(CatalogError(R"({"hardware_counters": {}, "counters": []})"),
            "catalog: \"hardware_counters\" must be an array, found object");
  EXPECT_EQ(CatalogError(R"({"hardware_counters": [{"name": "A", "group": "G", "description": "d", "type": "uint64",
                                                    "usage": "items", "formula": "x"}], "counters": []})"),
            "hardware_counters[0]: unknown field \"formula\"");
  EXPECT_EQ(CatalogError(R"({"hardware_counters": [{"name": "A", "group": "G", "description": "d", "type": "uint64"}],
                             "counters": []})"),
            "hardware_counters[0] (\"A\"): missing field \"usage\"");
  EXPECT_EQ(CatalogError(R"({"hardware_counters": [{"name": "A B", "group": "G", "description": "d", "type": "uint64",
                                                    "usage": "items"}], "counters": []})"),
            "hardware_counters[0]: field \"name\": \"A B\" is not a valid name ([A-Za-z_][A-Za-z0-9_.]*)");
  EXPECT_EQ(CatalogError(R"({"hardware_counters": [{"name": "A", "group": "G", "description": "d", "type": "int",
                                                    "usage": "items"}], "counters": []})"),
            "hardware_counters[0] (\"A\"): field \"type\": unknown type \"int\" (expected one of float64, uint64)");
  EXPECT_EQ(CatalogError(R"({"hardware_counters": [{"name": "A", "group": "G", "description": "d", "type": "uint64",
                                                    "usage": "items", "hardware_name": ""}], "counters": []})"),
            "hardware_counters[0] (\"A\"): field \"hardware_name\" is empty");
}

TEST(CatalogTest, ADeclaredHardwareCounterNameMeansOneInput) {
  EXPECT_EQ(CatalogError(R"({"hardware_counters": [
      {"name": "A", "group": "G", "description": "d", "type": "uint64", "usage": "items"},
      {"name": "B", "group": "G", "description": "d", "type": "uint64", "usage": "items"},
      {"name": "A", "group": "H", "description": "e", "type": "float64", "usage": "ratio"}], "counters": []})"),
            "hardware_counters[2]: \"A\" is already hardware_counters[0]");
}

TEST(CatalogTest, NullOutputIsAnErrorNotACrash) {
  std::string error;
  EXPECT_FALSE(ParseCatalog(R"({"counters": []})", nullptr, &error));
  EXPECT_EQ(error, "ParseCatalog: output is null");
}

}  // namespace
}  // namespace opengpa
