// Fuzzes Expression::Parse and Evaluate with arbitrary formula text. Names a..z are inputs, PI and BIG
// are constants; anything else is unknown. Invariants checked on every formula that parses (the
// semantics of catalogs/README.md):
//   - with every input NaN, a formula that reads an input evaluates to NaN (NaN in, NaN out);
//   - a formula of constants only evaluates to a finite number (folding never makes an inf or a NaN);
//   - evaluating with ordinary inputs does not crash (the sanitizers watch the stack machine).
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "counters/expression.h"

namespace {

std::optional<opengpa::Symbol> Resolve(std::string_view name) {
  opengpa::Symbol symbol;
  if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z') {
    symbol.kind = opengpa::Symbol::Kind::kInput;
    symbol.input = static_cast<std::uint32_t>(name[0] - 'a');
    return symbol;
  }
  if (name == "PI" || name == "BIG") {
    symbol.kind = opengpa::Symbol::Kind::kConstant;
    symbol.constant = name == "PI" ? 3.14159 : 1e300;
    return symbol;
  }
  return std::nullopt;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  opengpa::Expression expression;
  std::string error;
  if (!opengpa::Expression::Parse(text, Resolve, &expression, &error)) {
    if (error.empty()) __builtin_trap();  // a refusal always says why
    return 0;
  }
  std::vector<double> inputs(26);
  for (std::size_t i = 0; i < inputs.size(); ++i) inputs[i] = static_cast<double>(i) - 7.5;
  const double ordinary = expression.Evaluate(inputs.data());
  if (expression.Inputs().empty()) {
    if (!std::isfinite(ordinary)) __builtin_trap();
    return 0;
  }
  inputs.assign(26, std::numeric_limits<double>::quiet_NaN());
  if (!std::isnan(expression.Evaluate(inputs.data()))) __builtin_trap();
  return 0;
}
