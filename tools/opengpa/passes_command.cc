// `opengpa passes`: how many passes a counter set needs (GpaGetPassCount on the whole set) and a plan:
// the sessions a set the library cannot collect at once splits into, or which counters land in which
// pass of one session (pass_placement.h). Each plan question is one GpaGetPassCount of a counter subset;
// the library caches its answers per hardware-counter set, and progress is shown on anything long.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

#include "api_name.h"
#include "choice_option.h"
#include "command_registry.h"
#include "counter_description.h"
#include "counter_selection.h"
#include "opened_context.h"
#include "output_file.h"
#include "output_format.h"
#include "pass_placement.h"
#include "platform/text_table.h"
#include "terminal.h"

namespace opengpa::cli {
namespace {

// Sets up to this size get a per-pass placement by default (--placement auto); larger ones the sessions
// only, in about the time the library takes to count their passes.
constexpr std::size_t kAutoPlacementLimit = 256;

enum class Placement { kAuto, kPasses, kSessions };

const char* PlacementMethod(bool passes_placed) {
  return passes_placed
             ? "GpaGetPassCount of the whole set; sessions by pairing hardware units, then halving refused blocks; "
               "passes by longest "
               "runs that keep a pass's count"
             : "GpaGetPassCount of the whole set; sessions by pairing hardware units, then halving refused blocks";
}

struct PassesOptions {
  ContextOptions context;
  CounterSelection counters;
  OutputFormat format = OutputFormat::kTable;
  std::string output;
  bool force = false;
  bool quiet = false;
  Placement placement = Placement::kAuto;
};

std::string PassRange(const PassGroup& group) {
  if (group.pass_count == 1) return std::to_string(group.first_pass);
  return std::to_string(group.first_pass) + "-" + std::to_string(group.first_pass + group.pass_count - 1);
}

// "placed 1200 of 4736 counters (3.1 s)" on stderr once the plan has taken a second, redrawn in place on a
// terminal and at most every 2 s elsewhere.
class PlacementReport {
 public:
  explicit PlacementReport(bool quiet) : quiet_(quiet), interactive_(StderrIsTerminal()) {}
  ~PlacementReport() {
    if (shown_ && interactive_) std::fputc('\n', stderr);
  }
  void Update(std::size_t placed, std::size_t total) {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (quiet_ || elapsed < 1.0 || (!interactive_ && now - last_ < std::chrono::seconds(2))) return;
    last_ = now;
    shown_ = true;
    std::fprintf(stderr, "%sopengpa passes: placed %zu of %zu counters (%.1f s)%s", interactive_ ? "\r" : "", placed,
                 total, elapsed, interactive_ ? "" : "\n");
    std::fflush(stderr);
  }

