// Formula parsing (precedence climbing over a small tokenizer) into a postfix program, and its evaluation.
#include "counters/expression.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "platform/text_affixes.h"

namespace opengpa {
namespace {

// Deeper nesting than this is certainly not a counter formula; refusing it keeps the recursive parser
// from exhausting the native stack on hostile input.
constexpr int kMaxNesting = 200;

// Evaluation uses a stack array of this many slots; deeper programs fall back to a per-thread buffer.
constexpr std::uint32_t kInlineStackSlots = 64;

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool IsNameChar(char c) { return IsNameStart(c) || std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.'; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// NaN in, NaN out, for every operator and function (catalogs/README.md): a NaN operand makes the result
// NaN whatever its position, so min(NaN, 2) and min(2, NaN) are both NaN.

// Division by zero gives 0 (a ratio over an idle unit), except that NaN / 0 stays NaN.
double SafeDivide(double a, double b) { return b == 0.0 && !std::isnan(a) ? 0.0 : a / b; }

// std::min and std::max keep whichever operand a NaN comparison favours, so they depend on the order.
double Min(double a, double b) { return a < b || std::isnan(a) ? a : b; }
double Max(double a, double b) { return a > b || std::isnan(a) ? a : b; }

// argmax(): 0-based index of the largest of `count` arguments (`value(i)` gives argument i). The first wins a
// tie, so a formula lists its candidates in the order it prefers them. NaN when any argument is NaN.
template <typename Value>
double ArgMax(std::uint32_t count, Value value) {
  std::uint32_t best = 0;
  double best_value = value(0);
  if (std::isnan(best_value)) return best_value;
  for (std::uint32_t i = 1; i < count; ++i) {
    const double candidate = value(i);
    if (std::isnan(candidate)) return candidate;
    if (candidate > best_value) {
      best = i;
      best_value = candidate;
    }
  }
  return static_cast<double>(best);
}

// The decimal exponent of the leading digit of a literal that LexNumber accepted (digits, optional '.',
// optional exponent): 2 for "123", -3 for "0.00123", -398 for "12e-400". Only called for a literal that
// from_chars found out of range, so it has a non-zero digit. The exponent is clamped: it is only compared
// with the range of a double.
long long LeadingDigitExponent(std::string_view literal) {
  const std::size_t e = literal.find_first_of("eE");
  const std::string_view mantissa = literal.substr(0, e);
  long long exponent = 0;
  if (e != std::string_view::npos) {
    std::size_t i = e + 1;
    const bool negative = i < literal.size() && literal[i] == '-';
    if (i < literal.size() && (literal[i] == '-' || literal[i] == '+')) ++i;
    for (; i < literal.size(); ++i) exponent = std::min<long long>(exponent * 10 + (literal[i] - '0'), 1000000);
    if (negative) exponent = -exponent;
  }
  const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
  const std::size_t first = mantissa.find_first_of("123456789");
  if (first == std::string_view::npos) return 0;
  const long long position =
      first < point ? static_cast<long long>(point - first) - 1 : -static_cast<long long>(first - point);
  return exponent + position;
}

struct Token {
  enum class Kind { kEnd, kNumber, kName, kPlus, kMinus, kStar, kSlash, kLeftParen, kRightParen, kComma };
  Kind kind = Kind::kEnd;
  std::size_t position = 0;  // byte offset into the formula
  std::string_view text;
  double number = 0.0;
};

std::string Describe(const Token& token) {
  if (token.kind == Token::Kind::kEnd) return "the end of the formula";
  return fmt::format("'{}'", token.text);
}

}  // namespace

// Turns formula text into Expression::program_. Errors name a 1-based column and the token found there.
class ExpressionParser {
 public:
  ExpressionParser(std::string_view text, const SymbolResolver& resolve, Expression* out)
      : text_(text), resolve_(resolve), out_(out) {}

  bool Run(std::string* error) {
    if (!Advance()) return Fail(error);
    if (current_.kind == Token::Kind::kEnd) {
      message_ = "empty formula";
      return Fail(error);
    }
    if (!ParseSum(0)) return Fail(error);
    if (current_.kind != Token::Kind::kEnd) {
      Error(current_, fmt::format("expected an operator or the end of the formula, found {}", Describe(current_)));
      return Fail(error);
    }
    Finish();
    return true;
  }

 private:
  using Op = Expression::Op;
  using Instruction = Expression::Instruction;

  bool Fail(std::string* error) {
    if (error != nullptr) *error = fmt::format("formula \"{}\": {}", text_, message_);
    return false;
  }

