/// @file table.hpp
/// @brief Aligned text tables, the form every chapter prints its numbers in.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace gpgpu {

/// One table cell: `value` printed with a printf `format` ("%.4f"), "-" when it is not finite.
std::string format_cell(const char* format, double value);

/// format_cell's short name, for the many cells of a report's tables.
inline std::string fmt(const char* format, double value) { return format_cell(format, value); }

/// Prints rows of cells as aligned columns, a rule under the first (header) row. The first
/// `left_aligned` columns are left-aligned (names), the others right-aligned (numbers).
void print_text_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows, std::size_t left_aligned);

}  // namespace gpgpu
