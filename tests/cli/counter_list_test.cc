#include "counter_selection.h"

#include <gtest/gtest.h>

namespace opengpa::cli {
namespace {

TEST(CounterListTest, NamesComeOnePerLineOrCommaSeparatedWithCommentsAndBlanksIgnored) {
  const std::string text =
      "# memory\n"
      "dram__bytes_read.sum, dram__bytes_write.sum\n"
      "\n"
      "  GPUTime  # the sample's time\n";
  EXPECT_EQ(ParseCounterList(text),
            (std::vector<std::string>{"dram__bytes_read.sum", "dram__bytes_write.sum", "GPUTime"}));
}

TEST(CounterListTest, ARepeatedNameIsKeptOnceInFirstPosition) {
  EXPECT_EQ(ParseCounterList("b\na,b\nc\na\n"), (std::vector<std::string>{"b", "a", "c"}));
}

TEST(CounterListTest, CollectingNothingIsAnErrorThatSaysHowToNameCounters) {
  CounterSelection selection;
  std::vector<std::string> names;
  std::string error;
  EXPECT_FALSE(CollectCounterNames(selection, &names, &error));
  EXPECT_NE(error.find("--counters"), std::string::npos) << error;
}

TEST(CounterListTest, AnUnreadableListFileIsAnErrorNamingIt) {
  CounterSelection selection;
  selection.list_file = "/nonexistent/counters.txt";
  std::vector<std::string> names;
  std::string error;
  EXPECT_FALSE(CollectCounterNames(selection, &names, &error));
  EXPECT_NE(error.find("/nonexistent/counters.txt"), std::string::npos) << error;
}

}  // namespace
}  // namespace opengpa::cli
