// The strict parser must reject what Prometheus or OpenMetrics would, or the format tests prove nothing.
#include "exposition_parser.h"

#include <gtest/gtest.h>

namespace opengpa::monitor::testing {
namespace {

constexpr const char* kValidOpenMetrics =
    "# HELP opengpa_power_watts Power draw [W]\n"
    "# TYPE opengpa_power_watts gauge\n"
    "opengpa_power_watts{gpu=\"0\",name=\"a \\\"b\\\" \\\\ c\"} 71.5\n"
    "# HELP opengpa_energy_joules Energy\n"
    "# TYPE opengpa_energy_joules counter\n"
    "opengpa_energy_joules_total{gpu=\"0\"} 12\n"
    "# EOF\n";

TEST(ExpositionParser, AcceptsValidOpenMetricsAndUnescapesLabels) {
  ParsedExposition parsed;
  std::string error;
  ASSERT_TRUE(ParseOpenMetrics(kValidOpenMetrics, &parsed, &error)) << error;
  ASSERT_EQ(parsed.families.size(), 2u);
  EXPECT_EQ(parsed.families[0].samples[0].labels.at("name"), "a \"b\" \\ c");
  EXPECT_DOUBLE_EQ(parsed.families[1].samples[0].value, 12.0);
}

struct BrokenCase {
  const char* what;
  const char* text;
};

class ExpositionParserRejects : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(ExpositionParserRejects, BrokenOpenMetrics) {
  ParsedExposition parsed;
  std::string error;
  EXPECT_FALSE(ParseOpenMetrics(GetParam().text, &parsed, &error)) << GetParam().what;
  EXPECT_NE(error.find("line"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ExpositionParserRejects,
    ::testing::Values(
        BrokenCase{"missing EOF", "# HELP a x\n# TYPE a gauge\na 1\n"},
        BrokenCase{"text after EOF", "# EOF\n# HELP a x\n"},
        BrokenCase{"sample before TYPE", "# HELP a x\na 1\n# TYPE a gauge\n# EOF\n"},
        BrokenCase{"sample without HELP", "# TYPE a gauge\na 1\n# EOF\n"},
        BrokenCase{"bad metric name", "# HELP 1a x\n# TYPE 1a gauge\n1a 1\n# EOF\n"},
        BrokenCase{"bad label escape", "# HELP a x\n# TYPE a gauge\na{l=\"\\t\"} 1\n# EOF\n"},
        BrokenCase{"unquoted label", "# HELP a x\n# TYPE a gauge\na{l=1} 1\n# EOF\n"},
        BrokenCase{"bad value", "# HELP a x\n# TYPE a gauge\na 1.2.3\n# EOF\n"},
        BrokenCase{"lower-case nan", "# HELP a x\n# TYPE a gauge\na nan\n# EOF\n"},
        BrokenCase{"counter sample without _total", "# HELP a x\n# TYPE a counter\na 1\n# EOF\n"},
        BrokenCase{"counter family with _total", "# HELP a_total x\n# TYPE a_total counter\na_total 1\n# EOF\n"},
        BrokenCase{"negative counter", "# HELP a x\n# TYPE a counter\na_total -1\n# EOF\n"},
        BrokenCase{"interleaved family",
                   "# HELP a x\n# TYPE a gauge\na 1\n# HELP b x\n# TYPE b gauge\nb 1\n# HELP a x\n# EOF\n"},
        BrokenCase{"duplicate label set", "# HELP a x\n# TYPE a gauge\na{g=\"0\"} 1\na{g=\"0\"} 2\n# EOF\n"},
        BrokenCase{"empty line", "# HELP a x\n\n# TYPE a gauge\n# EOF\n"},
        BrokenCase{"unknown type", "# HELP a x\n# TYPE a gague\n# EOF\n"},
        BrokenCase{"unescaped quote in HELP", "# HELP a say \"hi\"\n# TYPE a gauge\n# EOF\n"},
        BrokenCase{"no final newline", "# EOF"}));

TEST(ExpositionParser, RejectsEofInPrometheusText) {
  ParsedExposition parsed;
  std::string error;
  EXPECT_FALSE(ParsePrometheusText("# HELP a x\n# TYPE a gauge\na 1\n# EOF\n", &parsed, &error));
  EXPECT_TRUE(ParsePrometheusText("# HELP a x\n# TYPE a gauge\na 1\n", &parsed, &error)) << error;
}

}  // namespace
}  // namespace opengpa::monitor::testing
