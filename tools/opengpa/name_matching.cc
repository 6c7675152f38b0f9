#include "name_matching.h"

#include <algorithm>
#include <cctype>

#include "platform/text_affixes.h"

namespace opengpa::cli {
namespace {

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

}  // namespace

bool SameName(std::string_view a, std::string_view b) { return EqualsIgnoringCase(a, b); }

std::string LowerCase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), Lower);
  return out;
}

std::string UpperCase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
  return out;
}

}  // namespace opengpa::cli
