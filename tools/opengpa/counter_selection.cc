#include "counter_selection.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "name_matching.h"

namespace opengpa::cli {
namespace {

std::string Trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

void AppendUnique(const std::string& name, std::vector<std::string>* names) {
  if (!name.empty() && std::find(names->begin(), names->end(), name) == names->end()) names->push_back(name);
}

}  // namespace

void AddCounterSelectionOptions(CLI::App& command, CounterSelection* selection) {
  command.add_option("--counters", selection->names, "Counter names, comma separated")->delimiter(',');
  command
      .add_option("--counter-list", selection->list_file,
                  "File of counter names (one per line or comma separated; # comments)")
      ->check(CLI::ExistingFile);
}

std::vector<std::string> ParseCounterList(const std::string& text) {
  std::vector<std::string> names;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) AppendUnique(Trim(field), &names);
  }
  return names;
}

bool CollectCounterNames(const CounterSelection& selection, std::vector<std::string>* names, std::string* error) {
  names->clear();
  for (const auto& name : selection.names) AppendUnique(Trim(name), names);
  if (!selection.list_file.empty()) {
    std::ifstream file(selection.list_file);
    if (!file) {
      *error = "--counter-list " + selection.list_file + ": " + std::strerror(errno);
      return false;
    }
    std::stringstream text;
    text << file.rdbuf();
    for (const auto& name : ParseCounterList(text.str())) AppendUnique(name, names);
  }
  if (names->empty()) {
    *error = "name the counters with --counters a,b,c or --counter-list FILE (see `opengpa list`)";
    return false;
  }
  return true;
}

bool ResolveCounterIndices(const GpaLibrary& library, const GpaContext& context, bool hardware_exposed,
                           std::vector<std::string>* names, std::vector<GpaUInt32>* indices, std::string* error) {
  indices->clear();
  const GpaFunctionTable& gpa = library.Gpa();
  std::vector<std::string> known;  // the context's names, read once and only when a name needs them
  auto known_names = [&]() -> const std::vector<std::string>& {
    if (known.empty()) {
      GpaUInt32 count = 0;
      if (gpa.GpaGetNumCounters(context.Id(), &count) == kGpaStatusOk) {
        for (GpaUInt32 i = 0; i < count; ++i) {
          const char* name = nullptr;
          known.emplace_back(gpa.GpaGetCounterName(context.Id(), i, &name) == kGpaStatusOk && name ? name : "");
        }
      }
    }
    return known;
  };
  std::vector<std::string> resolved;
  for (const auto& name : *names) {
    GpaUInt32 index = 0;
    bool found = false;
    {
      GpaErrorLogMute mute;  // a miss here is answered below, with the case-insensitive match
      found = gpa.GpaGetCounterIndex(context.Id(), name.c_str(), &index) == kGpaStatusOk;
    }
    std::string spelling = name;
    if (!found) {
      const auto& all = known_names();
      for (GpaUInt32 i = 0; i < all.size() && !found; ++i) {
        if (SameName(all[i], name)) {
          index = i;
          spelling = all[i];
          found = true;
        }
      }
    }
    if (!found) {
      *error = "--counters: counter '" + name + "' is not offered by this context";
      if (const auto near = ClosestName(name, known_names())) *error += "; did you mean '" + *near + "'?";
      *error += hardware_exposed ? " (see `opengpa list --hardware`)"
                                 : " (see `opengpa list`; raw hardware metrics need --hardware)";
      return false;
    }
    if (const char* library_name = nullptr;
        gpa.GpaGetCounterName(context.Id(), index, &library_name) == kGpaStatusOk && library_name) {
      spelling = library_name;  // the library's spelling, whatever case the user typed
    }
    if (std::find(indices->begin(), indices->end(), index) != indices->end()) continue;
    indices->push_back(index);
    resolved.push_back(spelling);
  }
  *names = std::move(resolved);
  return true;
}

}  // namespace opengpa::cli
