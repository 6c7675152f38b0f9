#include "counter_selection.h"

#include <algorithm>
#include <fstream>
#include <sstream>

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
  command.add_option("--counter-list", selection->list_file,
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
      *error = "cannot read --counter-list " + selection.list_file;
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

bool ResolveCounterIndices(const GpaLibrary& library, const GpaContext& context, const std::vector<std::string>& names,
                           std::vector<GpaUInt32>* indices, std::string* error) {
  indices->clear();
  for (const auto& name : names) {
    GpaUInt32 index = 0;
    const GpaStatus status = library.Gpa().GpaGetCounterIndex(context.Id(), name.c_str(), &index);
    if (status != kGpaStatusOk) {
      *error = "counter \"" + name + "\" is not offered by this context (see `opengpa list`" +
               std::string(status == kGpaStatusErrorCounterNotFound ? "; raw metrics need --hardware)" : ")");
      return false;
    }
    indices->push_back(index);
  }
  return true;
}

}  // namespace opengpa::cli
