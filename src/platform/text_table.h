// A table of strings printed either aligned (columns padded to their widest cell) or as RFC 4180 CSV.
#ifndef OPENGPA_PLATFORM_TEXT_TABLE_H_
#define OPENGPA_PLATFORM_TEXT_TABLE_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace opengpa {

enum class Alignment { kLeft, kRight };

struct TextTable {
  std::vector<std::string> header;
  std::vector<Alignment> alignment;  // per column; missing entries are kLeft
  std::vector<std::vector<std::string>> rows;
  // Longest line allowed (the terminal's width); 0: no limit. Over it, the last column wraps onto
  // continuation lines under itself; when the other columns alone leave it fewer than kMinLastColumn
  // characters, their longest cells are elided ("...") first.
  std::size_t max_width = 0;
  // The first `whole_columns` columns are never elided (a counter's index and name: what the user types next).
  std::size_t whole_columns = 0;
  // Over max_width the last column is cut to its room and ends in "..." instead of wrapping: one line per row
  // (opengpa list's descriptions; --wide shows them whole).
  bool cut_last_column = false;
};

inline constexpr std::size_t kMinLastColumn = 24;

// Columns separated by two spaces, a dashed rule under the header, no trailing spaces.
// The last column is never padded, so long descriptions do not widen every line.
void WriteAligned(const TextTable& table, std::ostream& out);

// Header line then one line per row; a cell holding a comma, quote, CR or LF is quoted, quotes doubled.
void WriteCsv(const TextTable& table, std::ostream& out);

std::string CsvCell(std::string_view cell);

// `text` with its lines broken at spaces so that none is longer than `width` (0: unchanged).
std::string WrapText(const std::string& text, std::size_t width);

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_TEXT_TABLE_H_
