// argmax(a, b, ...): the formula function that names which of several values is largest, by position.
// Catalogs use it to report which GPU unit limits a sample (catalogs/cuda_sol.json, GPUBottleneck).
#include "counters/expression.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace opengpa {
namespace {

// Names a..z are inputs 0..25; LOW and HIGH are constants 1 and 9.
std::optional<Symbol> Resolve(std::string_view name) {
  Symbol symbol;
  if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z') {
    symbol.kind = Symbol::Kind::kInput;
    symbol.input = static_cast<std::uint32_t>(name[0] - 'a');
    return symbol;
  }
  if (name == "LOW" || name == "HIGH") {
    symbol.kind = Symbol::Kind::kConstant;
    symbol.constant = name == "LOW" ? 1.0 : 9.0;
    return symbol;
  }
  return std::nullopt;
}

Expression Parse(std::string_view text) {
  Expression expression;
  std::string error;
  EXPECT_TRUE(Expression::Parse(text, Resolve, &expression, &error)) << error;
  return expression;
}

double Eval(std::string_view text, std::vector<double> inputs) {
  inputs.resize(26, 0.0);
  return Parse(text).Evaluate(inputs.data());
}

std::string ParseError(std::string_view text) {
  Expression expression;
  std::string error;
  EXPECT_FALSE(Expression::Parse(text, Resolve, &expression, &error)) << text << " parsed";
  return error;
}

TEST(ArgmaxTest, ReturnsTheZeroBasedPositionOfTheLargestArgument) {
  EXPECT_EQ(Eval("argmax(a, b)", {3, 7}), 1.0);
  EXPECT_EQ(Eval("argmax(a, b)", {7, 3}), 0.0);
  EXPECT_EQ(Eval("argmax(a, b, c, d)", {3, 9, -1, 4}), 1.0);
  EXPECT_EQ(Eval("argmax(a, b, c, d)", {-5, -9, -1, -4}), 2.0);
  EXPECT_EQ(Eval("argmax(a, b, c, d, e)", {1, 2, 3, 4, 5}), 4.0);
}

TEST(ArgmaxTest, TheFirstOfEqualArgumentsWins) {
  EXPECT_EQ(Eval("argmax(a, b, c)", {5, 5, 5}), 0.0);
  EXPECT_EQ(Eval("argmax(a, b, c)", {1, 5, 5}), 1.0);
  EXPECT_EQ(Eval("argmax(a, b, c)", {0, 0, 0}), 0.0);
}

TEST(ArgmaxTest, ArgumentsAreFullExpressions) {
  // b * 2 = 8 beats a + 1 = 6 and c / 2 = 4.5.
  EXPECT_EQ(Eval("argmax(a + 1, b * 2, c / 2)", {5, 4, 9}), 1.0);
  // The result is a number like any other: usable in arithmetic and as an argument.
  EXPECT_EQ(Eval("argmax(a, b) * 10 + argmax(c, d, e)", {1, 2, 0, 0, 3}), 12.0);
  EXPECT_EQ(Eval("argmax(argmax(a, b), c)", {0, 1, 0.5}), 0.0);
}

TEST(ArgmaxTest, AThresholdArgumentWinsOnlyWhenEveryOtherArgumentIsBelowIt) {
  // The GPUBottleneck idiom: the last argument is a threshold, so it wins only when all units are below it;
  // a unit exactly at the threshold still wins (first wins ties).
  const std::string formula = "argmax(a, b, c, 60)";
  EXPECT_EQ(Eval(formula, {10, 59.9, 20}), 3.0);
  EXPECT_EQ(Eval(formula, {10, 60, 20}), 1.0);
  EXPECT_EQ(Eval(formula, {95, 61, 20}), 0.0);
}

TEST(ArgmaxTest, ANaNArgumentAnywhereMakesTheResultNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(Eval("argmax(a, b, c)", {nan, 1, 2})));
  EXPECT_TRUE(std::isnan(Eval("argmax(a, b, c)", {3, nan, 2})));
  EXPECT_TRUE(std::isnan(Eval("argmax(a, b, c)", {3, 1, nan})));
  EXPECT_TRUE(std::isnan(Eval("argmax(a, b)", {nan, nan})));
}

TEST(ArgmaxTest, ConstantArgumentsAreFoldedWhenTheFormulaIsParsed) {
  const Expression folded = Parse("argmax(LOW, HIGH, 3) + a");
  EXPECT_EQ(folded.Inputs(), std::vector<std::uint32_t>{0});
  std::vector<double> inputs(26, 0.0);
  inputs[0] = 100;
  EXPECT_EQ(folded.Evaluate(inputs.data()), 101.0);
  EXPECT_EQ(Eval("argmax(HIGH, HIGH, LOW)", {}), 0.0);
}

TEST(ArgmaxTest, FunctionNameIsCaseInsensitiveAndAPlainNameOtherwise) {
  EXPECT_EQ(Eval("ARGMAX(a, b)", {1, 2}), 1.0);
  EXPECT_EQ(Eval("ArgMax(a, b)", {2, 1}), 0.0);
  // Without '(' it is a name, and this resolver does not know it.
  EXPECT_EQ(ParseError("argmax + 1"), "formula \"argmax + 1\": column 1: unknown name 'argmax'");
}

TEST(ArgmaxTest, NeedsAtLeastTwoArgumentsAndReportsWhereNot) {
  EXPECT_EQ(ParseError("argmax(a)"), "formula \"argmax(a)\": column 1: argmax() needs at least 2 arguments, found 1");
  EXPECT_EQ(ParseError("1 + argmax(a, b"),
            "formula \"1 + argmax(a, b\": column 16: expected ',' or ')' in the arguments of argmax() at column 5, "
            "found the end of the formula");
  EXPECT_EQ(ParseError("argmax()"), "formula \"argmax()\": column 8: expected a number, a name, '-' or '(', found ')'");
}

TEST(ArgmaxTest, ReadsEachInputItNamesOnce) {
  const Expression expression = Parse("argmax(c, a, c / 2, b)");
  EXPECT_EQ(expression.Inputs(), (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(ArgmaxTest, AgreesWithALinearScanOnRandomInputs) {
  std::mt19937 random(20240607);
  std::uniform_int_distribution<int> small(0, 4);  // few distinct values: many ties
  const Expression expression = Parse("argmax(a, b, c, d, e, f, g, h)");
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<double> inputs(26, 0.0);
    for (int i = 0; i < 8; ++i) inputs[i] = small(random);
    int expected = 0;
    for (int i = 1; i < 8; ++i) {
      if (inputs[i] > inputs[expected]) expected = i;
    }
    ASSERT_EQ(expression.Evaluate(inputs.data()), expected) << "trial " << trial;
  }
}

TEST(ArgmaxTest, ManyArgumentsBeyondTheInlineStackStillEvaluate) {
  // 100 arguments: deeper than the evaluator's inline stack.
  std::string text = "argmax(";
  for (int i = 0; i < 100; ++i) text += (i ? ", " : "") + std::string(i == 73 ? "a" : "0");
  text += ")";
  EXPECT_EQ(Eval(text, {1}), 73.0);
  EXPECT_EQ(Eval(text, {-1}), 0.0);
}

}  // namespace
}  // namespace opengpa
