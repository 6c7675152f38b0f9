#include "text_table.h"

#include <algorithm>

namespace opengpa::cli {
namespace {

void WriteRow(const std::vector<std::string>& cells, const std::vector<std::size_t>& widths,
              const std::vector<Alignment>& alignment, std::ostream& out) {
  std::string line;
  for (std::size_t column = 0; column < cells.size(); ++column) {
    if (column > 0) line += "  ";
    const std::string& cell = cells[column];
    const bool last = column + 1 == cells.size();
    const std::size_t padding = widths[column] > cell.size() ? widths[column] - cell.size() : 0;
    const bool right = column < alignment.size() && alignment[column] == Alignment::kRight;
    if (right) line.append(padding, ' ');
    line += cell;
    if (!right && !last) line.append(padding, ' ');
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out << line << '\n';
}

}  // namespace

void WriteAligned(const TextTable& table, std::ostream& out) {
  std::vector<std::size_t> widths(table.header.size(), 0);
  for (std::size_t column = 0; column < table.header.size(); ++column) widths[column] = table.header[column].size();
  for (const auto& row : table.rows) {
    for (std::size_t column = 0; column < row.size() && column < widths.size(); ++column) {
      widths[column] = std::max(widths[column], row[column].size());
    }
  }
  WriteRow(table.header, widths, table.alignment, out);
  std::vector<std::string> rule;
  for (std::size_t width : widths) rule.emplace_back(width, '-');
  WriteRow(rule, widths, {}, out);
  for (const auto& row : table.rows) WriteRow(row, widths, table.alignment, out);
}

std::string CsvCell(std::string_view cell) {
  if (cell.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(cell);
  std::string quoted = "\"";
  for (char c : cell) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

void WriteCsv(const TextTable& table, std::ostream& out) {
  auto write_line = [&out](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out << ',';
      out << CsvCell(cells[i]);
    }
    out << '\n';
  };
  write_line(table.header);
  for (const auto& row : table.rows) write_line(row);
}

}  // namespace opengpa::cli
