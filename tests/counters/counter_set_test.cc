#include "counters/counter_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "platform/logging.h"

namespace opengpa {
namespace {

std::vector<std::string>& LoggedMessages() {
  static std::vector<std::string> messages;
  return messages;
}

void CaptureLog(GpaLoggingType, const char* message) { LoggedMessages().emplace_back(message); }

// Captures kGpaLoggingDebugCounterDefinitions messages for the lifetime of the fixture.
class CounterSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    LoggedMessages().clear();
    SetLoggingCallback(kGpaLoggingDebugCounterDefinitions, CaptureLog);
  }
  void TearDown() override { SetLoggingCallback(kGpaLoggingNone, nullptr); }

  static std::vector<HardwareCounterInfo> Hardware() {
    return {
        {"start", "Timing", "start timestamp", kGpaDataTypeUint64, kGpaUsageTypeNanoseconds},
        {"end", "Timing", "end timestamp", kGpaDataTypeUint64, kGpaUsageTypeNanoseconds},
        {"busy_cycles", "GPU", "busy cycles", kGpaDataTypeUint64, kGpaUsageTypeCycles},
        {"total_cycles", "GPU", "all cycles", kGpaDataTypeUint64, kGpaUsageTypeCycles},
    };
  }

  static bool LogContains(const std::string& text) {
    for (const std::string& message : LoggedMessages()) {
      if (message.find(text) != std::string::npos) return true;
    }
    return false;
  }
};

std::string Counter(const std::string& name, const std::string& formula, const std::string& usage = "ratio") {
  return R"({"name": ")" + name + R"(", "group": "G", "description": "about )" + name +
         R"(", "type": "float64", "usage": ")" + usage + R"(", "formula": ")" + formula + R"("})";
}

std::string CatalogOf(const std::vector<std::string>& counters, const std::string& constants = "{}") {
  std::string json = R"({"constants": )" + constants + R"(, "counters": [)";
  for (std::size_t i = 0; i < counters.size(); ++i) json += (i ? ", " : "") + counters[i];
  return json + "]}";
}

std::vector<std::string> Names(const CounterSet& set) {
  std::vector<std::string> names;
  for (std::uint32_t i = 0; i < set.size(); ++i) names.push_back(set.at(i).name);
  return names;
}

std::string UuidText(const GpaUuid& uuid) {
  char text[40];
  std::snprintf(text, sizeof(text), "%08lx-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", uuid.data_1, uuid.data_2,
                uuid.data_3, uuid.data_4[0], uuid.data_4[1], uuid.data_4[2], uuid.data_4[3], uuid.data_4[4],
                uuid.data_4[5], uuid.data_4[6], uuid.data_4[7]);
  return text;
}

TEST_F(CounterSetTest, DerivedCountersComeFirstInCatalogOrderThenHardware) {
  const std::string catalog = CatalogOf({Counter("GPUTime", "end - start", "nanoseconds"),
                                         Counter("GPUBusy", "max(min(busy_cycles / total_cycles * 100, 100), 0)")});
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(Hardware(), {catalog}, {}, true, &set, &error)) << error;
  EXPECT_EQ(Names(set),
            (std::vector<std::string>{"GPUTime", "GPUBusy", "start", "end", "busy_cycles", "total_cycles"}));
  EXPECT_FALSE(set.at(0).is_hardware);
  EXPECT_EQ(set.at(0).usage, kGpaUsageTypeNanoseconds);
  EXPECT_EQ(set.at(0).description, "about GPUTime");
  EXPECT_TRUE(set.at(2).is_hardware);
  EXPECT_EQ(set.at(2).group, "Timing");
  EXPECT_EQ(set.at(2).description, "start timestamp");
  EXPECT_EQ(set.at(2).data_type, kGpaDataTypeUint64);
  EXPECT_EQ(set.at(4).usage, kGpaUsageTypeCycles);
}

TEST_F(CounterSetTest, WithoutHardwareOnlyDerivedCountersAreExposed) {
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(Hardware(), {CatalogOf({Counter("GPUTime", "end - start")})}, {}, false, &set, &error));
  EXPECT_EQ(Names(set), (std::vector<std::string>{"GPUTime"}));
}

TEST_F(CounterSetTest, FormulasReadHardwareCountersByIndex) {
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(Hardware(), {CatalogOf({Counter("GPUBusy", "busy_cycles / total_cycles * 100")})}, {},
                                true, &set, &error))
      << error;
  const double raw[] = {1000, 1500, 30, 120};  // start, end, busy, total
  EXPECT_DOUBLE_EQ(set.at(0).formula.Evaluate(raw), 25.0);
  EXPECT_EQ(set.at(0).formula.Inputs(), (std::vector<std::uint32_t>{2, 3}));
  // A hardware counter exposed as itself reads its own value.
  const auto end = set.Find("end");
  ASSERT_TRUE(end.has_value());
  EXPECT_DOUBLE_EQ(set.at(*end).formula.Evaluate(raw), 1500.0);
}

