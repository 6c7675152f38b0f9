#include "doctor_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "platform/text_table.h"

namespace opengpa::cli {
namespace {

std::string Number(const nlohmann::json& value) {
  if (!value.is_number()) return "NaN";
  const double number = value.get<double>();
  char text[64];
  std::snprintf(text, sizeof text, number == std::floor(number) && std::fabs(number) < 1e15 ? "%.0f" : "%.4g", number);
  return text;
}

std::string Text(const nlohmann::json& object, const char* key) {
  return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : std::string();
}

std::string DriverLine(const nlohmann::json& backend) {
  const nlohmann::json& driver = backend["driver"];
  std::string line = Text(driver, "device");
  const std::string name = Text(driver, "name"), version = Text(driver, "version");
  if (!name.empty() || !version.empty()) {
    line += (line.empty() ? "" : "; ") + name + (name.empty() ? "" : " ") + version;
  }
  const nlohmann::json& library = backend["gpa_library"];
  if (library.contains("path")) {
    line += (line.empty() ? "" : "; ") + std::string("GPA ") + Text(library, "path");
    if (library.contains("version")) line += " (" + Text(library, "version") + ")";
  }
  return line;
}

void WriteChecks(const nlohmann::json& checks, std::size_t width, std::ostream& out) {
  TextTable table;
  table.header = {"check", "counter", "measured", "truth", "tolerance", "verdict"};
  table.alignment = {Alignment::kLeft, Alignment::kLeft, Alignment::kRight, Alignment::kRight};
  for (const auto& check : checks) {
    const std::string counter = Text(check, "counter");
    table.rows.push_back({Text(check, "name"), counter.empty() ? "(workload)" : counter, Number(check["measured"]),
                          Number(check["truth"]), Text(check["tolerance"], "text"), Text(check, "verdict")});
  }
  table.max_width = width;
  std::ostringstream text;
  WriteAligned(table, text);
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) out << "    " << line << '\n';
}

// `prefix` then `text`, wrapped to `width` (0: no limit), continuation lines indented under the text.
std::string Hanging(const std::string& prefix, const std::string& text, std::size_t width) {
  const std::size_t room = width > prefix.size() + kMinLastColumn ? width - prefix.size() : 0;
  const std::string wrapped = WrapText(text, room);
  std::string lines = prefix;
  for (char c : wrapped) {
    lines += c;
    if (c == '\n') lines += std::string(prefix.size(), ' ');
  }
  return lines;
}

}  // namespace

void WriteDoctorTable(const nlohmann::json& document, std::size_t width, std::ostream& out) {
  int present = 0, passed = 0;
  for (const auto& backend : document["backends"]) {
    present += backend["status"] != "absent";
    passed += backend["status"] == "pass";
  }
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", document["seconds"].get<double>());
  out << "opengpa doctor: " << present << " of " << document["backends"].size() << " APIs present, " << passed
      << " passed (" << seconds << (document["quick"].get<bool>() ? ", --quick" : "") << "); exit code "
      << document["exit_code"].get<int>() << "\n";
  for (const auto& backend : document["backends"]) {
    const std::string status = backend["status"];
    // "monitor absent    ": the API in 8 columns, the status in 10, then the reason or the driver.
    std::string prefix = Text(backend, "api");
    prefix += std::string(8 - std::min<std::size_t>(7, prefix.size()), ' ') + status;
    prefix += std::string(10 - std::min<std::size_t>(9, status.size()), ' ');
    out << '\n' << Hanging(prefix, status == "absent" ? Text(backend, "reason") : DriverLine(backend), width) << '\n';
    if (status == "absent") continue;
    if (!backend["checks"].empty()) WriteChecks(backend["checks"], width > 4 ? width - 4 : 0, out);
    for (const auto& cause : backend["causes"]) {
      out << WrapText("  cause (" + Text(cause, "id") + "): " + Text(cause, "message"), width) << '\n';
      out << WrapText("  fix: " + Text(cause, "fix"), width) << '\n';
    }
  }
}

}  // namespace opengpa::cli
