// One rule for names typed on the command line, everywhere in `opengpa`: commands, APIs, chips, groups,
// formats and counters match without regard to ASCII case ("gputime" is GPUTime, "gh100" is GH100), and
// an unknown name is answered with the closest known one.
#ifndef OPENGPA_TOOLS_OPENGPA_NAME_MATCHING_H_
#define OPENGPA_TOOLS_OPENGPA_NAME_MATCHING_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/name_suggestion.h"

namespace opengpa::cli {

bool SameName(std::string_view a, std::string_view b);
std::string LowerCase(std::string_view text);
std::string UpperCase(std::string_view text);

// ClosestName (did you mean) and Quoted (a value in a message, bounded): platform/name_suggestion.h, shared with
// the libraries the CLI asks.
using ::opengpa::ClosestName;
using ::opengpa::Quoted;

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_NAME_MATCHING_H_
