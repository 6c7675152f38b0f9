#include "exposition_parser.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

namespace opengpa::monitor::testing {

const ParsedFamily* ParsedExposition::Find(std::string_view name) const {
  for (const ParsedFamily& family : families) {
    if (family.name == name) return &family;
  }
  return nullptr;
}

namespace {

bool IsMetricName(std::string_view name) {  // [a-zA-Z_:][a-zA-Z0-9_:]*
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
    if (!letter && !(i > 0 && std::isdigit(static_cast<unsigned char>(c)))) return false;
  }
  return true;
}

bool IsLabelName(std::string_view name) {  // [a-zA-Z_][a-zA-Z0-9_]*
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = std::isalpha(static_cast<unsigned char>(c)) || c == '_';
    if (!letter && !(i > 0 && std::isdigit(static_cast<unsigned char>(c)))) return false;
  }
  return true;
}

// A number as both formats write it: an optional sign, digits with an optional fraction and exponent,
// or NaN / +Inf / -Inf (OpenMetrics is case-sensitive here; Prometheus accepts the same spellings).
bool ParseNumber(std::string_view text, double* value) {
  if (text == "NaN") return *value = std::nan(""), true;
  if (text == "+Inf" || text == "Inf") return *value = HUGE_VAL, true;
  if (text == "-Inf") return *value = -HUGE_VAL, true;
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  size_t digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  if (i != text.size()) return false;
  *value = std::strtod(std::string(text).c_str(), nullptr);
  return true;
}

// Unescapes \\, \" and \n (the only escapes either format allows in label values).
bool Unescape(std::string_view text, bool quote_must_be_escaped, std::string* out) {
  out->clear();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') {
      if (i + 1 == text.size()) return false;
      const char next = text[++i];
      if (next == '\\')
        *out += '\\';
      else if (next == '"')
        *out += '"';
      else if (next == 'n')
        *out += '\n';
      else
        return false;
    } else if (text[i] == '"' && quote_must_be_escaped) {
      return false;
    } else if (text[i] == '\n') {
      return false;
    } else {
      *out += text[i];
    }
  }
  return true;
}

// name{label="value",...} value — no timestamp (OpenGPA writes none).
bool ParseSampleLine(std::string_view line, ParsedSample* sample, std::string* why) {
  size_t i = 0;
  while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
  sample->name = std::string(line.substr(0, i));
  if (!IsMetricName(sample->name)) return *why = "bad metric name '" + sample->name + "'", false;
  if (i < line.size() && line[i] == '{') {
    ++i;
    while (true) {
      if (i < line.size() && line[i] == '}') {
        ++i;
        break;
      }
      const size_t equals = line.find('=', i);
      if (equals == std::string_view::npos) return *why = "label without '='", false;
      const std::string label(line.substr(i, equals - i));
      if (!IsLabelName(label)) return *why = "bad label name '" + label + "'", false;
      if (sample->labels.count(label) != 0) return *why = "label '" + label + "' repeated", false;
      i = equals + 1;
      if (i >= line.size() || line[i] != '"') return *why = "label value not quoted", false;
      ++i;
      size_t end = i;
      while (end < line.size() && line[end] != '"') end += line[end] == '\\' ? 2 : 1;
      if (end >= line.size()) return *why = "unterminated label value", false;
      std::string value;
      if (!Unescape(line.substr(i, end - i), true, &value)) return *why = "bad escape in label value", false;
      sample->labels[label] = value;
      i = end + 1;
      if (i < line.size() && line[i] == ',') {
        ++i;
        continue;
      }
      if (i < line.size() && line[i] == '}') continue;
      return *why = "expected ',' or '}' after a label", false;
    }
  }
  if (i >= line.size() || line[i] != ' ') return *why = "expected one space before the value", false;
  const std::string_view value = line.substr(i + 1);
  if (value.find(' ') != std::string_view::npos) return *why = "unexpected text after the value", false;
  if (!ParseNumber(value, &sample->value)) return *why = "bad value '" + std::string(value) + "'", false;
  return true;
}

bool Fail(size_t line_number, const std::string& why, std::string* error) {
  *error = "line " + std::to_string(line_number) + ": " + why;
  return false;
}

