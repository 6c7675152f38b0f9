// The formats a command can print: an aligned table for people, CSV for spreadsheets, JSON for programs
// (validated against docs/schema/*.json).
#ifndef OPENGPA_TOOLS_OPENGPA_OUTPUT_FORMAT_H_
#define OPENGPA_TOOLS_OPENGPA_OUTPUT_FORMAT_H_

#include <map>
#include <string>

namespace opengpa::cli {

enum class OutputFormat { kTable, kCsv, kJson };

// For CLI11's transform: "table", "csv", "json".
inline std::map<std::string, OutputFormat> OutputFormatNames() {
  return {{"table", OutputFormat::kTable}, {"csv", OutputFormat::kCsv}, {"json", OutputFormat::kJson}};
}

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_OUTPUT_FORMAT_H_
