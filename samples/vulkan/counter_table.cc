#include "counter_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <string_view>

namespace opengpa::vkwork {
namespace {

// Whole numbers (counts, bytes, a float64 counter that counted) print as integers, not "123.000"; a fraction too
// small for three decimals keeps its significant digits ("0.0004", not "0.000").
std::string Format(double value, bool is_float) {
  char text[64];
  if (is_float && !(std::fabs(value) < 1e15 && value == std::floor(value))) {
    std::snprintf(text, sizeof(text), "%.3f", value);
    if (std::string_view(text).substr(std::strlen(text) - 4) == ".000")
      std::snprintf(text, sizeof(text), "%.6g", value);
  } else {
    std::snprintf(text, sizeof(text), "%.0f", value);
  }
  return text;
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

void PrintCounterTable(std::ostream& out, const std::vector<CounterColumn>& counters,
                       const std::vector<SampleRow>& samples) {
  std::size_t name_width = std::string("Counter").size();
  std::size_t usage_width = std::string("Usage").size();
  auto shown_name = [](const CounterColumn& c) { return c.not_meaningful ? c.name + " *" : c.name; };
  for (const CounterColumn& c : counters) {
    name_width = std::max(name_width, shown_name(c).size());
    usage_width = std::max(usage_width, c.usage.size());
  }
  std::vector<std::size_t> widths;
  for (const SampleRow& s : samples) {
    std::size_t width = std::max<std::size_t>(s.label.size(), 8);
    for (std::size_t i = 0; i < counters.size(); ++i)
      width = std::max(width, Format(s.values[i], counters[i].is_float).size());
    widths.push_back(width);
  }
  out << std::left << std::setw(static_cast<int>(name_width)) << "Counter"
      << "  " << std::setw(static_cast<int>(usage_width)) << "Usage";
  for (std::size_t s = 0; s < samples.size(); ++s) {
    out << "  " << std::right << std::setw(static_cast<int>(widths[s])) << samples[s].label;
  }
  out << "\n";
  std::size_t rule = name_width + 2 + usage_width;
  for (std::size_t w : widths) rule += 2 + w;
  out << std::string(rule, '-') << "\n";
  for (std::size_t i = 0; i < counters.size(); ++i) {
    out << std::left << std::setw(static_cast<int>(name_width)) << shown_name(counters[i]) << "  "
        << std::setw(static_cast<int>(usage_width)) << counters[i].usage;
    for (std::size_t s = 0; s < samples.size(); ++s) {
      out << "  " << std::right << std::setw(static_cast<int>(widths[s]))
          << Format(samples[s].values[i], counters[i].is_float);
    }
    out << "\n";
  }
}

bool WriteCounterCsv(const std::string& path, const std::string& device_name,
                     const std::vector<CounterColumn>& counters, const std::vector<SampleRow>& samples) {
  std::ofstream csv(path);
  if (!csv) return false;
  csv << "Device,SampleId,Sample";
  for (const CounterColumn& c : counters) csv << "," << CsvField(c.name);
  csv << "\n";
  for (const SampleRow& s : samples) {
    csv << CsvField(device_name) << "," << s.sample_id << "," << CsvField(s.label);
    for (std::size_t i = 0; i < counters.size(); ++i) csv << "," << Format(s.values[i], counters[i].is_float);
    csv << "\n";
  }
  return static_cast<bool>(csv);
}

}  // namespace opengpa::vkwork