TEST_F(CounterSetTest, CounterNamingAnAbsentHardwareCounterIsHiddenAndLogged) {
  const std::string catalog = CatalogOf(
      {Counter("DramBytes", "dram__bytes_read.sum + dram__bytes_write.sum"), Counter("GPUTime", "end - start")});
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(Hardware(), {catalog}, {}, false, &set, &error)) << error;
  EXPECT_EQ(Names(set), (std::vector<std::string>{"GPUTime"}));
  EXPECT_FALSE(set.Find("DramBytes").has_value());
  EXPECT_TRUE(
      LogContains("counter \"DramBytes\" is hidden: its formula names dram__bytes_read.sum, "
                  "dram__bytes_write.sum which this device lacks"));
}

TEST_F(CounterSetTest, MalformedFormulaIsAnErrorEvenWhenItAlsoNamesAnAbsentCounter) {
  CounterSet set;
  std::string error;
  EXPECT_FALSE(
      CounterSet::Build(Hardware(), {CatalogOf({Counter("Bad", "missing_counter + ")})}, {}, false, &set, &error));
  EXPECT_EQ(error,
            "catalog 0, counters[0] (\"Bad\"): formula \"missing_counter + \": column 19: expected a number, "
            "a name, '-' or '(', found the end of the formula");
}

TEST_F(CounterSetTest, MalformedCatalogIsAnErrorNamingTheCatalog) {
  CounterSet set;
  std::string error;
  EXPECT_FALSE(CounterSet::Build(Hardware(), {CatalogOf({}), R"({"counters": 3})"}, {}, false, &set, &error));
  EXPECT_EQ(error, "catalog 1: catalog: \"counters\" must be an array, found number");
}

TEST_F(CounterSetTest, NamesResolveToHardwareThenCatalogConstantsThenBackendConstants) {
  // "start" is both a hardware counter and a constant: the hardware counter wins.
  // "WIDTH" is a catalog and a backend constant: the catalog's value wins.
  const std::string catalog =
      CatalogOf({Counter("UsesStart", "start"), Counter("UsesWidth", "WIDTH"), Counter("UsesSmCount", "SM_COUNT")},
                R"({"start": 5, "WIDTH": 4})");
  CounterSet set;
  std::string error;
  ASSERT_TRUE(
      CounterSet::Build(Hardware(), {catalog}, {{"WIDTH", 8}, {"SM_COUNT", 132}, {"start", 6}}, false, &set, &error))
      << error;
  const double raw[] = {1000, 0, 0, 0};
  EXPECT_DOUBLE_EQ(set.at(0).formula.Evaluate(raw), 1000.0);
  EXPECT_DOUBLE_EQ(set.at(1).formula.Evaluate(raw), 4.0);
  EXPECT_DOUBLE_EQ(set.at(2).formula.Evaluate(raw), 132.0);
  EXPECT_TRUE(set.at(1).formula.Inputs().empty());
}

TEST_F(CounterSetTest, CatalogConstantsOnlyApplyToTheirOwnCatalog) {
  const std::string first = CatalogOf({Counter("A", "K")}, R"({"K": 1})");
  const std::string second = CatalogOf({Counter("B", "K")});
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(Hardware(), {first, second}, {}, false, &set, &error)) << error;
  EXPECT_EQ(Names(set), (std::vector<std::string>{"A"}));
}

TEST_F(CounterSetTest, FirstCounterOfANameWinsAndTheDuplicateIsLogged) {
  const std::string first = CatalogOf({Counter("GPUTime", "end - start")});
  const std::string second = CatalogOf({Counter("gputime", "start"), Counter("end", "start * 2")});
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(Hardware(), {first, second}, {}, true, &set, &error)) << error;
  // "end" from the catalog comes before the hardware "end", which is therefore not exposed again.
  EXPECT_EQ(Names(set), (std::vector<std::string>{"GPUTime", "end", "start", "busy_cycles", "total_cycles"}));
  EXPECT_FALSE(set.at(1).is_hardware);
  EXPECT_TRUE(LogContains("counter \"gputime\" (derived) is not exposed: \"GPUTime\" (index 0) already has that name"));
  EXPECT_TRUE(LogContains("counter \"end\" (hardware) is not exposed: \"end\" (index 1) already has that name"));
}

