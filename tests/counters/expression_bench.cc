// Cost of evaluating one derived counter per sample: a 10-term formula over 10 inputs.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "counters/expression.h"

namespace {

void BM_EvaluateTenTermFormula(benchmark::State& state) {
  const std::string text = "max(min((c0 + c1 * c2 - c3 / c4 + c5 * 2.5 - c6 + c7 / (c8 + 1) + c9) * 100 / c0, 100), 0)";
  const opengpa::SymbolResolver resolve = [](std::string_view name) -> std::optional<opengpa::Symbol> {
    if (name.size() != 2 || name[0] != 'c') return std::nullopt;
    opengpa::Symbol symbol;
    symbol.input = static_cast<std::uint32_t>(name[1] - '0');
    return symbol;
  };
  opengpa::Expression expression;
  std::string error;
  if (!opengpa::Expression::Parse(text, resolve, &expression, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  std::vector<double> inputs = {1000, 2, 3, 40, 5, 6, 7, 80, 9, 10};
  for (auto _ : state) {
    benchmark::DoNotOptimize(inputs.data());
    benchmark::DoNotOptimize(expression.Evaluate(inputs.data()));
  }
}
BENCHMARK(BM_EvaluateTenTermFormula);

void BM_ParseTenTermFormula(benchmark::State& state) {
  const std::string text = "max(min((c0 + c1 * c2 - c3 / c4 + c5 * 2.5 - c6 + c7 / (c8 + 1) + c9) * 100 / c0, 100), 0)";
  const opengpa::SymbolResolver resolve = [](std::string_view name) -> std::optional<opengpa::Symbol> {
    opengpa::Symbol symbol;
    symbol.input = static_cast<std::uint32_t>(name[1] - '0');
    return symbol;
  };
  for (auto _ : state) {
    opengpa::Expression expression;
    std::string error;
    benchmark::DoNotOptimize(opengpa::Expression::Parse(text, resolve, &expression, &error));
  }
}
BENCHMARK(BM_ParseTenTermFormula);

}  // namespace

BENCHMARK_MAIN();
