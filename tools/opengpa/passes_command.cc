// `opengpa passes`: how many passes a counter set needs (GpaGetPassCount on the whole set) and a plan:
// the sessions a set the library cannot collect at once splits into, or which counters land in which
// pass of one session (pass_placement.h). Each plan question is one GpaGetPassCount of a counter subset;
// the library caches its answers per hardware-counter set, and progress is shown on anything long.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
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
#include "terminal.h"
#include "text_table.h"

namespace opengpa::cli {
namespace {

// Sets up to this size get a per-pass placement by default (--placement auto); larger ones the sessions
// only, in about the time the library takes to count their passes.
constexpr std::size_t kAutoPlacementLimit = 256;

enum class Placement { kAuto, kPasses, kSessions };

const char* PlacementMethod(bool passes_placed) {
  return passes_placed ? "GpaGetPassCount of the whole set; sessions by halving refused blocks; passes by longest "
                         "runs that keep a pass's count"
                       : "GpaGetPassCount of the whole set; sessions by halving refused blocks";
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
    std::fprintf(stderr, "%sopengpa passes: placed %zu of %zu counters (%.1f s)%s", interactive_ ? "\r" : "",
                 placed, total, elapsed, interactive_ ? "" : "\n");
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

int RunPasses(const PassesOptions& options) {
  std::string error;
  std::vector<std::string> names;
  if (!CollectCounterNames(options.counters, &names, &error)) return Fail(error, 2);
  if (!CheckOutputPath("-o", options.output, options.force, &error)) return Fail(error, 1);
  auto opened = OpenedContext::Open(options.context, &error);
  if (!opened) return Fail(error, 1);
  const GpaLibrary& library = opened->Library();
  std::vector<GpaUInt32> indices;
  DeviceDescription device;
  if (!ResolveCounterIndices(library, opened->Context(), options.context.hardware, &names, &indices, &error)) {
    return Fail(error, 2);
  }
  if (!DescribeDevice(library, opened->Context(), &device, &error)) return Fail(error, 1);
  auto session = GpaSession::Create(library, opened->Context(), &error);
  if (!session) return Fail(error, 1);

  std::string oracle_error;
  const PassCountOracle oracle = [&](const std::vector<std::uint32_t>& subset,
                                    bool probing) -> std::optional<std::uint32_t> {
    std::optional<GpaErrorLogMute> mute;
    if (probing) mute.emplace();
    const GpaFunctionTable& gpa = library.Gpa();
    if (!library.Succeeded(gpa.GpaDisableAllCounters(session->Id()), "GpaDisableAllCounters", &oracle_error)) {
      return std::nullopt;
    }
    for (std::uint32_t index : subset) {
      if (!library.Succeeded(gpa.GpaEnableCounter(session->Id(), index), "GpaEnableCounter " + std::to_string(index),
                             &oracle_error)) {
        return std::nullopt;
      }
    }
    GpaUInt32 passes = 0;
    if (!library.Succeeded(gpa.GpaGetPassCount(session->Id(), &passes), "GpaGetPassCount", &oracle_error)) {
      return std::nullopt;
    }
    return passes;
  };
  PlacementRequest request;
  const bool place_passes = options.placement == Placement::kPasses ||
                            (options.placement == Placement::kAuto && indices.size() <= kAutoPlacementLimit);
  request.place_passes = place_passes;
  request.blocks = HardwareUnitBlocks(library, opened->Context(), indices);
  if (!options.quiet && indices.size() >= kLargeSet) {
    std::fprintf(stderr, "opengpa passes: counting the passes of %zu counters (%zu hardware unit(s))...\n", indices.size(),
                 request.blocks.empty() ? std::size_t{1} : request.blocks.size());
  }
  std::optional<PassPlacement> placement;
  {
    PlacementReport report(options.quiet);
    placement = PlaceCountersInPasses(
        indices, oracle, &error, [&report](std::size_t placed, std::size_t total) { report.Update(placed, total); },
        request);
  }
  if (!placement) return Fail(error + " (" + oracle_error + ")", 1);
  auto name_of = [&](std::uint32_t index) {
    for (std::size_t i = 0; i < indices.size(); ++i) {
      if (indices[i] == index) return names[i];
    }
    return std::string();
  };
  const bool split = !placement->library_passes.has_value();
  const bool passes_placed = place_passes && !split;

  OutputFile file("-o", options.output, options.force, &error);
  std::ostream* out = file.Stream();
  if (!out) return Fail(error, 1);
  if (options.format == OutputFormat::kJson) {
    nlohmann::json json;
    json["schema"] = "opengpa-passes/1";
    json["api"] = std::string(ApiShortName(library.Api()));
    json["device"] = {{"name", device.name}, {"opened_as", opened->Api().Description()}};
    json["passes"] = placement->library_passes ? nlohmann::json(*placement->library_passes) : nlohmann::json();
    json["placed_passes"] = placement->placed_passes;
    json["sessions"] = split ? placement->groups.size() : 1;
    json["placement_method"] = PlacementMethod(passes_placed);
    json["groups"] = nlohmann::json::array();
    for (const auto& group : placement->groups) {
      nlohmann::json counters = nlohmann::json::array();
      for (std::uint32_t index : group.counters) counters.push_back({{"index", index}, {"name", name_of(index)}});
      json["groups"].push_back(
          {{"first_pass", group.first_pass}, {"pass_count", group.pass_count}, {"counters", counters}});
    }
    *out << json.dump(2) << '\n';
  } else {
    TextTable table;
    table.header = {passes_placed ? "pass" : "session", "passes", "index", "counter"};
    table.alignment = {Alignment::kRight, Alignment::kRight, Alignment::kRight};
    for (std::size_t g = 0; g < placement->groups.size(); ++g) {
      const PassGroup& group = placement->groups[g];
      const std::string where = passes_placed ? PassRange(group) : std::to_string(g + 1);
      for (std::uint32_t index : group.counters) {
        table.rows.push_back({where, std::to_string(group.pass_count), std::to_string(index), name_of(index)});
      }
    }
    if (options.format == OutputFormat::kCsv) {
      WriteCsv(table, *out);
    } else {
      if (options.output.empty() || options.output == "-") table.max_width = StdoutWidth();
      std::ostringstream title;
      if (split) {
        title << device.name << ": the library cannot collect these " << indices.size()
              << " counters in one session; " << placement->groups.size() << " sessions collect them in "
              << placement->placed_passes << " passes in all:\n";
        for (std::size_t g = 0; g < placement->groups.size(); ++g) {
          title << "  session " << g + 1 << ": " << placement->groups[g].counters.size() << " counter(s), "
                << placement->groups[g].pass_count << " pass(es)\n";
        }
      } else {
        title << device.name << ": " << indices.size() << " counter(s) need " << *placement->library_passes
              << " pass(es) in one session (GpaGetPassCount)\n";
        if (!passes_placed) {
          title << "Counters are not placed in passes (by default only in sets of up to " << kAutoPlacementLimit
                << "; --placement passes asks a few GpaGetPassCount questions per pass).\n";
        } else if (placement->placed_passes != *placement->library_passes) {
          title << "The placement below is derived in the order given and uses " << placement->placed_passes
                << " passes; the library's scheduler packs the whole set into " << *placement->library_passes
                << ".\n";
        }
      }
      *out << WrapText(title.str(), table.max_width);
      *out << '\n';
      WriteAligned(table, *out);
    }
  }
  if (!file.Finish(&error)) return Fail(error, 1);
  return 0;
}

void SetUpPasses(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<PassesOptions>();
  AddContextOptions(command, &options->context);
  AddCounterSelectionOptions(command, &options->counters);
  command.add_option("--format", options->format, "table (default), csv or json")
      ->transform(ChoiceOf(OutputFormatNames(), "format"));
  command.add_option("-o,--output", options->output, "Write to this file instead of stdout");
  command.add_flag("-f,--force", options->force, "Overwrite an existing --output file");
  command.add_flag("-q,--quiet", options->quiet, "No progress on stderr");
  command
      .add_option("--placement", options->placement,
                  "passes: place counters in passes; sessions: only the sessions; auto (default): passes for sets "
                  "up to " + std::to_string(kAutoPlacementLimit) + " counters")
      ->transform(ChoiceOf(std::map<std::string, Placement>{{"auto", Placement::kAuto},
                                                             {"passes", Placement::kPasses},
                                                             {"sessions", Placement::kSessions}},
                           "placement"));
  *run = [options] { return RunPasses(*options); };
}

const bool registered = RegisterCommand(
    {"passes", "How many passes a counter set needs, and how it splits into sessions and passes", &SetUpPasses});

}  // namespace
}  // namespace opengpa::cli
