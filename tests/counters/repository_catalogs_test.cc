// Every catalog shipped in counters/ must be well-formed and its formulas must parse, whatever device
// later decides which of its counters are visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "counters/catalog.h"
#include "counters/expression.h"

namespace opengpa {
namespace {

std::vector<std::filesystem::path> CatalogFiles() {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(OPENGPA_SOURCE_DIR "/catalogs", error)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(RepositoryCatalogsTest, EveryCatalogInTheTreeParsesWithWellFormedFormulas) {
  const std::vector<std::filesystem::path> files = CatalogFiles();
  ASSERT_FALSE(files.empty()) << "no *.json catalog under " << OPENGPA_SOURCE_DIR "/catalogs";
  // Any name is accepted: which hardware counters exist is the device's business, the syntax is ours.
  std::uint32_t next_input = 0;
  const SymbolResolver any_name = [&next_input](std::string_view) -> std::optional<Symbol> {
    Symbol symbol;
    symbol.input = next_input++;
    return symbol;
  };
  for (const auto& file : files) {
    std::ifstream stream(file);
    std::stringstream text;
    text << stream.rdbuf();
    Catalog catalog;
    std::string error;
    if (!ParseCatalog(text.str(), &catalog, &error)) {
      ADD_FAILURE() << file.filename() << ": " << error;
      continue;
    }
    EXPECT_FALSE(catalog.counters.empty()) << file.filename() << " defines no counter";
    for (const CounterDefinition& counter : catalog.counters) {
      Expression expression;
      EXPECT_TRUE(Expression::Parse(counter.formula, any_name, &expression, &error))
          << file.filename() << " " << counter.name << ": " << error;
    }
  }
}

}  // namespace
}  // namespace opengpa
