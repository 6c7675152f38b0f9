#include "counters/expression.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace opengpa {
namespace {

// Names a..z map to inputs 0..25; "PI" and "TWO" are constants; everything else is unknown.
std::optional<Symbol> TestResolver(std::string_view name) {
  if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z') {
    Symbol symbol;
    symbol.kind = Symbol::Kind::kInput;
    symbol.input = static_cast<std::uint32_t>(name[0] - 'a');
    return symbol;
  }
  if (name == "TWO" || name == "PI") {
    Symbol symbol;
    symbol.kind = Symbol::Kind::kConstant;
    symbol.constant = name == "TWO" ? 2.0 : 3.14159;
    return symbol;
  }
  return std::nullopt;
}

Expression MustParse(std::string_view text, const SymbolResolver& resolve = TestResolver) {
  Expression expression;
  std::string error;
  EXPECT_TRUE(Expression::Parse(text, resolve, &expression, &error)) << text << ": " << error;
  return expression;
}

std::string ParseError(std::string_view text) {
  Expression expression;
  std::string error;
  EXPECT_FALSE(Expression::Parse(text, TestResolver, &expression, &error)) << text << " parsed";
  return error;
}

double Eval(std::string_view text, const std::vector<double>& inputs = std::vector<double>(26, 0.0)) {
  std::vector<double> padded(inputs);
  padded.resize(26, 0.0);
  return MustParse(text).Evaluate(padded.data());
}

TEST(ExpressionTest, NumbersInEveryNotationEvaluateToTheirValue) {
  EXPECT_DOUBLE_EQ(Eval("42"), 42.0);
  EXPECT_DOUBLE_EQ(Eval("2.5"), 2.5);
  EXPECT_DOUBLE_EQ(Eval(".25"), 0.25);
  EXPECT_DOUBLE_EQ(Eval("1e3"), 1000.0);
  EXPECT_DOUBLE_EQ(Eval("1.5E-2"), 0.015);
  EXPECT_DOUBLE_EQ(Eval("2e+2"), 200.0);
  EXPECT_DOUBLE_EQ(Eval("7."), 7.0);
}

TEST(ExpressionTest, MultiplicationBindsTighterThanAddition) {
  EXPECT_DOUBLE_EQ(Eval("2 + 3 * 4"), 14.0);
  EXPECT_DOUBLE_EQ(Eval("(2 + 3) * 4"), 20.0);
  EXPECT_DOUBLE_EQ(Eval("2 * 3 + 4 * 5"), 26.0);
}

TEST(ExpressionTest, SubtractionAndDivisionAreLeftAssociative) {
  EXPECT_DOUBLE_EQ(Eval("10 - 4 - 3"), 3.0);
  EXPECT_DOUBLE_EQ(Eval("64 / 4 / 2"), 8.0);
  EXPECT_DOUBLE_EQ(Eval("a - b - c", {10, 4, 3}), 3.0);
  EXPECT_DOUBLE_EQ(Eval("a / b / c", {64, 4, 2}), 8.0);
}

TEST(ExpressionTest, UnaryMinusNegatesItsOperand) {
  EXPECT_DOUBLE_EQ(Eval("-a", {5}), -5.0);
  EXPECT_DOUBLE_EQ(Eval("--a", {5}), 5.0);
  EXPECT_DOUBLE_EQ(Eval("-a * b", {2, 3}), -6.0);
  EXPECT_DOUBLE_EQ(Eval("a - -b", {2, 3}), 5.0);
  EXPECT_DOUBLE_EQ(Eval("-(a + b)", {2, 3}), -5.0);
}

TEST(ExpressionTest, InputsAreReadFromTheValuesArray) {
  // (a + b) * c - d / e with a=1 b=2 c=3 d=8 e=4: 3*3 - 2 = 7
  EXPECT_DOUBLE_EQ(Eval("(a + b) * c - d / e", {1, 2, 3, 8, 4}), 7.0);
}

TEST(ExpressionTest, DivisionByZeroYieldsZero) {
  EXPECT_DOUBLE_EQ(Eval("a / b", {5, 0}), 0.0);
  EXPECT_DOUBLE_EQ(Eval("1 / 0"), 0.0);
  EXPECT_DOUBLE_EQ(Eval("(a / b) * 100 + 1", {5, 0}), 1.0);
}