TEST_F(CounterSetTest, AHiddenDefinitionLetsALaterOneOfTheSameNameStand) {
  // The fallback pattern: the preferred formula first, a coarser one for devices that lack its inputs.
  const std::string catalog = CatalogOf(
      {Counter("GPUBusy", "sm__cycles_active.avg / total_cycles"), Counter("GPUBusy", "busy_cycles / total_cycles")});
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(Hardware(), {catalog}, {}, false, &set, &error)) << error;
  ASSERT_EQ(set.size(), 1u);
  EXPECT_EQ(set.at(0).formula.Text(), "busy_cycles / total_cycles");
}

TEST_F(CounterSetTest, FindIgnoresCase) {
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(Hardware(), {CatalogOf({Counter("GPUTime", "end - start")})}, {}, true, &set, &error));
  EXPECT_EQ(set.Find("GPUTime"), std::optional<std::uint32_t>(0));
  EXPECT_EQ(set.Find("gputime"), std::optional<std::uint32_t>(0));
  EXPECT_EQ(set.Find("GPUTIME"), std::optional<std::uint32_t>(0));
  EXPECT_EQ(set.Find("BUSY_CYCLES"), std::optional<std::uint32_t>(3));
  EXPECT_FALSE(set.Find("GPUTim").has_value());
  EXPECT_FALSE(set.Find("").has_value());
}

TEST_F(CounterSetTest, UuidsAreNameBasedVersion5AndStableAcrossBuilds) {
  const std::string catalog = CatalogOf({Counter("GPUTime", "end - start"), Counter("VSBusy", "busy_cycles")});
  CounterSet first;
  CounterSet second;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(Hardware(), {catalog}, {}, true, &first, &error)) << error;
  // A different hardware list and order must not change a counter's UUID.
  std::vector<HardwareCounterInfo> reversed = Hardware();
  std::reverse(reversed.begin(), reversed.end());
  ASSERT_TRUE(CounterSet::Build(reversed, {catalog}, {}, true, &second, &error)) << error;
  for (const char* name : {"GPUTime", "VSBusy", "start", "total_cycles"}) {
    EXPECT_EQ(UuidText(first.at(*first.Find(name)).uuid), UuidText(second.at(*second.Find(name)).uuid)) << name;
  }
  // Independent ground truth: Python's uuid.uuid5(uuid.NAMESPACE_URL, "opengpa:GPUTime").
  EXPECT_EQ(UuidText(first.at(0).uuid), "4e64e1e0-70bf-5696-af38-70e1eafa4bb3");
  EXPECT_EQ(UuidText(first.at(1).uuid), "6398a2b1-0eef-59d3-8377-43708af9aeb7");
  EXPECT_NE(UuidText(first.at(0).uuid), UuidText(first.at(1).uuid));
}

TEST_F(CounterSetTest, HardwareNeededIsTheSortedUnionOfInputs) {
  const std::string catalog =
      CatalogOf({Counter("GPUTime", "end - start"), Counter("Busy", "busy_cycles / total_cycles"),
                 Counter("Mixed", "total_cycles + end")});
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(Hardware(), {catalog}, {}, true, &set, &error)) << error;
  EXPECT_EQ(set.HardwareNeeded({2, 0}), (std::vector<HardwareCounterIndex>{0, 1, 3}));
  EXPECT_EQ(set.HardwareNeeded({1, 2, 0}), (std::vector<HardwareCounterIndex>{0, 1, 2, 3}));
  EXPECT_EQ(set.HardwareNeeded({*set.Find("busy_cycles")}), (std::vector<HardwareCounterIndex>{2}));
  EXPECT_TRUE(set.HardwareNeeded({}).empty());
  EXPECT_EQ(set.HardwareNeeded({0, 999}), (std::vector<HardwareCounterIndex>{0, 1}));
}

TEST_F(CounterSetTest, HardwareNamesThatAreNotFormulaNamesAreStillExposed) {
  std::vector<HardwareCounterInfo> hardware = {
      {"Vertex Shader Invocations", "Pipeline", "VS invocations", kGpaDataTypeUint64, kGpaUsageTypeItems}};
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build(hardware, {}, {}, true, &set, &error)) << error;
  ASSERT_EQ(set.size(), 1u);
  EXPECT_EQ(set.Find("vertex shader invocations"), std::optional<std::uint32_t>(0));
  const double raw[] = {77};
  EXPECT_DOUBLE_EQ(set.at(0).formula.Evaluate(raw), 77.0);
}

TEST_F(CounterSetTest, EmptyInputsGiveAnEmptySet) {
  CounterSet set;
  std::string error;
  ASSERT_TRUE(CounterSet::Build({}, {}, {}, true, &set, &error)) << error;
  EXPECT_EQ(set.size(), 0u);
}

}  // namespace
}  // namespace opengpa
