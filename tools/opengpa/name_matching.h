// One rule for names typed on the command line, everywhere in `opengpa`: commands, APIs, chips, groups,
// formats and counters match without regard to ASCII case ("gputime" is GPUTime, "gh100" is GH100), and
// an unknown name is answered with the closest known one.
#ifndef OPENGPA_TOOLS_OPENGPA_NAME_MATCHING_H_
#define OPENGPA_TOOLS_OPENGPA_NAME_MATCHING_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opengpa::cli {

bool SameName(std::string_view a, std::string_view b);
std::string LowerCase(std::string_view text);
std::string UpperCase(std::string_view text);

// The candidate nearest to `word` (case-insensitive edit distance, at most a third of the word's length and
// at least 1; or `word` is a prefix of exactly one candidate); nullopt when none is near.
std::optional<std::string> ClosestName(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_NAME_MATCHING_H_
