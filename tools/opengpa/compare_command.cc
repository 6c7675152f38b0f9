// `opengpa compare`: reads several `opengpa profile` JSON files and prints one table (docs/cli.md):
//   - the ranks (or processes) of one job side by side: per kernel (or NVTX range) each counter's min, median and
//     max over the ranks and the outlier rank (src/profiler/profile_comparison.h);
//   - with --diff, two runs of a program: per kernel and counter both values and the change, the counters that
//     moved first.
// --csv and --json write every row (the table shows the first --top groups); Python's opengpa.compare() runs this
// command and reads its JSON.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command_registry.h"
#include "output_file.h"
#include "platform/text_table.h"
#include "profiler/profile_comparison.h"
#include "profiler/profile_writers.h"
#include "terminal.h"

namespace opengpa::cli {
namespace {

using profiling::ComparedProfile;
using profiling::GroupBy;

struct CompareOptions {
  std::vector<std::string> files;
  bool diff = false;
  std::string by = "kernel";
  std::vector<std::string> counters;
  double threshold_percent = 5.0;
  std::size_t top = 20;
  std::string csv;
  std::string json;
  bool force = false;
};

std::string Cut(const std::string& text, std::size_t width) {
  if (width == 0 || text.size() <= width) return text;
  if (width <= 3) return text.substr(0, width);
  return text.substr(0, width - 3) + "...";
}

std::string Percent(double value) {
  if (std::isinf(value)) return value > 0 ? "new" : "gone";
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", value);
  return text;
}

std::string Ratio(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "x%.3f", value);
  return text;
}

// Rows of cells printed as a table: the first column (names) cut, down to 8 characters, so that lines fit `width`
// (0: no limit). Not platform/text_table.h's WriteAligned: it elides the longest cells, figures included, and a
// comparison's figures must stay whole.
void PrintTable(const std::vector<std::vector<std::string>>& rows, std::size_t width, std::ostream& out) {
  if (rows.empty()) return;
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::size_t others = 0;
  for (std::size_t c = 1; c < widths.size(); ++c) others += widths[c] + 2;
  if (width > 0 && widths[0] + others > width) {
    widths[0] = std::max<std::size_t>(8, width > others ? width - others : 8);
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const std::string cell = c == 0 ? Cut(rows[r][c], widths[0]) : rows[r][c];
      if (c > 0) line += "  ";
      line +=
          c == 0 ? cell + std::string(widths[0] - cell.size(), ' ') : std::string(widths[c] - cell.size(), ' ') + cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
    if (r == 0) {
      std::size_t total = 0;
      for (std::size_t w : widths) total += w + 2;
      out << std::string(total - 2, '-') << '\n';
    }
  }
}

nlohmann::ordered_json Number(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

bool WriteOutput(const std::string& option, const std::string& path, bool force, const std::string& text,
                 std::string* error) {
  if (path.empty()) return true;
  OutputFile file(option, path, force, error);
  if (file.Stream() == nullptr) return false;
  *file.Stream() << text;
  return file.Finish(error);
}

// Prints the table (unless JSON goes to stdout), then writes --csv and --json. The exit code.
int Emit(const CompareOptions& options, const std::vector<std::vector<std::string>>& rows, std::size_t groups,
         const std::string& csv, const nlohmann::ordered_json& json) {
  const bool json_to_stdout = options.json == "-";
  if (!json_to_stdout) {
    PrintTable(rows, StdoutWidth(), std::cout);
    if (options.top != 0 && groups > options.top) {
      std::cout << "(" << groups - options.top << " more; --top 0 shows all, --csv/--json write all)\n";
    }
  }
  std::string error;
  if (!WriteOutput("--csv", options.csv, options.force, csv, &error) ||
      (!json_to_stdout && !WriteOutput("--json", options.json, options.force, json.dump(1) + "\n", &error))) {
    std::cerr << "opengpa compare: " << error << '\n';
    return 1;
  }
  if (json_to_stdout) std::cout << json.dump(1) << '\n';
  return 0;
}

int RunAcrossMembers(const CompareOptions& options, const std::vector<ComparedProfile>& profiles, GroupBy by) {
  std::vector<profiling::GroupAcrossMembers> groups;
  std::string error;
  if (!profiling::CompareMembers(profiles, by, options.counters, &groups, &error)) {
    std::cerr << "opengpa compare: " << error << '\n';
    return 2;
  }
  std::vector<std::vector<std::string>> rows = {{by == GroupBy::kKernel ? "kernel" : "NVTX range", "ranks", "launches",
                                                 "counter", "min", "median", "max", "outlier"}};
  std::string csv =
      "group,members,launches_median,counter,min,min_member,median,max,max_member,outlier,outlier_ratio\n";
  nlohmann::ordered_json json = {{"schema", "opengpa-compare/1"},
                                 {"mode", "members"},
                                 {"by", options.by},
                                 {"files", options.files},
                                 {"groups", nlohmann::ordered_json::array()}};
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    nlohmann::ordered_json entry = {{"group", group.group},
                                    {"members", group.members},
                                    {"launches_median", group.launches_median},
                                    {"outlier", group.outlier},
                                    {"outlier_ratio", Number(group.outlier_ratio)},
                                    {"counters", nlohmann::ordered_json::array()}};
    for (std::size_t c = 0; c < group.spreads.size(); ++c) {
      const auto& spread = group.spreads[c];
      if (options.top == 0 || g < options.top) {
        rows.push_back({c == 0 ? group.group : "", c == 0 ? std::to_string(group.members.size()) : "",
                        c == 0 ? profiling::FormatValue(group.launches_median) : "", spread.counter,
                        profiling::FormatValue(spread.min), profiling::FormatValue(spread.median),
                        profiling::FormatValue(spread.max),
                        c == 0 ? group.outlier + " " + Ratio(group.outlier_ratio) : ""});
      }
      csv += CsvCell(group.group) + ',' + std::to_string(group.members.size()) + ',' +
             profiling::FormatValue(group.launches_median) + ',' + CsvCell(spread.counter) + ',' +
             profiling::FormatValue(spread.min) + ',' + CsvCell(spread.min_member) + ',' +
             profiling::FormatValue(spread.median) + ',' + profiling::FormatValue(spread.max) + ',' +
             CsvCell(spread.max_member) + ',' + CsvCell(group.outlier) + ',' +
             profiling::FormatValue(group.outlier_ratio) + '\n';
      entry["counters"].push_back({{"name", spread.counter},
                                   {"min", Number(spread.min)},
                                   {"min_member", spread.min_member},
                                   {"median", Number(spread.median)},
                                   {"max", Number(spread.max)},
                                   {"max_member", spread.max_member}});
    }
    json["groups"].push_back(std::move(entry));
  }
  return Emit(options, rows, groups.size(), csv, json);
}

int RunDiff(const CompareOptions& options, const std::vector<ComparedProfile>& profiles, GroupBy by) {
  profiling::RunDiff diff;
  std::string error;
  if (!profiling::DiffRuns(profiles[0], profiles[1], by, options.counters, options.threshold_percent, &diff, &error)) {
    std::cerr << "opengpa compare: " << error << '\n';
    return 2;
  }
  std::vector<std::vector<std::string>> rows = {
      {by == GroupBy::kKernel ? "kernel" : "NVTX range", "counter", "before", "after", "change"}};
  std::string csv = "group,counter,before,after,change_percent,moved\n";
  nlohmann::ordered_json json = {{"schema", "opengpa-compare/1"},
                                 {"mode", "diff"},
                                 {"by", options.by},
                                 {"files", options.files},
                                 {"threshold_percent", options.threshold_percent},
                                 {"changes", nlohmann::ordered_json::array()},
                                 {"only_before", diff.only_before},
                                 {"only_after", diff.only_after}};
  std::size_t moved = 0;
  for (const auto& change : diff.changes) {
    if (change.moved) ++moved;
    if (change.moved && (options.top == 0 || moved <= options.top)) {
      rows.push_back({change.group, change.counter, profiling::FormatValue(change.before),
                      profiling::FormatValue(change.after), Percent(change.change_percent)});
    }
    csv += CsvCell(change.group) + ',' + CsvCell(change.counter) + ',' + profiling::FormatValue(change.before) + ',' +
           profiling::FormatValue(change.after) + ',' +
           (std::isfinite(change.change_percent) ? profiling::FormatValue(change.change_percent) : "") + ',' +
           (change.moved ? "1" : "0") + '\n';
    json["changes"].push_back({{"group", change.group},
                               {"counter", change.counter},
                               {"before", Number(change.before)},
                               {"after", Number(change.after)},
                               {"change_percent", Number(change.change_percent)},
                               {"moved", change.moved}});
  }
  const int code = Emit(options, rows, moved, csv, json);
  if (options.json != "-") {
    std::cout << moved << " counter value(s) moved by " << options.threshold_percent << "% or more, of "
              << diff.changes.size() << " compared\n";
    for (const std::string& group : diff.only_before) {
      std::cout << "only in " << options.files[0] << ": " << group << '\n';
    }
    for (const std::string& group : diff.only_after) {
      std::cout << "only in " << options.files[1] << ": " << group << '\n';
    }
  }
  return code;
}

int RunCompare(const CompareOptions& options) {
  if (options.diff && options.files.size() != 2) {
    std::cerr << "opengpa compare: --diff compares two profiles (before, after); " << options.files.size()
              << " given\n";
    return 2;
  }
  std::string error;
  for (const std::string* path : {&options.csv, &options.json}) {
    if (*path != "-" && !CheckOutputPath(path == &options.csv ? "--csv" : "--json", *path, options.force, &error)) {
      std::cerr << "opengpa compare: " << error << '\n';
      return 2;
    }
  }
  std::vector<ComparedProfile> profiles(options.files.size());
  for (std::size_t i = 0; i < options.files.size(); ++i) {
    if (!profiling::ReadProfileForComparison(options.files[i], &profiles[i], &error)) {
      std::cerr << "opengpa compare: " << error << '\n';
      return 1;
    }
  }
  const GroupBy by = options.by == "nvtx" ? GroupBy::kNvtx : GroupBy::kKernel;
  return options.diff ? RunDiff(options, profiles, by) : RunAcrossMembers(options, profiles, by);
}

void SetUpCompare(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<CompareOptions>();
  command.add_option("profiles", options->files, "Profiles to compare (opengpa profile's .json files)")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_flag("--diff", options->diff, "Compare two runs (before, after) instead of the ranks of a job");
  command.add_option("--by", options->by, "Group launches by kernel name or by NVTX range path")
      ->check(CLI::IsMember({"kernel", "nvtx"}, CLI::ignore_case));
  command
      .add_option("--counters,--metrics", options->counters,
                  "Counters to compare (default: the time counter across ranks, every counter with --diff)")
      ->delimiter(',');
  command.add_option("--threshold", options->threshold_percent, "--diff: a change of this many percent has moved")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--top", options->top, "Rows of the table (groups, or moved counters); 0: all");
  command.add_option("--csv", options->csv, "Also write every row as CSV");
  command.add_option("--json", options->json, "Also write every row as JSON ('-': JSON to stdout, no table)");
  command.add_flag("-f,--force", options->force, "Replace existing output files");
  *run = [options] { return RunCompare(*options); };
}

const bool registered = RegisterCommand(
    {"compare", "Compare profiles: the ranks of a job side by side, or two runs (--diff)", &SetUpCompare});

}  // namespace
}  // namespace opengpa::cli
