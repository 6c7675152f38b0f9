// Fuzzes ParseCatalog with arbitrary bytes, then parses every formula of a catalog it accepts (any name
// resolves to an input). Invariants: no crash or sanitizer report, a refusal says why in a bounded message
// (catalog.cc quotes at most 3 levels and about 80 characters of what it found), an accepted catalog has
// non-empty names and formulas.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "counters/catalog.h"
#include "counters/expression.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  opengpa::Catalog catalog;
  std::string error;
  if (!opengpa::ParseCatalog(text, &catalog, &error)) {
    if (error.empty() || error.size() > 1024) __builtin_trap();
    return 0;
  }
  std::uint32_t next_input = 0;
  const opengpa::SymbolResolver resolve = [&](std::string_view) -> std::optional<opengpa::Symbol> {
    opengpa::Symbol symbol;
    symbol.kind = opengpa::Symbol::Kind::kInput;
    symbol.input = next_input++ % 64;
    return symbol;
  };
  for (const opengpa::CounterDefinition& counter : catalog.counters) {
    if (counter.name.empty() || counter.formula.empty()) __builtin_trap();
    opengpa::Expression expression;
    std::string formula_error;
    opengpa::Expression::Parse(counter.formula, resolve, &expression, &formula_error);
  }
  return 0;
}
