// A CLI11 check for options that take a number with a lower bound only (--duration-s, --timeout): the message
// names the value and the bound in words ("-1 is negative: give 0 or more seconds"), where CLI11's own
// NonNegativeNumber and PositiveNumber print their upper bound, DBL_MAX, as a 309-digit number.
#ifndef OPENGPA_TOOLS_OPENGPA_NUMBER_OPTION_H_
#define OPENGPA_TOOLS_OPENGPA_NUMBER_OPTION_H_

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

#include "name_matching.h"

namespace opengpa::cli {

// `unit` names what the number counts ("seconds"). With `zero_allowed` 0 passes, else only more than 0 does.
inline CLI::Validator NumberOf(const std::string& unit, bool zero_allowed) {
  const std::string wanted = zero_allowed ? "0 or more " + unit : "more than 0 " + unit;
  return {[wanted, zero_allowed](const std::string& value) -> std::string {
            char* end = nullptr;
            const double number = std::strtod(value.c_str(), &end);
            if (value.empty() || end == nullptr || *end != '\0' || !std::isfinite(number)) {
              return "'" + Quoted(value) + "' is not a number: give " + wanted;
            }
            if (number < 0 || (number == 0 && !zero_allowed)) return Quoted(value) + " is out of range: give " + wanted;
            return {};
          },
          zero_allowed ? "NUMBER>=0" : "NUMBER>0"};
}

}  // namespace opengpa::cli

#endif  // OPENGPA_TOOLS_OPENGPA_NUMBER_OPTION_H_