TEST(ExpressionTest, MinAndMaxTakeTwoOrMoreArguments) {
  EXPECT_DOUBLE_EQ(Eval("min(a, b)", {3, 7}), 3.0);
  EXPECT_DOUBLE_EQ(Eval("max(a, b)", {3, 7}), 7.0);
  EXPECT_DOUBLE_EQ(Eval("max(a, b, c, d)", {3, 9, -1, 4}), 9.0);
  EXPECT_DOUBLE_EQ(Eval("min(a, b, c, d)", {3, 9, -1, 4}), -1.0);
  EXPECT_DOUBLE_EQ(Eval("min(a + 1, b * 2) + 1", {10, 3}), 7.0);
}

TEST(ExpressionTest, FunctionNamesAreCaseInsensitive) {
  EXPECT_DOUBLE_EQ(Eval("MIN(a, b)", {3, 7}), 3.0);
  EXPECT_DOUBLE_EQ(Eval("Max(a, b)", {3, 7}), 7.0);
}

TEST(ExpressionTest, PercentageClampHoldsBetweenZeroAndHundred) {
  const Expression clamp = MustParse("max(min((a / b) * 100, 100), 0)");
  const double inside[] = {25, 200};
  const double above[] = {300, 200};
  const double below[] = {-10, 200};
  const double idle[] = {10, 0};
  EXPECT_DOUBLE_EQ(clamp.Evaluate(inside), 12.5);
  EXPECT_DOUBLE_EQ(clamp.Evaluate(above), 100.0);
  EXPECT_DOUBLE_EQ(clamp.Evaluate(below), 0.0);
  EXPECT_DOUBLE_EQ(clamp.Evaluate(idle), 0.0);
}

TEST(ExpressionTest, ConstantsAreFoldedIntoOneInstruction) {
  const Expression folded = MustParse("(TWO * 3 + 4) / 2 - min(1, -PI)");
  EXPECT_TRUE(folded.Inputs().empty());
  EXPECT_DOUBLE_EQ(folded.Evaluate(nullptr), 5.0 + 3.14159);  // Evaluate never reads inputs here
  // A folded subexpression next to an input still evaluates correctly.
  EXPECT_DOUBLE_EQ(Eval("a * (TWO + 3)", {4}), 20.0);
  EXPECT_DOUBLE_EQ(Eval("max(TWO, 3) * a", {4}), 12.0);
}

TEST(ExpressionTest, InputsAreDistinctAndAscending) {
  const Expression expression = MustParse("d + b * d - a / b + min(d, a)");
  EXPECT_EQ(expression.Inputs(), (std::vector<std::uint32_t>{0, 1, 3}));
  EXPECT_EQ(expression.Text(), "d + b * d - a / b + min(d, a)");
}

TEST(ExpressionTest, NamesMayContainDotsLikeCuptiMetrics) {
  std::map<std::string, std::uint32_t> names = {{"dram__bytes_read.sum", 0},
                                                {"sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active", 1}};
  const SymbolResolver resolve = [&](std::string_view name) -> std::optional<Symbol> {
    const auto it = names.find(std::string(name));
    if (it == names.end()) return std::nullopt;
    Symbol symbol;
    symbol.input = it->second;
    return symbol;
  };
  const Expression expression =
      MustParse("dram__bytes_read.sum / 1024 + sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active", resolve);
  const double inputs[] = {2048, 50};
  EXPECT_DOUBLE_EQ(expression.Evaluate(inputs), 52.0);
  EXPECT_EQ(expression.Inputs(), (std::vector<std::uint32_t>{0, 1}));
}

TEST(ExpressionTest, NamesAreCaseSensitive) {
  EXPECT_NE(ParseError("A + b").find("unknown name 'A'"), std::string::npos);
}

TEST(ExpressionTest, WhitespaceIncludingNewlinesIsIgnored) { EXPECT_DOUBLE_EQ(Eval("\ta\n+\r\n b ", {1, 2}), 3.0); }

TEST(ExpressionTest, DeepNestingBeyondTheInlineStackStillEvaluates) {
  // a + (b + (c + ... keeps every left operand on the stack: depth grows with nesting.
  std::string text;
  const int depth = 150;
  for (int i = 0; i < depth; ++i) text += "1 + (a + ";
  text += "a";
  for (int i = 0; i < depth; ++i) text += ")";
  EXPECT_DOUBLE_EQ(Eval(text, {2}), depth * 3.0 + 2.0);
}

