// Whether a text begins or ends with another: metric and counter names are told apart by their prefixes and
// suffixes ("sm__", ".sum", ".pct_of_peak_sustained_elapsed"). C++17 has no std::string_view::starts_with.
#ifndef OPENGPA_PLATFORM_TEXT_AFFIXES_H_
#define OPENGPA_PLATFORM_TEXT_AFFIXES_H_

#include <string_view>

namespace opengpa {

inline bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

inline bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_TEXT_AFFIXES_H_
