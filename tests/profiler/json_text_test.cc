// JSON text written without a document (src/profiler/json_text.h): what a strict parser reads back.
#include "profiler/json_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace opengpa::profiling {
namespace {

std::string AsJsonString(std::string_view text) {
  std::string out;
  AppendJsonString(&out, text);
  return out;
}

std::string AsJsonNumber(double value) {
  std::string out;
  AppendJsonNumber(&out, value);
  return out;
}

TEST(JsonTextTest, StringsReadBackAsWrittenWithQuotesBackslashesAndControlCharactersEscaped) {
  const std::string text = "void k<\"a\\b\">(int)\n\t\x01\x7f end";
  const std::string written = AsJsonString(text);
  EXPECT_EQ(nlohmann::json::parse(written).get<std::string>(), text) << written;
  EXPECT_EQ(AsJsonString(""), "\"\"");
}

TEST(JsonTextTest, WellFormedUtf8IsKeptAndEveryStrayByteBecomesOneReplacementCharacter) {
  const std::string kept = "µs \xe2\x86\x92 \xf0\x9f\x9a\x80";  // 2-, 3- and 4-byte sequences
  EXPECT_EQ(nlohmann::json::parse(AsJsonString(kept)).get<std::string>(), kept);
  // A lone continuation byte, a truncated sequence at the end, an overlong '/', a surrogate and a lead past U+10FFFF.
  const std::string stray =
      "a\x80"
      "b\xc0\xaf"
      "c\xed\xa0\x80"
      "d\xf5\x80"
      "e\xe2\x86";
  const std::string read = nlohmann::json::parse(AsJsonString(stray)).get<std::string>();
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(read, "a" + r + "b" + r + r + "c" + r + r + r + "d" + r + r + "e" + r + r);
}

TEST(JsonTextTest, NumbersReadBackAsTheSameDoubleAndNonFiniteOnesAreNull) {
  for (double value : {0.0, 2000.0, 0.25, 1234.567, 1.5e20, 3e-9, -7.125, 1.0 / 3.0, 123456789012345.0}) {
    const std::string written = AsJsonNumber(value);
    EXPECT_EQ(nlohmann::json::parse(written).get<double>(), value) << written;
  }
  EXPECT_EQ(AsJsonNumber(2000.0), "2000");
  EXPECT_EQ(AsJsonNumber(-0.0), "0");
  EXPECT_EQ(AsJsonNumber(std::numeric_limits<double>::quiet_NaN()), "null");
  EXPECT_EQ(AsJsonNumber(-std::numeric_limits<double>::infinity()), "null");
}

}  // namespace
}  // namespace opengpa::profiling
