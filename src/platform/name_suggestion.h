// Names typed by a user, answered: the closest known name for a misspelt one ("did you mean 'GPUTime'?"), and a
// value quoted back in a message, bounded. One rule for the CLI and the libraries it asks (the profiler's counter
// check), so every command and API suggests and elides alike.
#ifndef OPENGPA_PLATFORM_NAME_SUGGESTION_H_
#define OPENGPA_PLATFORM_NAME_SUGGESTION_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opengpa {

// No name is this long: a longer word gets no suggestion, so a megabyte of text costs nothing.
inline constexpr std::size_t kLongestSuggestedWord = 256;

// The candidate nearest to `word` (ASCII-case-insensitive edit distance, at most a third of the word's length and
// at least 1; or `word` is a prefix of exactly one candidate); nullopt when none is near. Bounded work: a
// candidate whose length differs by more than the distance allowed is not compared, and each comparison stops
// once every alignment exceeds it, so 14,700 CUPTI metrics answer a misspelt name at once.
std::optional<std::string> ClosestName(std::string_view word, const std::vector<std::string>& candidates);

// `value` as a message may quote it: whole when at most `limit` characters, else its start, "..." and its length
// ("abcd... (1048576 characters)"), control characters (a newline, an escape) shown as '?', so no input can
// flood the terminal or move its cursor.
std::string Quoted(std::string_view value, std::size_t limit = 80);

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_NAME_SUGGESTION_H_
