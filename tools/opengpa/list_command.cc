// `opengpa list`: every counter of a context (NvPmApiQuery's enumeration, through the GPA API), or of the offline
// counter library's context for a device given by its ids (--vendor-id, --device-id).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>

#include "api_name.h"
#include "choice_option.h"
#include "command_registry.h"
#include "counter_description.h"
#include "counter_library_listing.h"
#include "name_matching.h"
#include "nvpmapi_listing.h"
#include "opened_context.h"
#include "output_file.h"
#include "output_format.h"
#include "platform/text_table.h"
#include "terminal.h"

namespace opengpa::cli {
namespace {

struct ListOptions {
  ContextOptions context;
  bool names_only = false;
  std::vector<std::string> groups;
  OutputFormat format = OutputFormat::kTable;
  std::string output;
  bool force = false;
  bool nvpmapi = false;
  bool wide = false;  // every column, whole (the default table: index, name, group, usage, description cut)
  // --vendor-id / --device-id / --revision-id: the offline counter library's context for those ids
  // (counter_library_listing.h) instead of a GPA context on a device.
  std::string vendor_id;
  std::string device_id;
  std::string revision_id;
};

nlohmann::json CounterJson(const CounterDescription& counter, bool names_only) {
  nlohmann::json json = {{"index", counter.index}, {"name", counter.name}};
  if (names_only) return json;
  json["group"] = counter.group;
  json["description"] = counter.description;
  json["data_type"] = counter.data_type;
  json["usage"] = counter.usage;
  json["uuid"] = counter.uuid;
  json["sample_type"] = counter.sample_type;
  if (counter.formula) json["formula"] = *counter.formula;
  if (counter.hardware_unit) json["hardware_unit"] = *counter.hardware_unit;
  return json;
}

void WriteJson(const ListOptions& options, const std::string& api_name, const std::string& opened_as,
               bool formulas_available, const DeviceDescription& device,
               const std::vector<CounterDescription>& counters, std::ostream& out) {
  nlohmann::json json;
  json["schema"] = "opengpa-counters/1";
  json["api"] = api_name;
  json["device"] = {{"name", device.name},
                    {"device_id", device.device_id},
                    {"revision_id", device.revision_id},
                    {"generation", device.generation},
                    {"opened_as", opened_as}};
  json["hardware_counters"] = options.context.hardware;
  json["formulas_available"] = formulas_available;
  json["counters"] = nlohmann::json::array();
  for (const auto& counter : counters) json["counters"].push_back(CounterJson(counter, options.names_only));
  out << json.dump(2) << '\n';
}

// The table's width: the terminal's (or $COLUMNS), else kPipedTableWidth; --wide: no limit.
constexpr std::size_t kPipedTableWidth = 120;

std::size_t TableWidth(const ListOptions& options) {
  if (options.wide) return 0;
  const bool to_terminal = options.output.empty() || options.output == "-";
  const std::size_t width = to_terminal ? StdoutWidth() : 0;
  return width > 0 ? width : kPipedTableWidth;
}

// CSV (and --wide) hold every column; the default table leaves out the type, unit and formula, keeps the
// index and name whole and cuts the description to the width, one line per counter.
TextTable BuildTable(const std::vector<CounterDescription>& counters, bool names_only, bool every_column = true) {
  TextTable table;
  if (names_only) {
    table.header = {"name"};
    for (const auto& counter : counters) table.rows.push_back({counter.name});
    return table;
  }
  const bool any_unit = std::any_of(counters.begin(), counters.end(),
                                    [](const CounterDescription& c) { return c.hardware_unit.has_value(); });
  const bool any_formula =
      std::any_of(counters.begin(), counters.end(), [](const CounterDescription& c) { return c.formula.has_value(); });
  table.header = {"index", "name", "group", "usage"};
  table.alignment = {Alignment::kRight};
  table.whole_columns = 2;
  table.cut_last_column = true;
  if (every_column) table.header.emplace_back("type");
  if (every_column && any_unit) table.header.emplace_back("unit");
  if (every_column && any_formula) table.header.emplace_back("formula");
  table.header.emplace_back("description");
  for (const auto& counter : counters) {
    std::vector<std::string> row = {std::to_string(counter.index), counter.name, counter.group, counter.usage};
    if (every_column) row.push_back(counter.data_type);
    if (every_column && any_unit) row.push_back(counter.hardware_unit.value_or(""));
    if (every_column && any_formula) row.push_back(counter.formula.value_or(""));
    row.push_back(counter.description);
    table.rows.push_back(std::move(row));
  }
  return table;
}

// --nvpmapi: NvPmApiQuery's listing, as a table or CSV.
int RunNvPmApiList(const ListOptions& options) {
  std::string error;
  TextTable table;
  std::string title;
  if (options.format == OutputFormat::kJson) {
    std::cerr << "opengpa list: --nvpmapi prints a table or CSV (NvPmApiQuery's columns), not JSON\n";
    return 1;
  }
  if (!ListThroughNvPmApi(options.context, options.names_only, &table, &title, &error)) {
    std::cerr << "opengpa list: " << error << '\n';
    return 1;
  }
  OutputFile file("-o", options.output, options.force, &error);
  std::ostream* out = file.Stream();
  if (!out) {
    std::cerr << "opengpa list: " << error << '\n';
    return 1;
  }
  if (options.format == OutputFormat::kCsv) {
    WriteCsv(table, *out);
  } else if (options.names_only) {
    for (const auto& row : table.rows) *out << row[0] << '\n';
  } else {
    const bool to_terminal = options.output.empty() || options.output == "-";
    *out << WrapText(title, to_terminal ? StdoutWidth() : 0) << "\n\n";
    if (to_terminal) table.max_width = StdoutWidth();
    WriteAligned(table, *out);
  }
  if (!file.Finish(&error)) {
    std::cerr << "opengpa list: " << error << '\n';
    return 1;
  }
  return 0;
}

// Where the counters come from: a GPA context on a device (or chip), or the counter library's for device ids.
struct ListSource {
  std::unique_ptr<OpenedContext> opened;  // null for the counter library
  std::string api_name;
  std::string opened_as;
  bool formulas = false;
};

// The counter library's request from --api, --vendor-id, --device-id and --revision-id; false and *error for a
// usage error (a missing or malformed id, an option that names another kind of context).
bool CounterLibraryRequest(const ListOptions& options, CounterLibraryDevice* request, std::string* error) {
  if (options.context.api == kGpaApiLast || options.vendor_id.empty() || options.device_id.empty()) {
    *error = "the counter library needs --api cuda|vk|gl|cl, --vendor-id and --device-id together";
    return false;
  }
  if (options.context.device >= 0 || !options.context.chip.empty() || options.nvpmapi) {
    *error =
        "--vendor-id/--device-id name a device for the offline counter library: not with --device, --chip or "
        "--nvpmapi";
    return false;
  }
  const std::pair<const std::string*, GpaUInt32*> ids[] = {{&options.vendor_id, &request->vendor_id},
                                                           {&options.device_id, &request->device_id},
                                                           {&options.revision_id, &request->revision_id}};
  for (const auto& [text, value] : ids) {
    if (!text->empty() && !ParseDeviceId(*text, value)) {
      *error = "'" + Quoted(*text) + "' is not a 32-bit id (write 0x13B5 or 5045)";
      return false;
    }
  }
  request->api = options.context.api;
  request->hardware = options.context.hardware;
  request->verbose = options.context.verbose;
  return true;
}

bool DescribeFromCounterLibrary(const CounterLibraryDevice& request, ListSource* source, DeviceDescription* device,
                                std::vector<CounterDescription>* counters, std::string* error) {
  if (!DescribeThroughCounterLibrary(request, device, counters, error)) return false;
  source->api_name = std::string(ApiShortName(request.api));
  source->opened_as = "libGPUPerfAPICounters.so, the offline counter library: no device";
  source->formulas = std::any_of(counters->begin(), counters->end(),
                                 [](const CounterDescription& counter) { return counter.formula.has_value(); });
  return true;
}

bool DescribeFromContext(const ListOptions& options, ListSource* source, DeviceDescription* device,
                         std::vector<CounterDescription>* counters, std::string* error) {
  source->opened = OpenedContext::Open(options.context, error);
  if (!source->opened) return false;
  source->api_name = std::string(ApiShortName(source->opened->Library().Api()));
  source->opened_as = source->opened->Api().Description();
  source->formulas = source->opened->Library().Extensions().get_counter_formula != nullptr;
  return DescribeDevice(source->opened->Library(), source->opened->Context(), device, error) &&
         DescribeCounters(source->opened->Library(), source->opened->Context(), counters, error);
}

int RunList(const ListOptions& options) {
  std::string error;
  const bool counter_library = !options.vendor_id.empty() || !options.device_id.empty() || !options.revision_id.empty();
  CounterLibraryDevice request;
  // Usage errors (exit 2) before anything is opened or written.
  if (!(counter_library ? CounterLibraryRequest(options, &request, &error)
                        : CheckContextOptions(options.context, &error))) {
    std::cerr << "opengpa list: " << error << '\n';
    return 2;
  }
  if (!CheckOutputPath("-o", options.output, options.force, &error)) {
    std::cerr << "opengpa list: " << error << '\n';
    return 1;
  }
  if (options.nvpmapi && !counter_library) return RunNvPmApiList(options);
  ListSource source;
  DeviceDescription device;
  std::vector<CounterDescription> counters;
  if (!(counter_library ? DescribeFromCounterLibrary(request, &source, &device, &counters, &error)
                        : DescribeFromContext(options, &source, &device, &counters, &error))) {
    std::cerr << "opengpa list: " << error << '\n';
    return 1;
  }
  if (!options.groups.empty()) {
    counters.erase(std::remove_if(counters.begin(), counters.end(),
                                  [&options](const CounterDescription& counter) {
                                    return std::none_of(options.groups.begin(), options.groups.end(),
                                                        [&counter](const std::string& group) {
                                                          return SameName(group, counter.group);
                                                        });
                                  }),
                   counters.end());
    if (counters.empty()) {  // a value the context does not offer: a usage error
      std::cerr << "opengpa list: no counter is in --group";
      for (const auto& group : options.groups) std::cerr << " '" << Quoted(group) << "'";
      std::cerr << " (run without --group to see the groups)\n";
      return 2;
    }
  }

  OutputFile file("-o", options.output, options.force, &error);
  std::ostream* out = file.Stream();
  if (!out) {
    std::cerr << "opengpa list: " << error << '\n';
    return 1;
  }
  switch (options.format) {
    case OutputFormat::kJson:
      WriteJson(options, source.api_name, source.opened_as, source.formulas, device, counters, *out);
      break;
    case OutputFormat::kCsv: WriteCsv(BuildTable(counters, options.names_only), *out); break;
    case OutputFormat::kTable:
      if (options.names_only) {
        for (const auto& counter : counters) *out << counter.name << '\n';
        break;
      }
      {
        const std::string title = std::to_string(counters.size()) + " counters of " + device.name + " (" +
                                  source.opened_as + ")" +
                                  (source.formulas ? "" : "; this library exports no formulas") +
                                  (options.wide ? "" : "; --wide shows every column");
        *out << WrapText(title, TableWidth(options)) << "\n\n";
      }
      TextTable table = BuildTable(counters, false, options.wide);
      table.max_width = TableWidth(options);
      WriteAligned(table, *out);
      break;
  }
  if (!file.Finish(&error)) {
    std::cerr << "opengpa list: " << error << '\n';
    return 1;
  }
  return 0;
}

void SetUpList(CLI::App& command, RunFunction* run) {
  auto options = std::make_shared<ListOptions>();
  AddContextOptions(command, &options->context);
  command.add_flag("-n,--names", options->names_only, "Print only the counter names");
  command.add_option("--group", options->groups, "Only counters of this group (repeatable, case-insensitive)");
  CLI::Option* format = command.add_option("--format", options->format, "table (default), csv or json")
                            ->transform(ChoiceOf(OutputFormatNames(), "format"));
  command
      .add_flag_callback(
          "--csv", [options] { options->format = OutputFormat::kCsv; }, "The same as --format csv (ncu's spelling)")
      ->excludes(format);
  command.add_flag("--wide", options->wide,
                   "Table: every column (type, unit, formula), whole; by default the description is cut to the "
                   "terminal's width (120 columns when not a terminal)");
  command.add_option("-o,--output", options->output, "Write to this file instead of stdout");
  command.add_flag("-f,--force", options->force, "Overwrite an existing --output file");
  command.add_flag("--nvpmapi", options->nvpmapi,
                   "List as PerfKit's NvPmApi (libNvPmApi.Core.so) offers them: NvPmApiQuery's columns");
  command.add_option("--vendor-id", options->vendor_id,
                     "With --device-id: list what the offline counter library (libGPUPerfAPICounters.so) describes "
                     "for these PCI ids, no GPU needed (e.g. --api vk --vendor-id 0x13B5 --device-id 0xE800: Arm "
                     "Mali-G1-Ultra)");
  command.add_option("--device-id", options->device_id, "The device id for --vendor-id");
  command.add_option("--revision-id", options->revision_id, "The revision id for --vendor-id (default 0)");
  *run = [options] { return RunList(*options); };
}

const bool registered = RegisterCommand({"list", "List every counter of a device or chip", &SetUpList});

}  // namespace
}  // namespace opengpa::cli
