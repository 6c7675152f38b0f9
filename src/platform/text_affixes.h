// Whether a text begins or ends with another: metric and counter names are told apart by their prefixes and
// suffixes ("sm__", ".sum", ".pct_of_peak_sustained_elapsed"). C++17 has no std::string_view::starts_with. And
// whether two texts are equal without regard to ASCII case: counter names, formula functions and HTTP header names
// match that way.
#ifndef OPENGPA_PLATFORM_TEXT_AFFIXES_H_
#define OPENGPA_PLATFORM_TEXT_AFFIXES_H_

#include <cctype>
#include <string_view>

namespace opengpa {

inline bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

inline bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

inline bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_TEXT_AFFIXES_H_
