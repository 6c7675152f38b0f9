// The counters a user names: --counters a,b,c and/or --counter-list FILE (one name per line, or comma
// separated; '#' starts a comment), resolved to GPA indices with GpaGetCounterIndex.
#ifndef OPENGPA_TOOLS_OPENGPA_COUNTER_SELECTION_H_
#define OPENGPA_TOOLS_OPENGPA_COUNTER_SELECTION_H_

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "gpa_library.h"

namespace opengpa::cli {

struct CounterSelection {
  std::vector<std::string> names;  // from --counters (CLI11 splits on commas)
  std::string list_file;           // --counter-list
};

void AddCounterSelectionOptions(CLI::App& command, CounterSelection* selection);

// Names in order of appearance, duplicates dropped; false and *error when the file cannot be read or
// nothing was named.
bool CollectCounterNames(const CounterSelection& selection, std::vector<std::string>* names, std::string* error);

// Parses the text of a counter list file.
std::vector<std::string> ParseCounterList(const std::string& text);

// GPA indices of `names`, matched without regard to case (name_matching.h): GpaGetCounterIndex first, then
// the context's own names. *names is rewritten in the library's spelling, and names that reach the same
// counter ("gputime,GPUTime") are kept once. False and *error naming the first unknown counter and the
// closest known name; the --hardware hint only when the context was opened without raw counters.
bool ResolveCounterIndices(const GpaLibrary& library, const GpaContext& context, bool hardware_exposed,
                           std::vector<std::string>* names, std::vector<GpaUInt32>* indices, std::string* error);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_COUNTER_SELECTION_H_
