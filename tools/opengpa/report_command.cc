// `opengpa report`: one self-contained HTML page of profiles (docs/cli.md, issue 33). This file only gathers the
// data: each input read as a table of launches (profiler/report_input.h), the ranks compared and two runs diffed
// by profiler/profile_comparison.h (what `opengpa compare` prints), and writes them as JSON into the page's
// template, share/opengpa/report.html beside bin/ (tools/opengpa/report/report.html in the source), whose script
// draws every view in the browser. The page loads nothing from the network.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/gpa_library_search.h"
#include "command_registry.h"
#include "output_file.h"
#include "profiler/profile_comparison.h"
#include "profiler/report_input.h"

namespace opengpa::cli {
namespace {

using Json = nlohmann::ordered_json;

// Where the template's script expects the data (a JSON object inside <script type="application/json">).
constexpr const char kDataMarker[] = "/*OPENGPA_REPORT_DATA*/";

struct ReportOptions {
  std::vector<std::string> files;
  std::string output = "report.html";
  bool diff = false;
  double threshold_percent = 5.0;
  double peak_flops = 0;      // FLOP/s; 0: no compute roof
  double peak_bandwidth = 0;  // bytes/s; 0: no memory roof
  std::string title;
  std::string template_path;
  bool force = false;
};

Json Number(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

// The runs' diff as `opengpa compare --diff --json` writes its changes (docs/cli.md).
bool DiffJson(const ReportOptions& options, Json* out, std::string* error) {
  std::vector<profiling::ComparedProfile> runs(2);
  for (std::size_t i = 0; i < 2; ++i) {
    if (!profiling::ReadProfileForComparison(options.files[i], &runs[i], error)) return false;
  }
  profiling::RunDiff diff;
  if (!profiling::DiffRuns(runs[0], runs[1], profiling::GroupBy::kKernel, {}, options.threshold_percent, &diff,
                           error)) {
    return false;
  }
  *out = {
      {"before", options.files[0]}, {"after", options.files[1]},       {"threshold_percent", options.threshold_percent},
      {"changes", Json::array()},   {"only_before", diff.only_before}, {"only_after", diff.only_after}};
  for (const auto& change : diff.changes) {
    (*out)["changes"].push_back(
        {{"group", change.group},
         {"counter", change.counter},
         {"before", Number(change.before)},
         {"after", Number(change.after)},
         {"change_percent", std::isinf(change.change_percent) ? Json(change.change_percent > 0 ? "new" : "gone")
                                                              : Number(change.change_percent)},
         {"moved", change.moved}});
  }
  return true;
}

// The ranks (or processes) side by side, as `opengpa compare` without --diff: null where the profiles hold one
// member, are not all profile JSONs, or have no counter to compare.
Json MembersJson(const ReportOptions& options, const Json& inputs) {
  std::vector<profiling::ComparedProfile> profiles;
  for (std::size_t i = 0; i < options.files.size(); ++i) {
    if (inputs[i]["format"] != "profile-json") return nullptr;
    profiles.emplace_back();
    std::string ignored;
    if (!profiling::ReadProfileForComparison(options.files[i], &profiles.back(), &ignored)) return nullptr;
  }
  std::vector<profiling::GroupAcrossMembers> groups;
  std::string error;
  if (!profiling::CompareMembers(profiles, profiling::GroupBy::kKernel, {}, &groups, &error)) return nullptr;
  std::size_t most_members = 0;
  for (const auto& group : groups) most_members = std::max(most_members, group.members.size());
  if (most_members < 2) return nullptr;
  Json members = Json::array();
  for (const auto& group : groups) {
    if (group.spreads.empty()) continue;
    const auto& spread = group.spreads.front();
    members.push_back({{"group", group.group},
                       {"members", group.members.size()},
                       {"launches_median", group.launches_median},
                       {"counter", spread.counter},
                       {"min", Number(spread.min)},
                       {"min_member", spread.min_member},
                       {"median", Number(spread.median)},
                       {"max", Number(spread.max)},
                       {"max_member", spread.max_member},
                       {"outlier", group.outlier},
                       {"outlier_ratio", Number(group.outlier_ratio)}});
  }
  return members;
}

bool ReadTemplate(const std::string& path, std::string* text, std::string* error) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream content;
  if (!file || !(content << file.rdbuf())) {
    *error = "the report template " + path +
             " cannot be read (reinstall OpenGPA: it belongs in share/opengpa "
             "beside bin/opengpa)";
    return false;
  }
  *text = content.str();
  if (text->find(kDataMarker) == std::string::npos) {
    *error = "the report template " + path + " has no " + kDataMarker + " marker";
    return false;
  }
  return true;
}

// JSON that cannot end its <script> element: '<' only occurs inside strings, where \u003c reads back the same.
std::string ScriptSafe(const std::string& json) {
  std::string safe;
  safe.reserve(json.size());
  for (char c : json) {
    if (c == '<') {
      safe += "\\u003c";
    } else {
      safe += c;
    }
  }
  return safe;
}

int RunReport(const ReportOptions& options) {
  std::string error;
  if (options.diff && options.files.size() != 2) {
    std::cerr << "opengpa report: --diff compares two profiles (before, after); " << options.files.size() << " given\n";
    return 2;
  }
  if (!CheckOutputPath("-o", options.output, options.force, &error)) {
    std::cerr << "opengpa report: " << error << '\n';
    return 2;
  }
  const std::string template_path = options.template_path.empty()
                                        ? client::ExecutableDirectory() + "/../share/opengpa/report.html"
                                        : options.template_path;
  std::string page;
  if (!ReadTemplate(template_path, &page, &error)) {
    std::cerr << "opengpa report: " << error << '\n';
    return 1;
  }
  Json data = {{"schema", "opengpa-report/1"},
               {"title", options.title},
               {"generator", "opengpa " OPENGPA_VERSION},
               {"peak_flops", options.peak_flops > 0 ? Json(options.peak_flops) : Json(nullptr)},
               {"peak_bandwidth", options.peak_bandwidth > 0 ? Json(options.peak_bandwidth) : Json(nullptr)},
               {"inputs", Json::array()}};
  for (const std::string& path : options.files) {
    Json table;
    if (!profiling::ReadReportInput(path, &table, &error)) {
      std::cerr << "opengpa report: " << error << '\n';
      return 1;
    }
    data["inputs"].push_back(std::move(table));
  }
  data["diff"] = nullptr;
  if (options.diff) {
    Json diff;
    if (!DiffJson(options, &diff, &error)) {
      std::cerr << "opengpa report: --diff: " << error << '\n';
      return 1;
    }
    data["diff"] = std::move(diff);
  }
  data["members"] = options.diff ? Json(nullptr) : MembersJson(options, data["inputs"]);
  page.replace(page.find(kDataMarker), sizeof kDataMarker - 1, ScriptSafe(data.dump()));
  OutputFile file("-o", options.output, options.force, &error);
  if (file.Stream() == nullptr) {
    std::cerr << "opengpa report: " << error << '\n';
    return 1;
  }
  *file.Stream() << page;
  if (!file.Finish(&error)) {
    std::cerr << "opengpa report: " << error << '\n';
    return 1;
  }
  std::size_t launches = 0;
  for (const auto& input : data["inputs"]) launches += input["launches"].size();
  std::cerr << "opengpa report: " << options.output << " (" << options.files.size() << " input(s), " << launches
            << " launch(es))\n";
  return 0;
}

void SetUpReport(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<ReportOptions>();
  command
      .add_option("inputs", options->files,
                  "Profiles (opengpa profile's .json or .csv; several: the ranks of a job) or GPA sample CSVs")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("-o,--output", options->output, "The HTML file to write (default report.html)");
  command.add_flag("--diff", options->diff, "Two profiles (before, after): add the view of what changed");
  command.add_option("--threshold", options->threshold_percent, "--diff: a change of this many percent has moved")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--peak-flops", options->peak_flops, "The roofline's compute roof, FLOP/s (measured)")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--peak-bandwidth", options->peak_bandwidth, "The roofline's memory roof, DRAM bytes/s")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--title", options->title, "The page's title (default: the inputs' names)");
  command.add_option("--template", options->template_path, "Another page template (default share/opengpa/report.html)")
      ->check(CLI::ExistingFile);
  command.add_flag("-f,--force", options->force, "Replace an existing output file");
  *run = [options] { return RunReport(*options); };
}

const bool registered = RegisterCommand(
    {"report", "Write one self-contained HTML page of profiles: summary, kernels, roofline, ops, ranks, diff",
     &SetUpReport});

}  // namespace
}  // namespace opengpa::cli
