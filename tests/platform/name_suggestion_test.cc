#include "platform/name_suggestion.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace opengpa {
namespace {

TEST(NameSuggestionTest, AMisspeltNameGetsTheClosestInAnyCase) {
  const std::vector<std::string> names = {"GPUTime", "GPUBusy", "ExecutionDuration", "dram__bytes_read.sum"};
  EXPECT_EQ(ClosestName("gputiem", names), "GPUTime");
  EXPECT_EQ(ClosestName("DRAM__bytes_red.sum", names), "dram__bytes_read.sum");
  EXPECT_EQ(ClosestName("Execution", names), "ExecutionDuration");  // the one name it begins
  EXPECT_EQ(ClosestName("Nothing", names), std::nullopt);
}

TEST(NameSuggestionTest, HugeWordsAndLongCataloguesCostLittle) {
  std::vector<std::string> names;
  for (int i = 0; i < 15000; ++i) names.push_back("unit" + std::to_string(i) + "__metric_name.sum");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(ClosestName(std::string(1 << 20, 'x'), names), std::nullopt);
  EXPECT_EQ(ClosestName(std::string(200, 'x'), names), std::nullopt);
  EXPECT_EQ(ClosestName("unit14999__metric_nme.sum", names), "unit14999__metric_name.sum");
  // Unbounded, the 200-character word alone was 15,000 comparisons of 200 x 25 cells; bounded it is at once.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(NameSuggestionTest, QuotedValuesAreBoundedAndShowNoControlCharacters) {
  EXPECT_EQ(Quoted("GPUTime"), "GPUTime");
  const std::string shown = Quoted(std::string(1 << 20, 'x'));
  EXPECT_LT(shown.size(), 120u);
  EXPECT_NE(shown.find("... (1048576 characters)"), std::string::npos) << shown;
  EXPECT_EQ(Quoted("a\nb\x1b[2J"), "a?b?[2J");
}

}  // namespace
}  // namespace opengpa