bool Parse(std::string_view text, bool openmetrics, ParsedExposition* parsed, std::string* error) {
  parsed->families.clear();
  if (text.empty() || text.back() != '\n') return Fail(0, "text does not end with a newline", error);
  std::set<std::string> closed;  // families whose samples are over: they may not come back
  ParsedFamily* current = nullptr;
  bool saw_eof = false;
  size_t line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (saw_eof) return Fail(line_number, "text after # EOF", error);
    if (line.empty()) return Fail(line_number, "empty line", error);
    if (line == "# EOF") {
      if (!openmetrics) return Fail(line_number, "# EOF is OpenMetrics only", error);
      saw_eof = true;
      continue;
    }
    if (line[0] == '#') {
      const bool help = line.rfind("# HELP ", 0) == 0;
      const bool type = line.rfind("# TYPE ", 0) == 0;
      if (!help && !type) return Fail(line_number, "unknown comment '" + std::string(line) + "'", error);
      const std::string_view rest = line.substr(7);
      const size_t space = rest.find(' ');
      if (space == std::string_view::npos) return Fail(line_number, "metadata without a value", error);
      const std::string name(rest.substr(0, space));
      const std::string_view value = rest.substr(space + 1);
      if (!IsMetricName(name)) return Fail(line_number, "bad metric name in metadata '" + name + "'", error);
      if (current == nullptr || current->name != name) {
        if (closed.count(name) != 0 || parsed->Find(name) != nullptr) {
          return Fail(line_number, "metadata for '" + name + "' after its family ended", error);
        }
        if (current != nullptr) closed.insert(current->name);
        parsed->families.push_back({name, "", "", false, {}});
        current = &parsed->families.back();
      } else if (!current->samples.empty()) {
        return Fail(line_number, "metadata for '" + name + "' after its samples", error);
      }
      if (help) {
        if (current->has_help) return Fail(line_number, "second HELP for '" + name + "'", error);
        std::string unescaped;
        if (!Unescape(value, openmetrics, &unescaped)) return Fail(line_number, "bad escape in HELP", error);
        current->help = unescaped;
        current->has_help = true;
      } else {
        if (!current->type.empty()) return Fail(line_number, "second TYPE for '" + name + "'", error);
        const std::set<std::string> types =
            openmetrics ? std::set<std::string>{"counter",  "gauge", "histogram", "gaugehistogram",
                                                "stateset", "info",  "summary",   "unknown"}
                        : std::set<std::string>{"counter", "gauge", "histogram", "summary", "untyped"};
        if (types.count(std::string(value)) == 0)
          return Fail(line_number, "unknown type '" + std::string(value) + "'", error);
        current->type = std::string(value);
        if (openmetrics && current->type == "counter" && name.size() > 6 && name.substr(name.size() - 6) == "_total") {
          return Fail(line_number, "OpenMetrics counter family '" + name + "' must not end in _total", error);
        }
      }
      continue;
    }
    ParsedSample sample;
    std::string why;
    if (!ParseSampleLine(line, &sample, &why)) return Fail(line_number, why, error);
    if (current == nullptr || current->type.empty()) {
      return Fail(line_number, "sample '" + sample.name + "' before its family's TYPE", error);
    }
    if (!current->has_help) return Fail(line_number, "sample '" + sample.name + "' before its family's HELP", error);
    // Which sample names belong to the current family.
    std::string expected = current->name;
    if (openmetrics && current->type == "counter") expected += "_total";
    if (sample.name != expected) {
      return Fail(line_number,
                  "sample '" + sample.name + "' does not belong to family '" + current->name + "' (expected '" +
                      expected + "')",
                  error);
    }
    if (openmetrics && current->type == "counter" && !(sample.value >= 0)) {
      return Fail(line_number, "OpenMetrics counter value must be a non-negative number", error);
    }
    for (const ParsedSample& other : current->samples) {
      if (other.labels == sample.labels)
        return Fail(line_number, "duplicate label set in '" + sample.name + "'", error);
    }
    current->samples.push_back(std::move(sample));
  }
  if (openmetrics && !saw_eof) return Fail(line_number, "no # EOF at the end", error);
  return true;
}

}  // namespace

bool ParsePrometheusText(std::string_view text, ParsedExposition* parsed, std::string* error) {
  return Parse(text, false, parsed, error);
}

bool ParseOpenMetrics(std::string_view text, ParsedExposition* parsed, std::string* error) {
  return Parse(text, true, parsed, error);
}

}  // namespace opengpa::monitor::testing
