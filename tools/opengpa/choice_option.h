// A CLI11 transform for options that take one of a few names (--format, --placement): any case is accepted
// (name_matching.h) and an unknown value is refused naming it and the choices, never CLI11's internal map.
#ifndef OPENGPA_TOOLS_OPENGPA_CHOICE_OPTION_H_
#define OPENGPA_TOOLS_OPENGPA_CHOICE_OPTION_H_

#include <CLI/CLI.hpp>

#include <map>
#include <string>

#include "name_matching.h"

namespace opengpa::cli {

// `choices` maps each name to its enum value; `what` names the kind of value in messages ("format").
template <typename Enum>
CLI::Validator ChoiceOf(const std::map<std::string, Enum>& choices, const std::string& what) {
  std::string listed;
  for (auto it = choices.begin(); it != choices.end(); ++it) listed += (it == choices.begin() ? "" : ", ") + it->first;
  return CLI::Validator(
      [choices, what, listed](std::string& value) -> std::string {
        const auto found = choices.find(LowerCase(value));
        if (found == choices.end()) return "unknown " + what + " '" + Quoted(value) + "' (choose " + listed + ")";
        value = std::to_string(static_cast<int>(found->second));
        return {};
      },
      "{" + listed + "}");
}

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_CHOICE_OPTION_H_