 private:
  bool quiet_;
  bool interactive_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

// Sets this large get a line on stderr before the first question, which alone can take seconds.
constexpr std::size_t kLargeSet = 500;

// The counters grouped by the hardware unit they are read from (OpenGpaGetCounterHardwareUnit), in order
// of first appearance: CUPTI accepts or refuses the counters of a unit together. Empty when the library
// does not say (no extension, or derived counters only).
std::vector<std::vector<std::uint32_t>> HardwareUnitBlocks(const GpaLibrary& library, const GpaContext& context,
                                                           const std::vector<GpaUInt32>& indices) {
  const auto unit_of = library.Extensions().get_counter_hardware_unit;
  if (!unit_of) return {};
  std::vector<std::string> units;
  std::vector<std::vector<std::uint32_t>> blocks;
  for (GpaUInt32 index : indices) {
    const char* unit = nullptr;
    const std::string name = unit_of(context.Id(), index, &unit) == kGpaStatusOk && unit ? unit : "";
    const auto found = std::find(units.begin(), units.end(), name);
    if (found == units.end()) {
      units.push_back(name);
      blocks.push_back({index});
    } else {
      blocks[static_cast<std::size_t>(found - units.begin())].push_back(index);
    }
  }
  if (blocks.size() < 2) return {};  // one unit: nothing to go on
  return blocks;
}

int Fail(const std::string& error, int code) {
  std::cerr << "opengpa passes: " << error << '\n';
  return code;
}

// GpaGetPassCount of a counter subset on `session` (its enabled counters are replaced). A failure leaves
// its text in *error; while probing, GPA's own error messages are muted (the placement expects refusals).
PassCountOracle MakePassCountOracle(const GpaLibrary& library, const GpaSession& session, std::string* error) {
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
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = library.Succeeded(gpa.GpaGetPassCount(session.Id(), &passes), "GpaGetPassCount", error);
    if (std::getenv("OPENGPA_TRACE_QUESTIONS")) {
      std::fprintf(stderr, "Q %zu -> %s %.1f ms\n", subset.size(), ok ? std::to_string(passes).c_str() : "refused",
                   std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    if (!ok) return std::nullopt;
    return passes;
  };
}

// What `opengpa passes` found, for the writers.
struct PassesReport {
  client::ApiNumber api;
  DeviceDescription device;
  std::string opened_as;
  std::vector<GpaUInt32> indices;
  std::vector<std::string> names;  // by position in indices
  PassPlacement placement;
  bool split = false;          // the library cannot collect the set in one session
  bool passes_placed = false;  // counters placed in passes (else only in sessions)

  std::map<std::uint32_t, std::string> name_of;  // index -> name (every counter of a chip: a search per row is slow)

  std::string NameOf(std::uint32_t index) const {
    const auto found = name_of.find(index);
    return found == name_of.end() ? std::string() : found->second;
  }
  // "a, b, c and N more": the first counters the library refuses even alone.
  std::string UnschedulableNames(std::size_t shown = 10) const {
    std::string text;
    for (std::size_t i = 0; i < placement.unschedulable.size() && i < shown; ++i) {
      text += (i == 0 ? "" : ", ") + NameOf(placement.unschedulable[i]);
    }
    if (placement.unschedulable.size() > shown) {
      text += " and " + std::to_string(placement.unschedulable.size() - shown) + " more";
    }
    return text;
  }
};

void WritePassesJson(const PassesReport& report, std::ostream& out) {
  const PassPlacement& placement = report.placement;
  nlohmann::json json;
  json["schema"] = "opengpa-passes/1";
  json["api"] = std::string(ApiShortName(report.api));
  json["device"] = {{"name", report.device.name}, {"opened_as", report.opened_as}};
  json["passes"] = placement.library_passes ? nlohmann::json(*placement.library_passes) : nlohmann::json();
  json["placed_passes"] = placement.placed_passes;
  json["sessions"] = report.split ? placement.groups.size() : 1;
  json["questions"] = placement.questions;  // GpaGetPassCount calls the plan took
  json["placement_method"] = PlacementMethod(report.passes_placed);
  json["unschedulable"] = nlohmann::json::array();
  for (std::uint32_t index : placement.unschedulable) {
    json["unschedulable"].push_back({{"index", index}, {"name", report.NameOf(index)}});
  }
  json["groups"] = nlohmann::json::array();
  for (const auto& group : placement.groups) {
    nlohmann::json counters = nlohmann::json::array();
    for (std::uint32_t index : group.counters) counters.push_back({{"index", index}, {"name", report.NameOf(index)}});
    json["groups"].push_back(
        {{"first_pass", group.first_pass}, {"pass_count", group.pass_count}, {"counters", counters}});
  }
  out << json.dump(2) << '\n';
}

// The table as CSV, or aligned under a title that says what the numbers mean (`max_width` 0: no wrapping).
void WritePassesTable(const PassesReport& report, OutputFormat format, std::size_t max_width, std::ostream& out) {
  const PassPlacement& placement = report.placement;
  TextTable table;
  table.header = {report.passes_placed ? "pass" : "session", "passes", "index", "counter"};
  table.alignment = {Alignment::kRight, Alignment::kRight, Alignment::kRight};
  for (std::size_t g = 0; g < placement.groups.size(); ++g) {
    const PassGroup& group = placement.groups[g];
    const std::string where = report.passes_placed ? PassRange(group) : std::to_string(g + 1);
    for (std::uint32_t index : group.counters) {
      table.rows.push_back({where, std::to_string(group.pass_count), std::to_string(index), report.NameOf(index)});
    }
  }
  if (format == OutputFormat::kCsv) {
    WriteCsv(table, out);
    return;
  }
  if (max_width != 0) table.max_width = max_width;
  std::ostringstream title;
  if (report.split) {
    title << report.device.name << ": the library cannot collect these " << report.indices.size()
          << " counters in one session; " << placement.groups.size() << " sessions collect them in "
          << placement.placed_passes << " passes in all:\n";
    for (std::size_t g = 0; g < placement.groups.size(); ++g) {
      title << "  session " << g + 1 << ": " << placement.groups[g].counters.size() << " counter(s), "
            << placement.groups[g].pass_count << " pass(es)\n";
    }
  } else {
    title << report.device.name << ": " << report.indices.size() << " counter(s) need " << *placement.library_passes
          << " pass(es) in one session (GpaGetPassCount)\n";
    if (!report.passes_placed) {
      title << "Counters are not placed in passes (by default only in sets of up to " << kAutoPlacementLimit
            << "; --placement passes asks a few GpaGetPassCount questions per pass).\n";
    } else if (placement.placed_passes != *placement.library_passes) {
      title << "The placement below is derived in the order given and uses " << placement.placed_passes
            << " passes; the library's scheduler packs the whole set into " << *placement.library_passes << ".\n";
    }
  }
  if (!placement.unschedulable.empty()) {
    title << placement.unschedulable.size()
          << " counter(s) the library cannot schedule even alone are left out: " << report.UnschedulableNames()
          << ".\n";
  }
  out << WrapText(title.str(), table.max_width);
  out << '\n';
  WriteAligned(table, out);
}

int RunPasses(const PassesOptions& options) {
  std::string error;
  PassesReport report;
  if (!CollectCounterNames(options.counters, &report.names, &error)) return Fail(error, 2);
  if (!CheckContextOptions(options.context, &error)) return Fail(error, 2);
  if (!CheckOutputPath("-o", options.output, options.force, &error)) return Fail(error, 1);
  auto opened = OpenedContext::Open(options.context, &error);
  if (!opened) return Fail(error, 1);
  const GpaLibrary& library = opened->Library();
  if (!ResolveCounterIndices(library, opened->Context(), options.context.hardware, &report.names, &report.indices,
                             &error)) {
    return Fail(error, 2);
  }
  if (!DescribeDevice(library, opened->Context(), &report.device, &error)) return Fail(error, 1);
  auto session = GpaSession::Create(library, opened->Context(), &error);
  if (!session) return Fail(error, 1);

  std::string oracle_error;
  const PassCountOracle oracle = MakePassCountOracle(library, *session, &oracle_error);
  PlacementRequest request;
  const bool place_passes = options.placement == Placement::kPasses ||
                            (options.placement == Placement::kAuto && report.indices.size() <= kAutoPlacementLimit);
  request.place_passes = place_passes;
  request.blocks = HardwareUnitBlocks(library, opened->Context(), report.indices);
  if (!options.quiet && report.indices.size() >= kLargeSet) {
    std::fprintf(stderr, "opengpa passes: counting the passes of %zu counters (%zu hardware unit(s))...\n",
                 report.indices.size(), request.blocks.empty() ? std::size_t{1} : request.blocks.size());
  }
  std::optional<PassPlacement> placement;
  {
    PlacementReport progress(options.quiet);
    placement = PlaceCountersInPasses(
        report.indices, oracle, &error,
        [&progress](std::size_t placed, std::size_t total) { progress.Update(placed, total); }, request);
  }
  if (!placement) return Fail(error + " (" + oracle_error + ")", 1);
  for (std::size_t i = 0; i < report.indices.size(); ++i) report.name_of.emplace(report.indices[i], report.names[i]);
  report.api = library.Api();
  report.opened_as = opened->Api().Description();
  report.placement = std::move(*placement);
  report.split = !report.placement.library_passes.has_value();
  report.passes_placed = place_passes && !report.split;
  if (!report.placement.unschedulable.empty()) {
    std::cerr << "opengpa passes: warning: " << report.placement.unschedulable.size()
              << " counter(s) cannot be scheduled even alone (GpaGetPassCount refuses each), left out of the plan: "
              << report.UnschedulableNames() << '\n';
  }

  OutputFile file("-o", options.output, options.force, &error);
  std::ostream* out = file.Stream();
  if (!out) return Fail(error, 1);
  if (options.format == OutputFormat::kJson) {
    WritePassesJson(report, *out);
  } else {
    const bool to_stdout = options.output.empty() || options.output == "-";
    WritePassesTable(report, options.format, to_stdout ? StdoutWidth() : 0, *out);
  }
  if (!file.Finish(&error)) return Fail(error, 1);
  return 0;
}

void SetUpPasses(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<PassesOptions>();
  AddContextOptions(command, &options->context);
  AddCounterSelectionOptions(command, &options->counters);
  CLI::Option* format = command.add_option("--format", options->format, "table (default), csv or json")
                            ->transform(ChoiceOf(OutputFormatNames(), "format"));
  command
      .add_flag_callback(
          "--csv", [options] { options->format = OutputFormat::kCsv; }, "The same as --format csv (ncu's spelling)")
      ->excludes(format);
  command.add_option("-o,--output", options->output, "Write to this file instead of stdout");
  command.add_flag("-f,--force", options->force, "Overwrite an existing --output file");
  command.add_flag("-q,--quiet", options->quiet, "No progress on stderr");
  command
      .add_option("--placement", options->placement,
                  "passes: place counters in passes; sessions: only the sessions; auto (default): passes for sets "
                  "up to " +
                      std::to_string(kAutoPlacementLimit) + " counters")
      ->transform(ChoiceOf(
          std::map<std::string, Placement>{
              {"auto", Placement::kAuto}, {"passes", Placement::kPasses}, {"sessions", Placement::kSessions}},
          "placement"));
  *run = [options] { return RunPasses(*options); };
}

const bool registered = RegisterCommand(
    {"passes", "How many passes a counter set needs, and how it splits into sessions and passes", &SetUpPasses});

}  // namespace
}  // namespace opengpa::cli