  bool Error(std::size_t position, std::string what) {
    message_ = fmt::format("column {}: {}", position + 1, what);
    return false;
  }
  bool Error(const Token& at, std::string what) { return Error(at.position, std::move(what)); }

  // --- tokenizer ---
  bool Advance() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])) != 0) ++pos_;
    current_ = Token{};
    current_.position = pos_;
    if (pos_ >= text_.size()) return true;
    const char c = text_[pos_];
    if (IsDigit(c) || (c == '.' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) return LexNumber();
    if (IsNameStart(c)) {
      std::size_t end = pos_ + 1;
      while (end < text_.size() && IsNameChar(text_[end])) ++end;
      current_.kind = Token::Kind::kName;
      current_.text = text_.substr(pos_, end - pos_);
      pos_ = end;
      return true;
    }
    switch (c) {
      case '+': current_.kind = Token::Kind::kPlus; break;
      case '-': current_.kind = Token::Kind::kMinus; break;
      case '*': current_.kind = Token::Kind::kStar; break;
      case '/': current_.kind = Token::Kind::kSlash; break;
      case '(': current_.kind = Token::Kind::kLeftParen; break;
      case ')': current_.kind = Token::Kind::kRightParen; break;
      case ',': current_.kind = Token::Kind::kComma; break;
      default:
        // Non-printable bytes (control characters, UTF-8 lead bytes) are shown as hex so the message stays readable.
        if (std::isprint(static_cast<unsigned char>(c)) == 0) {
          return Error(pos_, fmt::format("unexpected byte 0x{:02x}", static_cast<unsigned char>(c)));
        }
        return Error(pos_, fmt::format("unexpected character '{}'", c));
    }
    current_.text = text_.substr(pos_, 1);
    ++pos_;
    return true;
  }

  // digits [. digits] [(e|E) [+-] digits], or . digits [exponent]
  bool LexNumber() {
    const std::size_t start = pos_;
    std::size_t end = pos_;
    while (end < text_.size() && IsDigit(text_[end])) ++end;
    if (end < text_.size() && text_[end] == '.') {
      ++end;
      while (end < text_.size() && IsDigit(text_[end])) ++end;
    }
    if (end < text_.size() && (text_[end] == 'e' || text_[end] == 'E')) {
      std::size_t exponent = end + 1;
      if (exponent < text_.size() && (text_[exponent] == '+' || text_[exponent] == '-')) ++exponent;
      if (exponent >= text_.size() || !IsDigit(text_[exponent])) {
        return Error(
            start, fmt::format("malformed number '{}': exponent has no digits", text_.substr(start, exponent - start)));
      }
      while (exponent < text_.size() && IsDigit(text_[exponent])) ++exponent;
      end = exponent;
    }
    // "2x" or "1.5.3" is a typo, not a number followed by a name.
    if (end < text_.size() && IsNameChar(text_[end])) {
      std::size_t bad_end = end;
      while (bad_end < text_.size() && IsNameChar(text_[bad_end])) ++bad_end;
      return Error(start, fmt::format("malformed number '{}'", text_.substr(start, bad_end - start)));
    }
    const std::string_view digits = text_.substr(start, end - start);
    double value = 0.0;
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (result.ec == std::errc::result_out_of_range && LeadingDigitExponent(digits) < 0) {
      value = 0.0;  // below the smallest double (about 4.9e-324): IEEE rounding gives 0, and so do we
    } else if (result.ec != std::errc() || result.ptr != digits.data() + digits.size() || !std::isfinite(value)) {
      return Error(start, fmt::format("number '{}' is out of range (a double holds up to about 1.8e308)", digits));
    }
    current_.kind = Token::Kind::kNumber;
    current_.text = digits;
    current_.number = value;
    pos_ = end;
    return true;
  }

  bool Expect(Token::Kind kind, std::string_view what) {
    if (current_.kind != kind) return Error(current_, fmt::format("expected {}, found {}", what, Describe(current_)));
    return Advance();
  }

  // --- grammar ---
  // sum     := product (('+' | '-') product)*
  // product := unary (('*' | '/') unary)*
  // unary   := '-' unary | primary
  // primary := number | name | ('min' | 'max' | 'argmax') '(' sum (',' sum)+ ')' | '(' sum ')'
  bool ParseSum(int depth) {
    if (!ParseProduct(depth)) return false;
    while (current_.kind == Token::Kind::kPlus || current_.kind == Token::Kind::kMinus) {
      const Token at = current_;
      const Op op = current_.kind == Token::Kind::kPlus ? Op::kAdd : Op::kSubtract;
      if (!Advance() || !ParseProduct(depth) || !EmitOperator(op, 2, at)) return false;
    }
    return true;
  }

  bool ParseProduct(int depth) {
    if (!ParseUnary(depth)) return false;
    while (current_.kind == Token::Kind::kStar || current_.kind == Token::Kind::kSlash) {
      const Token at = current_;
      const Op op = current_.kind == Token::Kind::kStar ? Op::kMultiply : Op::kDivide;
      if (!Advance() || !ParseUnary(depth) || !EmitOperator(op, 2, at)) return false;
    }
    return true;
  }

  bool ParseUnary(int depth) {
    if (depth > kMaxNesting) return Error(current_, fmt::format("formula nests deeper than {} levels", kMaxNesting));
    if (current_.kind == Token::Kind::kMinus) {
      const Token at = current_;
      return Advance() && ParseUnary(depth + 1) && EmitOperator(Op::kNegate, 1, at);
    }
    return ParsePrimary(depth);
  }

  bool ParsePrimary(int depth) {
    const Token token = current_;
    switch (token.kind) {
      case Token::Kind::kNumber: Emit({Op::kPushConstant, 0, token.number}); return Advance();
      case Token::Kind::kLeftParen:
        if (!Advance() || !ParseSum(depth + 1)) return false;
        return Expect(Token::Kind::kRightParen, "')' to close the '(' at column " + std::to_string(token.position + 1));
      case Token::Kind::kName: {
        if (!Advance()) return false;
        if (current_.kind == Token::Kind::kLeftParen) return ParseCall(token, depth);
        return EmitName(token);
      }
      default: return Error(token, fmt::format("expected a number, a name, '-' or '(', found {}", Describe(token)));
    }
  }

  bool ParseCall(const Token& function, int depth) {
    Op op;
    if (EqualsIgnoringCase(function.text, "min")) {
      op = Op::kMin;
    } else if (EqualsIgnoringCase(function.text, "max")) {
      op = Op::kMax;
    } else if (EqualsIgnoringCase(function.text, "argmax")) {
      op = Op::kArgmax;
    } else {
      return Error(function, fmt::format("unknown function '{}' (only min, max and argmax exist)", function.text));
    }
    if (!Advance()) return false;  // past '('
    std::uint32_t arguments = 0;
    for (;;) {
      if (!ParseSum(depth + 1)) return false;
      ++arguments;
      if (current_.kind != Token::Kind::kComma) break;
      if (!Advance()) return false;
    }
    if (current_.kind != Token::Kind::kRightParen) {
      return Error(current_, fmt::format("expected ',' or ')' in the arguments of {}() at column {}, found {}",
                                         function.text, function.position + 1, Describe(current_)));
    }
    if (arguments < 2) {
      return Error(function, fmt::format("{}() needs at least 2 arguments, found {}", function.text, arguments));
    }
    return EmitOperator(op, arguments, function) && Advance();
  }

  bool EmitName(const Token& token) {
    std::optional<Symbol> symbol = resolve_ ? resolve_(token.text) : std::nullopt;
    if (!symbol) return Error(token, fmt::format("unknown name '{}'", token.text));
    if (symbol->kind == Symbol::Kind::kConstant) {
      Emit({Op::kPushConstant, 0, symbol->constant});
    } else {
      Emit({Op::kPushInput, symbol->input, 0.0});
    }
    return true;
  }

  void Emit(const Instruction& instruction) { out_->program_.push_back(instruction); }

  // Appends an operator over the last `arity` operands, folding it when they are all constants.
  // Every operand is either one push or ends in an operator, so "the last `arity` instructions are all
  // constant pushes" means exactly "every operand is a constant". A fold of finite constants that
  // overflows (1e308 * 1e308) is an error at `at`, the operator or function, rather than a silent inf.
  bool EmitOperator(Op op, std::uint32_t arity, const Token& at) {
    std::vector<Instruction>& program = out_->program_;
    const bool all_constant =
        program.size() >= arity && std::all_of(program.end() - arity, program.end(),
                                               [](const Instruction& i) { return i.op == Op::kPushConstant; });
    if (!all_constant) {
      program.push_back({op, arity, 0.0});
      return true;
    }
    const Instruction* operands = &program[program.size() - arity];
    double value = 0.0;
    switch (op) {
      case Op::kNegate: value = -operands[0].constant; break;
      case Op::kAdd: value = operands[0].constant + operands[1].constant; break;
      case Op::kSubtract: value = operands[0].constant - operands[1].constant; break;
      case Op::kMultiply: value = operands[0].constant * operands[1].constant; break;
      case Op::kDivide: value = SafeDivide(operands[0].constant, operands[1].constant); break;
      case Op::kMin:
      case Op::kMax:
        value = operands[0].constant;
        for (std::uint32_t i = 1; i < arity; ++i) {
          value = op == Op::kMin ? Min(value, operands[i].constant) : Max(value, operands[i].constant);
        }
        break;
      case Op::kArgmax: value = ArgMax(arity, [operands](std::uint32_t i) { return operands[i].constant; }); break;
      default: break;
    }
    const bool finite_operands =
        std::all_of(operands, operands + arity, [](const Instruction& i) { return std::isfinite(i.constant); });
    if (finite_operands && !std::isfinite(value)) {
      return Error(
          at, fmt::format("the constant operands of {} give {}, beyond the range of a double", Describe(at), value));
    }
    program.resize(program.size() - arity);
    program.push_back({Op::kPushConstant, 0, value});
    return true;
  }

  void Finish() {
    std::uint32_t depth = 0;
    std::uint32_t max_depth = 0;
    std::vector<std::uint32_t>& inputs = out_->inputs_;
    for (const Instruction& instruction : out_->program_) {
      switch (instruction.op) {
        case Op::kPushInput: inputs.push_back(instruction.arity_or_input); [[fallthrough]];
        case Op::kPushConstant: ++depth; break;
        case Op::kNegate: break;
        default: depth -= instruction.arity_or_input - 1; break;
      }
      max_depth = std::max(max_depth, depth);
    }
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    out_->max_stack_ = max_depth;
    out_->program_.shrink_to_fit();
    out_->text_ = std::string(text_);
  }

  std::string_view text_;
  const SymbolResolver& resolve_;
  Expression* out_;
  std::size_t pos_ = 0;
  Token current_;
  std::string message_;
};

