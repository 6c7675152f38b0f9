// `opengpa passes`: how many passes a counter set needs (GpaGetPassCount) and which counters land in
// which pass (derived from pass counts of subsets, see pass_placement.h).
#include <nlohmann/json.hpp>

#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "api_name.h"
#include "command_registry.h"
#include "counter_description.h"
#include "counter_selection.h"
#include "opened_context.h"
#include "output_file.h"
#include "output_format.h"
#include "pass_placement.h"
#include "text_table.h"

namespace opengpa::cli {
namespace {

constexpr const char* kPlacementMethod = "first-fit over GpaGetPassCount of counter subsets";

struct PassesOptions {
  ContextOptions context;
  CounterSelection counters;
  OutputFormat format = OutputFormat::kTable;
  std::string output;
};

std::string PassRange(const PassGroup& group) {
  if (group.pass_count == 1) return std::to_string(group.first_pass);
  return std::to_string(group.first_pass) + "-" + std::to_string(group.first_pass + group.pass_count - 1);
}

// GpaGetPassCount of a subset of counters on `session`: the oracle pass placement asks. Probing calls
// (subsets expected to fail) keep GPA's error log quiet; a failure leaves its reason in *error.
PassCountOracle SessionPassCountOracle(const GpaLibrary& library, const GpaSession& session, std::string* error) {
  return [&library, &session, error](const std::vector<std::uint32_t>& subset,
                                     bool probing) -> std::optional<std::uint32_t> {
    std::optional<GpaErrorLogMute> mute;
    if (probing) mute.emplace();
    const GpaFunctionTable& gpa = library.Gpa();
    if (!library.Succeeded(gpa.GpaDisableAllCounters(session.Id()), "GpaDisableAllCounters", error)) {
      return std::nullopt;
    }
    for (std::uint32_t index : subset) {
      if (!library.Succeeded(gpa.GpaEnableCounter(session.Id(), index), "GpaEnableCounter " + std::to_string(index),
                             error)) {
        return std::nullopt;
      }
    }
    GpaUInt32 passes = 0;
    if (!library.Succeeded(gpa.GpaGetPassCount(session.Id(), &passes), "GpaGetPassCount", error)) {
      return std::nullopt;
    }
    return passes;
  };
}

// What `opengpa passes` found, for the writers below.
struct PassesReport {
  GpaApiType api;
  const DeviceDescription& device;
  std::string opened_as;
  std::size_t counter_count;
  const PassPlacement& placement;
  std::function<std::string(std::uint32_t)> name_of;
};

int WritePassesJson(const PassesReport& report, std::ostream& out) {
  const PassPlacement& placement = report.placement;
  nlohmann::json json;
  json["schema"] = "opengpa-passes/1";
  json["api"] = std::string(ApiShortName(report.api));
  json["device"] = {{"name", report.device.name}, {"opened_as", report.opened_as}};
  json["passes"] = placement.library_passes ? nlohmann::json(*placement.library_passes) : nlohmann::json();
  json["placed_passes"] = placement.placed_passes;
  json["placement_method"] = kPlacementMethod;
  json["groups"] = nlohmann::json::array();
  for (const auto& group : placement.groups) {
    nlohmann::json counters = nlohmann::json::array();
    for (std::uint32_t index : group.counters) counters.push_back({{"index", index}, {"name", report.name_of(index)}});
    json["groups"].push_back(
        {{"first_pass", group.first_pass}, {"pass_count", group.pass_count}, {"counters", counters}});
  }
  out << json.dump(2) << '\n';
  return out.good() ? 0 : 1;
}

// The table (aligned, with a sentence about the passes above it) or its CSV.
int WritePassesTable(const PassesReport& report, OutputFormat format, std::ostream& out) {
  const PassPlacement& placement = report.placement;
  TextTable table;
  table.header = {"pass", "index", "counter"};
  table.alignment = {Alignment::kRight, Alignment::kRight};
  for (const auto& group : placement.groups) {
    for (std::uint32_t index : group.counters) {
      table.rows.push_back({PassRange(group), std::to_string(index), report.name_of(index)});
    }
  }
  if (format == OutputFormat::kCsv) {
    WriteCsv(table, out);
    return out.good() ? 0 : 1;
  }
  if (!placement.library_passes) {
    out << report.device.name << " — the library cannot collect these " << report.counter_count
        << " counters in one session; split them into the groups below (one session each, "
        << placement.placed_passes << " passes in all).\n\n";
    WriteAligned(table, out);
    return out.good() ? 0 : 1;
  }
  out << report.device.name << " — " << report.counter_count << " counter(s) need " << *placement.library_passes
      << " pass(es) (GpaGetPassCount)\n";
  if (placement.placed_passes != *placement.library_passes) {
    out << "The placement below is derived (" << kPlacementMethod << ") and uses " << placement.placed_passes
        << " passes; the library's scheduler packs the whole set into " << *placement.library_passes << ".\n";
  }
  out << '\n';
  WriteAligned(table, out);
  return out.good() ? 0 : 1;
}

int RunPasses(const PassesOptions& options) {
  std::string error;
  std::vector<std::string> names;
  if (!CollectCounterNames(options.counters, &names, &error)) {
    std::cerr << "opengpa passes: " << error << '\n';
    return 2;
  }
  auto opened = OpenedContext::Open(options.context, &error);
  if (!opened) {
    std::cerr << "opengpa passes: " << error << '\n';
    return 1;
  }
  const GpaLibrary& library = opened->Library();
  std::vector<GpaUInt32> indices;
  DeviceDescription device;
  if (!ResolveCounterIndices(library, opened->Context(), names, &indices, &error) ||
      !DescribeDevice(library, opened->Context(), &device, &error)) {
    std::cerr << "opengpa passes: " << error << '\n';
    return 1;
  }
  auto session = GpaSession::Create(library, opened->Context(), &error);
  if (!session) {
    std::cerr << "opengpa passes: " << error << '\n';
    return 1;
  }

  std::string oracle_error;
  auto placement = PlaceCountersInPasses(indices, SessionPassCountOracle(library, *session, &oracle_error), &error);
  if (!placement) {
    std::cerr << "opengpa passes: " << error << " (" << oracle_error << ")\n";
    return 1;
  }

  OutputFile file(options.output, &error);
  std::ostream* out = file.Stream();
  if (!out) {
    std::cerr << "opengpa passes: " << error << '\n';
    return 1;
  }
  const PassesReport report{library.Api(), device, opened->Api().Description(), indices.size(), *placement,
                            [&](std::uint32_t index) {
                              for (std::size_t i = 0; i < indices.size(); ++i) {
                                if (indices[i] == index) return names[i];
                              }
                              return std::string();
                            }};
  if (options.format == OutputFormat::kJson) return WritePassesJson(report, *out);
  return WritePassesTable(report, options.format, *out);
}

void SetUpPasses(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<PassesOptions>();
  AddContextOptions(command, &options->context);
  AddCounterSelectionOptions(command, &options->counters);
  command.add_option("--format", options->format, "table (default), csv or json")
      ->transform(CLI::CheckedTransformer(OutputFormatNames(), CLI::ignore_case).description("{table,csv,json}"));
  command.add_option("-o,--output", options->output, "Write to this file instead of stdout");
  *run = [options] { return RunPasses(*options); };
}

const bool registered =
    RegisterCommand({"passes", "How many passes a counter set needs, and which counter lands in which pass", &SetUpPasses});

}  // namespace
}  // namespace opengpa::cli
