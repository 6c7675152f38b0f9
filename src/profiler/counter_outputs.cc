#include "profiler/counter_outputs.h"

#include <cmath>
#include <limits>

#include "counters/expression.h"

namespace opengpa::profiling {

bool EvaluateOutputs(ProfileRun* run, std::string* error, bool missing_is_unavailable) {
  if (run->outputs.empty()) return true;
  // One input past the columns, always NaN: where a formula's missing names point when they are allowed.
  const auto unavailable = static_cast<std::uint32_t>(run->counters.size());
  // Formula names: a measured column first, then a constant (the order the library's counter set uses).
  const SymbolResolver resolve = [run, unavailable,
                                  missing_is_unavailable](std::string_view name) -> std::optional<Symbol> {
    for (std::size_t i = 0; i < run->counters.size(); ++i) {
      if (run->counters[i].name == name) return Symbol{Symbol::Kind::kInput, static_cast<std::uint32_t>(i), 0.0};
    }
    for (const auto& [constant, value] : run->constants) {
      if (constant == name) return Symbol{Symbol::Kind::kConstant, 0, value};
    }
    if (missing_is_unavailable) return Symbol{Symbol::Kind::kInput, unavailable, 0.0};
    return std::nullopt;
  };
  std::vector<Expression> formulas(run->outputs.size());
  for (std::size_t i = 0; i < run->outputs.size(); ++i) {
    std::string parse_error;
    if (!Expression::Parse(run->outputs[i].formula, resolve, &formulas[i], &parse_error)) {
      *error = "counter " + run->outputs[i].name + ": " + parse_error;
      return false;
    }
  }
  for (Sample& sample : run->samples) {
    std::vector<double> values(formulas.size(), std::numeric_limits<double>::quiet_NaN());
    if (sample.values.size() == run->counters.size()) {
      sample.values.push_back(std::numeric_limits<double>::quiet_NaN());  // the `unavailable` input
      for (std::size_t i = 0; i < formulas.size(); ++i) {
        // A missing input (null in the stream) leaves the output unavailable rather than a wrong number.
        bool complete = true;
        for (std::uint32_t input : formulas[i].Inputs()) complete = complete && std::isfinite(sample.values[input]);
        if (complete) values[i] = formulas[i].Evaluate(sample.values.data());
      }
    }
    sample.values = std::move(values);
  }
  std::vector<ProfiledCounter> counters;
  for (const OutputCounter& output : run->outputs) counters.push_back({output.name, output.usage, output.data_type});
  run->counters = std::move(counters);
  run->outputs.clear();
  return true;
}

}  // namespace opengpa::profiling
