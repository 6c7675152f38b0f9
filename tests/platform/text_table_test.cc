#include "platform/text_table.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace opengpa {
namespace {

TEST(TextTableTest, AlignedTablePadsEveryColumnButTheLastToItsWidestCell) {
  TextTable table;
  table.header = {"index", "name", "description"};
  table.alignment = {Alignment::kRight};
  table.rows = {{"0", "GPUTime", "time"}, {"12", "X", "a longer description"}};
  std::ostringstream out;
  WriteAligned(table, out);
  EXPECT_EQ(out.str(),
            "index  name     description\n"
            "-----  -------  --------------------\n"
            "    0  GPUTime  time\n"
            "   12  X        a longer description\n");
}

TEST(TextTableTest, AlignedRowsCarryNoTrailingSpaces) {
  TextTable table;
  table.header = {"a", "b"};
  table.rows = {{"long cell", ""}};
  std::ostringstream out;
  WriteAligned(table, out);
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) EXPECT_NE(line.back(), ' ') << line;
}

TEST(TextTableTest, ALongLastColumnWrapsUnderItselfWithinTheWidth) {
  TextTable table;
  table.header = {"index", "name", "description"};
  table.rows = {{"0", "GPUTime", "time spent by the GPU on this sample, from the first command to the last"}};
  table.max_width = 50;
  std::ostringstream out;
  WriteAligned(table, out);
  std::istringstream lines(out.str());
  std::string text;
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_LE(line.size(), 50u) << line;
    if (count >= 3) {
      EXPECT_EQ(line.rfind("                ", 0), 0u) << "continuation not under its column: " << line;
    }
    if (count >= 2) text += (text.empty() ? "" : " ") + line.substr(16);
  }
  EXPECT_GT(count, 3);
  EXPECT_EQ(text, table.rows[0][2]);  // nothing of the description is lost
}

TEST(TextTableTest, OtherColumnsAreElidedWhenTheyLeaveTheLastTooLittleRoom) {
  TextTable table;
  table.header = {"name", "description"};
  table.rows = {{std::string(100, 'm'), "short"}};
  table.max_width = 60;
  std::ostringstream out;
  WriteAligned(table, out);
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 60u) << line;
  EXPECT_NE(out.str().find("mmm...  short"), std::string::npos) << out.str();
}

TEST(TextTableTest, WholeColumnsKeepTheirCellsAndTheCutLastColumnTakesOneLinePerRow) {
  TextTable table;
  table.header = {"index", "name", "group", "description"};
  table.alignment = {Alignment::kRight};
  const std::string name = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
  table.rows = {{"7", name, std::string(30, 'g'), "the share of the peak sustained rate of the busiest SM unit"}};
  table.max_width = 80;
  table.whole_columns = 2;
  table.cut_last_column = true;
  std::ostringstream out;
  WriteAligned(table, out);
  std::istringstream lines(out.str());
  std::vector<std::string> all;
  for (std::string line; std::getline(lines, line);) all.push_back(line);
  ASSERT_EQ(all.size(), 3u) << out.str();  // header, rule, one row: nothing wrapped
  EXPECT_NE(all[2].find(name + "  "), std::string::npos) << "the name was elided: " << all[2];
  EXPECT_NE(all[2].find("  g...  the share"), std::string::npos) << "the group was not the column elided: " << all[2];
  EXPECT_EQ(all[2].size(), 80u) << all[2];
  EXPECT_EQ(all[2].substr(all[2].size() - 3), "...") << all[2];
}

TEST(TextTableTest, WrapTextBreaksEachLineAtSpacesAndKeepsLineEnds) {
  EXPECT_EQ(WrapText("one two three\nfour\n", 8), "one two\nthree\nfour\n");
  EXPECT_EQ(WrapText("a\n\nb", 8), "a\n\nb");
  EXPECT_EQ(WrapText("unchanged without a width", 0), "unchanged without a width");
}

TEST(TextTableTest, WithoutAWidthNothingIsWrapped) {
  TextTable table;
  table.header = {"a", "b"};
  table.rows = {{"x", std::string(300, 'y')}};
  std::ostringstream out;
  WriteAligned(table, out);
  EXPECT_EQ(out.str(), "a  b\n-  " + std::string(300, '-') + "\nx  " + std::string(300, 'y') + "\n");
}

TEST(TextTableTest, CsvQuotesOnlyCellsThatNeedItAndDoublesQuotes) {
  EXPECT_EQ(CsvCell("plain"), "plain");
  EXPECT_EQ(CsvCell("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvCell("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvCell("two\nlines"), "\"two\nlines\"");
}

TEST(TextTableTest, CsvHasTheHeaderThenOneLinePerRow) {
  TextTable table;
  table.header = {"name", "formula"};
  table.rows = {{"Busy", "max(min(a / b * 100, 100), 0)"}};
  std::ostringstream out;
  WriteCsv(table, out);
  EXPECT_EQ(out.str(), "name,formula\nBusy,\"max(min(a / b * 100, 100), 0)\"\n");
}

}  // namespace
}  // namespace opengpa