TEST(ExpressionTest, ErrorsNameTheColumnAndTheToken) {
  EXPECT_EQ(ParseError("a + )"), "formula \"a + )\": column 5: expected a number, a name, '-' or '(', found ')'");
  EXPECT_EQ(ParseError("a b"), "formula \"a b\": column 3: expected an operator or the end of the formula, found 'b'");
  EXPECT_EQ(ParseError("a + foo"), "formula \"a + foo\": column 5: unknown name 'foo'");
  EXPECT_EQ(ParseError("a # b"), "formula \"a # b\": column 3: unexpected character '#'");
  EXPECT_EQ(ParseError("(a + b"),
            "formula \"(a + b\": column 7: expected ')' to close the '(' at column 1, found the end of the formula");
  EXPECT_EQ(ParseError("a * "),
            "formula \"a * \": column 5: expected a number, a name, '-' or '(', found the end of the formula");
}

TEST(ExpressionTest, NonPrintableBytesAreReportedInHex) {
  EXPECT_EQ(ParseError("a \xc3\xa9"), "formula \"a \xc3\xa9\": column 3: unexpected byte 0xc3");
  EXPECT_EQ(ParseError(std::string_view("a\0b", 3)),
            std::string("formula \"a\0b\": column 2: unexpected byte 0x00", 45));
}

TEST(ExpressionTest, EmptyFormulasAreRejected) {
  EXPECT_EQ(ParseError(""), "formula \"\": empty formula");
  EXPECT_EQ(ParseError("   "), "formula \"   \": empty formula");
}

TEST(ExpressionTest, MalformedNumbersAreRejected) {
  EXPECT_EQ(ParseError("1e + a"), "formula \"1e + a\": column 1: malformed number '1e': exponent has no digits");
  EXPECT_EQ(ParseError("2x"), "formula \"2x\": column 1: malformed number '2x'");
  EXPECT_EQ(ParseError("1.5.3"), "formula \"1.5.3\": column 1: malformed number '1.5.3'");
  EXPECT_NE(ParseError("1e999").find("out of range"), std::string::npos);
}

// The semantics catalogs/README.md documents: NaN in, NaN out; no inf made by folding; tiny literals are 0.
TEST(ExpressionTest, ANaNOperandGivesNaNWhateverItsPosition) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const char* formula : {"min(a, b)", "min(b, a)", "max(a, b)", "max(b, a)", "min(b, c, a)", "max(b, a, c)",
                              "a + b", "b - a", "a * b", "a / b", "b / a", "a / 0", "-a", "argmax(b, a)"}) {
    EXPECT_TRUE(std::isnan(Eval(formula, {nan, 2, 3}))) << formula;
  }
  // Also when the NaN is a constant folded at parse time.
  const SymbolResolver with_nan = [&](std::string_view name) -> std::optional<Symbol> {
    if (name != "NOTHING") return TestResolver(name);
    Symbol symbol;
    symbol.kind = Symbol::Kind::kConstant;
    symbol.constant = nan;
    return symbol;
  };
  for (const char* formula : {"min(NOTHING, 2)", "min(2, NOTHING)", "max(2, NOTHING) + 1", "NOTHING / 0"}) {
    std::vector<double> inputs(26, 0.0);
    EXPECT_TRUE(std::isnan(MustParse(formula, with_nan).Evaluate(inputs.data()))) << formula;
  }
  // Division by zero of a number still gives 0.
  EXPECT_EQ(Eval("a / b", {5, 0}), 0.0);
  EXPECT_EQ(Eval("min(a, b)", {2, -0.5}), -0.5);
}

TEST(ExpressionTest, FoldingThatOverflowsIsAnErrorNotASilentInf) {
  EXPECT_EQ(ParseError("1e308 * 1e308"),
            "formula \"1e308 * 1e308\": column 7: the constant operands of '*' give inf, beyond the range of a double");
  EXPECT_EQ(ParseError("a + (-1e308 - 1e308)"),
            "formula \"a + (-1e308 - 1e308)\": column 13: the constant operands of '-' give -inf, beyond the range "
            "of a double");
  EXPECT_NE(ParseError("max(a, 1e300 * 1e300)").find("beyond the range of a double"), std::string::npos);
  EXPECT_EQ(Eval("1e308 * 1"), 1e308);
  // Measured values are not constants: their overflow follows IEEE arithmetic when the formula runs.
  EXPECT_TRUE(std::isinf(Eval("a * 1e308", {1e308})));
}

