// A strict reader of Prometheus text (0.0.4) and OpenMetrics 1.0 exposition, for the tests: it accepts
// only what the specifications allow for the subset OpenGPA writes (HELP, TYPE, samples with labels, EOF)
// and says which line broke which rule.
#ifndef OPENGPA_TESTS_REALTIME_EXPOSITION_PARSER_H_
#define OPENGPA_TESTS_REALTIME_EXPOSITION_PARSER_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace opengpa::monitor::testing {

struct ParsedSample {
  std::string name;
  std::map<std::string, std::string> labels;  // unescaped values
  double value = 0.0;
};

struct ParsedFamily {
  std::string name;  // as named by its TYPE line
  std::string type;  // "gauge", "counter", ...
  std::string help;  // unescaped
  bool has_help = false;
  std::vector<ParsedSample> samples;
};

struct ParsedExposition {
  std::vector<ParsedFamily> families;
  const ParsedFamily* Find(std::string_view name) const;
};

// Returns true and fills *parsed, or false with *error = "line N: what is wrong".
bool ParsePrometheusText(std::string_view text, ParsedExposition* parsed, std::string* error);
bool ParseOpenMetrics(std::string_view text, ParsedExposition* parsed, std::string* error);

}  // namespace opengpa::monitor::testing

#endif  // OPENGPA_TESTS_REALTIME_EXPOSITION_PARSER_H_
