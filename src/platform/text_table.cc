#include "platform/text_table.h"

#include <algorithm>

namespace opengpa {
namespace {

std::string Elided(const std::string& cell, std::size_t width) {
  if (cell.size() <= width) return cell;
  if (width <= 3) return cell.substr(0, width);
  return cell.substr(0, width - 3) + "...";
}

// `text` cut into lines of at most `width` characters, at spaces where possible.
std::vector<std::string> Wrapped(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (text.size() - start > width) {
    std::size_t cut = text.rfind(' ', start + width);
    if (cut == std::string::npos || cut <= start) {
      lines.push_back(text.substr(start, width));
      start += width;
      continue;
    }
    lines.push_back(text.substr(start, cut - start));
    start = cut + 1;
  }
  lines.push_back(text.substr(start));
  return lines;
}

void WriteRow(const std::vector<std::string>& row, const std::vector<std::size_t>& widths,
              const std::vector<Alignment>& alignment, std::size_t last_width, bool cut_last, std::ostream& out) {
  std::vector<std::string> cells = row;
  std::vector<std::string> continuation;
  for (std::size_t column = 0; column + 1 < cells.size() && column < widths.size(); ++column) {
    cells[column] = Elided(cells[column], widths[column]);
  }
  if (cut_last && last_width > 0 && !cells.empty()) {
    cells.back() = Elided(cells.back(), last_width);
  } else if (last_width > 0 && !cells.empty() && cells.back().size() > last_width) {
    continuation = Wrapped(cells.back(), last_width);
    cells.back() = continuation.front();
    continuation.erase(continuation.begin());
  }
  std::string line;
  std::size_t indent = 0;
  for (std::size_t column = 0; column < cells.size(); ++column) {
    if (column > 0) line += "  ";
    if (column + 1 == cells.size()) indent = line.size();
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
  for (const auto& more : continuation) out << std::string(indent, ' ') << more << '\n';
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
  std::size_t last_width = 0;  // 0: the last column is not wrapped
  if (table.max_width > 0 && !widths.empty()) {
    auto before_last = [&widths] {
      std::size_t total = 0;
      for (std::size_t column = 0; column + 1 < widths.size(); ++column) total += widths[column] + 2;
      return total;
    };
    if (before_last() + widths.back() > table.max_width) {
      // Elide the widest of the other columns (not the whole ones) until the last one has room, keeping each at
      // 4 or more.
      const std::size_t first_elided = std::min(table.whole_columns, widths.size() - 1);
      while (before_last() + kMinLastColumn > table.max_width) {
        auto widest = std::max_element(widths.begin() + first_elided, widths.end() - 1);
        if (widest == widths.end() - 1 || *widest <= 4) break;
        --*widest;
      }
      last_width = table.max_width > before_last() + 8 ? table.max_width - before_last() : std::size_t{8};
      widths.back() = std::min(widths.back(), last_width);
    }
  }
  const bool cut = table.cut_last_column;
  WriteRow(table.header, widths, table.alignment, last_width, cut, out);
  std::vector<std::string> rule;
  rule.reserve(widths.size());
  for (std::size_t width : widths) rule.emplace_back(width, '-');
  WriteRow(rule, widths, {}, last_width, cut, out);
  for (const auto& row : table.rows) WriteRow(row, widths, table.alignment, last_width, cut, out);
}

std::string WrapText(const std::string& text, std::size_t width) {
  if (width == 0) return text;
  std::string wrapped;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    for (const auto& line : Wrapped(text.substr(start, end - start), width)) wrapped += line + '\n';
    start = end + 1;
  }
  if (!wrapped.empty() && text.back() != '\n') wrapped.pop_back();
  return wrapped;
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

}  // namespace opengpa