TEST(ExpressionTest, LiteralsBelowTheSmallestDoubleReadAsZeroAndAboveTheLargestAreRefused) {
  EXPECT_EQ(Eval("1e-400"), 0.0);
  EXPECT_EQ(Eval("0.000001e-320"), 0.0);
  EXPECT_EQ(Eval("123456e-330"), 0.0);
  EXPECT_EQ(Eval("a + 1e-400", {7}), 7.0);
  EXPECT_EQ(Eval("1e-310"), 1e-310);  // a subnormal is kept
  EXPECT_EQ(ParseError("1e400"),
            "formula \"1e400\": column 1: number '1e400' is out of range (a double holds up to about 1.8e308)");
  EXPECT_NE(ParseError("0.001e309 + 99999999e301").find("'99999999e301' is out of range"), std::string::npos);
  EXPECT_EQ(Eval("0.001e309"), 1e306);
}

TEST(ExpressionTest, FunctionCallsAreChecked) {
  EXPECT_EQ(ParseError("min(a)"), "formula \"min(a)\": column 1: min() needs at least 2 arguments, found 1");
  EXPECT_EQ(ParseError("sqrt(a, b)"),
            "formula \"sqrt(a, b)\": column 1: unknown function 'sqrt' (only min, max and argmax exist)");
  EXPECT_EQ(ParseError("max(a, b"),
            "formula \"max(a, b\": column 9: expected ',' or ')' in the arguments of max() at column 1, found the end "
            "of the formula");
  EXPECT_EQ(ParseError("max()"), "formula \"max()\": column 5: expected a number, a name, '-' or '(', found ')'");
  EXPECT_EQ(ParseError("max(a,)"), "formula \"max(a,)\": column 7: expected a number, a name, '-' or '(', found ')'");
}

TEST(ExpressionTest, UnaryPlusIsNotPartOfTheLanguage) {
  EXPECT_EQ(ParseError("+a"), "formula \"+a\": column 1: expected a number, a name, '-' or '(', found '+'");
}

TEST(ExpressionTest, AbsurdNestingIsAnErrorNotACrash) {
  const std::string text = std::string(10000, '(') + "a" + std::string(10000, ')');
  EXPECT_NE(ParseError(text).find("nests deeper than"), std::string::npos);
}

TEST(ExpressionTest, FailedParseLeavesTheOutputUntouched) {
  Expression expression = MustParse("a + b");
  std::string error;
  EXPECT_FALSE(Expression::Parse("a +", TestResolver, &expression, &error));
  EXPECT_EQ(expression.Text(), "a + b");
}