bool Expression::Parse(std::string_view text, const SymbolResolver& resolve, Expression* out, std::string* error) {
  if (out == nullptr) {
    if (error != nullptr) *error = "Expression::Parse: output is null";
    return false;
  }
  Expression parsed;
  ExpressionParser parser(text, resolve, &parsed);
  if (!parser.Run(error)) return false;
  *out = std::move(parsed);
  return true;
}

Expression Expression::ForInput(std::uint32_t input, std::string_view text) {
  Expression expression;
  expression.program_.push_back({Op::kPushInput, input, 0.0});
  expression.max_stack_ = 1;
  expression.inputs_.push_back(input);
  expression.text_ = std::string(text);
  return expression;
}

double Expression::Evaluate(const double* inputs) const {
  if (program_.empty()) return 0.0;
  double inline_stack[kInlineStackSlots];
  double* stack = inline_stack;
  if (max_stack_ > kInlineStackSlots) {
    // Only absurdly nested formulas get here; the buffer grows once per thread and is then reused.
    thread_local std::vector<double> deep_stack;
    if (deep_stack.size() < max_stack_) deep_stack.resize(max_stack_);
    stack = deep_stack.data();
  }
  std::uint32_t top = 0;  // number of values on the stack
  for (const Instruction& instruction : program_) {
    switch (instruction.op) {
      case Op::kPushConstant: stack[top++] = instruction.constant; break;
      case Op::kPushInput: stack[top++] = inputs[instruction.arity_or_input]; break;
      case Op::kNegate: stack[top - 1] = -stack[top - 1]; break;
      case Op::kAdd:
        --top;
        stack[top - 1] += stack[top];
        break;
      case Op::kSubtract:
        --top;
        stack[top - 1] -= stack[top];
        break;
      case Op::kMultiply:
        --top;
        stack[top - 1] *= stack[top];
        break;
      case Op::kDivide:
        --top;
        stack[top - 1] = SafeDivide(stack[top - 1], stack[top]);
        break;
      case Op::kMin:
      case Op::kMax: {
        const std::uint32_t first = top - instruction.arity_or_input;
        double value = stack[first];
        for (std::uint32_t i = first + 1; i < top; ++i) {
          value = instruction.op == Op::kMin ? Min(value, stack[i]) : Max(value, stack[i]);
        }
        top = first + 1;
        stack[first] = value;
        break;
      }
      case Op::kArgmax: {
        const std::uint32_t first = top - instruction.arity_or_input;
        stack[first] = ArgMax(instruction.arity_or_input, [&](std::uint32_t i) { return stack[first + i]; });
        top = first + 1;
        break;
      }
    }
  }
  return stack[0];
}

}  // namespace opengpa
