#include "platform/name_suggestion.h"

#include <algorithm>
#include <cctype>

namespace opengpa {
namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool StartsWithIgnoringCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(), [](char x, char y) { return Lower(x) == Lower(y); });
}

// Case-insensitive edit distance, or `limit + 1` as soon as it must exceed `limit`.
std::size_t EditDistance(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t length_gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (length_gap > limit) return limit + 1;
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    std::size_t best_in_row = row[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (Lower(a[i - 1]) == Lower(b[j - 1]) ? 0 : 1)});
      diagonal = above;
      best_in_row = std::min(best_in_row, row[j]);
    }
    if (best_in_row > limit) return limit + 1;  // every alignment already costs more
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string> ClosestName(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty() || word.size() > kLongestSuggestedWord) return std::nullopt;
  const std::size_t allowed = std::max<std::size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  std::vector<const std::string*> prefixed;
  for (const auto& candidate : candidates) {
    const std::size_t distance = EditDistance(word, candidate, std::min(allowed, best_distance));
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
    if (StartsWithIgnoringCase(candidate, word)) prefixed.push_back(&candidate);
  }
  if (best) return best;
  if (prefixed.size() == 1) return *prefixed.front();
  return std::nullopt;
}

std::string Quoted(std::string_view value, std::size_t limit) {
  std::string shown(value.substr(0, value.size() > limit ? limit * 3 / 4 : value.size()));
  for (char& c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  if (value.size() > limit) shown += "... (" + std::to_string(value.size()) + " characters)";
  return shown;
}

}  // namespace opengpa
