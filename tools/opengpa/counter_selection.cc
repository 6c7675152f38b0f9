#include "counter_selection.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "name_matching.h"

namespace opengpa::cli {
namespace {

std::string Trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

// Names in order of first appearance; `seen` makes each test constant-time (100,000 names used to take 30 s).
void AppendUnique(const std::string& name, std::vector<std::string>* names, std::unordered_set<std::string>* seen) {
  if (!name.empty() && seen->insert(name).second) names->push_back(name);
}

}  // namespace

void AddCounterSelectionOptions(CLI::App& command, CounterSelection* selection) {
  // --metrics is ncu's name for the same list. One value per occurrence (repeatable), so that `--counters a ./app`
  // leaves ./app to the program.
  command.add_option("--counters,--metrics", selection->names, "Counter names, comma separated (repeatable)")
      ->delimiter(',')
      ->allow_extra_args(false);
  command
      .add_option("--counter-list", selection->list_file,
                  "File of counter names (one per line or comma separated; # comments)")
      ->check(CLI::ExistingFile);
}

std::vector<std::string> ParseCounterList(const std::string& text) {
  std::vector<std::string> names;
  std::unordered_set<std::string> seen;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) AppendUnique(Trim(field), &names, &seen);
  }
  return names;
}

bool CollectCounterNames(const CounterSelection& selection, std::vector<std::string>* names, std::string* error) {
  names->clear();
  std::unordered_set<std::string> seen;
  for (const auto& name : selection.names) AppendUnique(Trim(name), names, &seen);
  if (!selection.list_file.empty()) {
    std::ifstream file(selection.list_file);
    if (!file) {
      *error = "--counter-list " + Quoted(selection.list_file, 200) + ": " + std::strerror(errno);
      return false;
    }
    std::stringstream text;
    text << file.rdbuf();
    for (const auto& name : ParseCounterList(text.str())) AppendUnique(name, names, &seen);
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
  std::unordered_set<GpaUInt32> seen;
  std::unordered_map<std::string, GpaUInt32> by_lower_case;  // the first of names that differ only in case
  for (const auto& name : *names) {
    GpaUInt32 index = 0;
    bool found = false;
    {
      GpaErrorLogMute mute;  // a miss here is answered below, with the case-insensitive match
      found = gpa.GpaGetCounterIndex(context.Id(), name.c_str(), &index) == kGpaStatusOk;
    }
    std::string spelling = name;
    if (!found) {
      if (by_lower_case.empty()) {  // built once, and only when a name needs it
        const auto& all = known_names();
        for (GpaUInt32 i = 0; i < all.size(); ++i) by_lower_case.emplace(LowerCase(all[i]), i);
      }
      if (const auto match = by_lower_case.find(LowerCase(name)); match != by_lower_case.end()) {
        index = match->second;
        spelling = known_names()[index];
        found = true;
      }
    }
    if (!found) {
      *error = "--counters: counter '" + Quoted(name) + "' is not offered by this context";
      if (const auto near = ClosestName(name, known_names())) *error += "; did you mean '" + *near + "'?";
      *error += hardware_exposed ? " (see `opengpa list --hardware`)"
                                 : " (see `opengpa list`; raw hardware metrics need --hardware)";
      return false;
    }
    if (const char* library_name = nullptr;
        gpa.GpaGetCounterName(context.Id(), index, &library_name) == kGpaStatusOk && library_name) {
      spelling = library_name;  // the library's spelling, whatever case the user typed
    }
    if (!seen.insert(index).second) continue;
    indices->push_back(index);
    resolved.push_back(spelling);
  }
  *names = std::move(resolved);
  return true;
}

}  // namespace opengpa::cli