TEST(ExpressionTest, ForInputReadsOneInputUnchanged) {
  const Expression expression = Expression::ForInput(2, "Vertex Shader Invocations");
  const double inputs[] = {1, 2, 3};
  EXPECT_DOUBLE_EQ(expression.Evaluate(inputs), 3.0);
  EXPECT_EQ(expression.Inputs(), (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(expression.Text(), "Vertex Shader Invocations");
}

TEST(ExpressionTest, DefaultExpressionEvaluatesToZero) {
  const Expression expression;
  EXPECT_DOUBLE_EQ(expression.Evaluate(nullptr), 0.0);
  EXPECT_TRUE(expression.Inputs().empty());
}

// A random syntax tree, printed with the parentheses precedence requires, must evaluate after parsing
// exactly as the tree itself does: checks precedence, associativity, unary minus, min/max and folding.
struct Node {
  enum class Kind { kNumber, kInput, kConstant, kNegate, kAdd, kSubtract, kMultiply, kDivide, kMin, kMax } kind;
  double number = 0;
  int input = 0;
  std::vector<std::unique_ptr<Node>> children;
};

int Precedence(const Node& node) {
  switch (node.kind) {
    case Node::Kind::kAdd:
    case Node::Kind::kSubtract: return 1;
    case Node::Kind::kMultiply:
    case Node::Kind::kDivide: return 2;
    case Node::Kind::kNegate: return 3;
    default: return 4;
  }
}

std::unique_ptr<Node> RandomTree(std::mt19937& random, int depth) {
  auto node = std::make_unique<Node>();
  const int choice = depth <= 0 ? static_cast<int>(random() % 3) : static_cast<int>(random() % 10);
  node->kind = static_cast<Node::Kind>(choice);
  switch (node->kind) {
    case Node::Kind::kNumber: node->number = static_cast<double>(random() % 1000) / 8.0; break;
    case Node::Kind::kInput: node->input = static_cast<int>(random() % 5); break;
    case Node::Kind::kConstant: break;
    case Node::Kind::kNegate: node->children.push_back(RandomTree(random, depth - 1)); break;
    case Node::Kind::kMin:
    case Node::Kind::kMax: {
      const int arguments = 2 + static_cast<int>(random() % 3);
      for (int i = 0; i < arguments; ++i) node->children.push_back(RandomTree(random, depth - 1));
      break;
    }
    default:
      node->children.push_back(RandomTree(random, depth - 1));
      node->children.push_back(RandomTree(random, depth - 1));
  }
  return node;
}

std::string Print(const Node& node) {
  auto wrap = [](const Node& child, bool parenthesize) {
    return parenthesize ? "(" + Print(child) + ")" : Print(child);
  };
  char number[64];
  switch (node.kind) {
    case Node::Kind::kNumber: std::snprintf(number, sizeof(number), "%.17g", node.number); return number;
    case Node::Kind::kInput: return std::string(1, static_cast<char>('a' + node.input));
    case Node::Kind::kConstant: return "PI";
    case Node::Kind::kNegate: return "-" + wrap(*node.children[0], Precedence(*node.children[0]) < 3);
    case Node::Kind::kMin:
    case Node::Kind::kMax: {
      std::string text = node.kind == Node::Kind::kMin ? "min(" : "MAX(";
      for (std::size_t i = 0; i < node.children.size(); ++i) text += (i ? ", " : "") + Print(*node.children[i]);
      return text + ")";
    }
    default: {
      static const char* const kSymbols[] = {" + ", " - ", " * ", " / "};
      const int symbol = static_cast<int>(node.kind) - static_cast<int>(Node::Kind::kAdd);
      // The right operand of an operator of equal precedence needs parentheses to keep the tree's grouping.
      return wrap(*node.children[0], Precedence(*node.children[0]) < Precedence(node)) + kSymbols[symbol] +
             wrap(*node.children[1], Precedence(*node.children[1]) <= Precedence(node));
    }
  }
}

double Reference(const Node& node, const double* inputs) {
  switch (node.kind) {
    case Node::Kind::kNumber: return node.number;
    case Node::Kind::kInput: return inputs[node.input];
    case Node::Kind::kConstant: return 3.14159;
    case Node::Kind::kNegate: return -Reference(*node.children[0], inputs);
    case Node::Kind::kAdd: return Reference(*node.children[0], inputs) + Reference(*node.children[1], inputs);
    case Node::Kind::kSubtract: return Reference(*node.children[0], inputs) - Reference(*node.children[1], inputs);
    case Node::Kind::kMultiply: return Reference(*node.children[0], inputs) * Reference(*node.children[1], inputs);
    case Node::Kind::kDivide: {
      const double denominator = Reference(*node.children[1], inputs);
      return denominator == 0 ? 0 : Reference(*node.children[0], inputs) / denominator;
    }
    case Node::Kind::kMin:
    case Node::Kind::kMax: {
      double value = Reference(*node.children[0], inputs);
      for (std::size_t i = 1; i < node.children.size(); ++i) {
        const double next = Reference(*node.children[i], inputs);
        value = node.kind == Node::Kind::kMin ? std::min(value, next) : std::max(value, next);
      }
      return value;
    }
  }
  return 0;
}

TEST(ExpressionTest, RandomFormulasEvaluateExactlyLikeTheirSyntaxTrees) {
  std::mt19937 random(12345);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::unique_ptr<Node> tree = RandomTree(random, 1 + trial % 6);
    const std::string text = Print(*tree);
    const Expression expression = MustParse(text);
    double inputs[26] = {};
    for (int i = 0; i < 5; ++i) inputs[i] = static_cast<double>(static_cast<int>(random() % 200) - 100) / 4.0;
    const double expected = Reference(*tree, inputs);
    const double actual = expression.Evaluate(inputs);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(actual)) << text;
    } else {
      ASSERT_EQ(actual, expected) << text;
    }
  }
}

TEST(ExpressionTest, RandomTextNeverCrashesAndEitherParsesOrExplains) {
  static const char kAlphabet[] = "ab PI1.e+-*/(),minax#_";
  std::mt19937 random(777);
  int parsed = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text(random() % 24, ' ');
    for (char& c : text) c = kAlphabet[random() % (sizeof(kAlphabet) - 1)];
    Expression expression;
    std::string error;
    if (Expression::Parse(text, TestResolver, &expression, &error)) {
      ++parsed;
      const double inputs[26] = {1, 2};
      (void)expression.Evaluate(inputs);
    } else {
      EXPECT_EQ(error.rfind("formula \"" + text + "\": ", 0), 0u) << error;
    }
  }
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace opengpa
