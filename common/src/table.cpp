#include "gpgpu/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace gpgpu {

std::string format_cell(const char* format, double value) {
  if (!std::isfinite(value)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

namespace {
// Display width of a UTF-8 cell: continuation bytes (10xxxxxx) take no column of their own.
std::size_t columns(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}
}  // namespace

void print_text_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, std::size_t left_aligned) {
  if (rows.empty()) return;
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], columns(row[c]));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (std::size_t c = 0; c < rows[r].size() && c < width.size(); ++c) {
      const std::string& cell = rows[r][c];
      const std::string pad(width[c] - columns(cell), ' ');
      line += c < left_aligned ? cell + pad : pad + cell;
      if (c + 1 < rows[r].size()) line += "  ";
    }
    out << "  " << line << '\n';
    if (r == 0) out << "  " << std::string(columns(line), '-') << '\n';
  }
}

}  // namespace gpgpu
