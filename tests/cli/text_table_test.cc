#include "text_table.h"

#include <gtest/gtest.h>

#include <sstream>

namespace opengpa::cli {
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
}  // namespace opengpa::cli
