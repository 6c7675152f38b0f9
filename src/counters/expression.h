// The formula language of derived counters: numbers, names, + - * /, unary minus, parentheses,
// min(a, b, ...), max(a, b, ...), argmax(a, b, ...) (0-based index of the largest argument). Names resolve,
// when parsed, to hardware-counter inputs or to named constants. Parsed once (when a context opens); evaluated per
// sample without allocating.
#ifndef OPENGPA_COUNTERS_EXPRESSION_H_
#define OPENGPA_COUNTERS_EXPRESSION_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opengpa {

// What a name in a formula stands for: an input (index into the values passed to Evaluate),
// or a constant folded in at parse time. nullopt: the name is unknown.
struct Symbol {
  enum class Kind { kInput, kConstant } kind = Kind::kInput;
  std::uint32_t input = 0;
  double constant = 0.0;
};
using SymbolResolver = std::function<std::optional<Symbol>(std::string_view name)>;

class Expression {
 public:
  // Parses `text`. On failure returns false and sets *error to a message naming the position and the
  // offending token or unknown name.
  static bool Parse(std::string_view text, const SymbolResolver& resolve, Expression* out, std::string* error);

  // The formula that reads input `input` unchanged (a hardware counter exposed as itself); `text` is what
  // Text() reports. Hardware names need not be valid formula names, so this does not go through Parse.
  static Expression ForInput(std::uint32_t input, std::string_view text);

  // Division by zero yields 0 (a ratio over an idle unit reads as 0, not NaN or inf).
  double Evaluate(const double* inputs) const;

  // Distinct inputs the formula reads, ascending.
  const std::vector<std::uint32_t>& Inputs() const { return inputs_; }
  const std::string& Text() const { return text_; }

 private:
  enum class Op : std::uint8_t {
    kPushConstant,
    kPushInput,
    kNegate,
    kAdd,
    kSubtract,
    kMultiply,
    kDivide,
    kMin,
    kMax,
    kArgmax
  };
  struct Instruction {
    Op op;
    std::uint32_t arity_or_input;  // input index for kPushInput; argument count for kMin/kMax/kArgmax
    double constant;
  };
  friend class ExpressionParser;

  std::vector<Instruction> program_;  // postfix
  std::uint32_t max_stack_ = 0;
  std::vector<std::uint32_t> inputs_;
  std::string text_;
};

}  // namespace opengpa

#endif  // OPENGPA_COUNTERS_EXPRESSION_H_
