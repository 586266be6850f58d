/// @file source_code.hpp
/// @brief A C, C++, CUDA or OpenCL C source as its compiler reads the code: for the exercise checks
/// that look for a construct in a student's file (an address space, an include, an intrinsic), so that
/// a comment naming it does not count, and a line split with a backslash does not hide it.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace gpgpu::harness {

/// What code_without_comments does with string, character and raw string literals.
enum class Literals {
  keep,   ///< as they are (an #include's "file" is one)
  blank,  ///< each replaced by one space (a printf's text names nothing the code uses)
};

/// `text` with every backslash-newline splice joined and every comment replaced by one space (a line
/// comment's newline kept, so lines stay lines). A literal runs to its closing quote, past escaped
/// ones, or to the end of its line; a raw string (R"delim( ... )delim") to its closing delimiter.
inline std::string code_without_comments(std::string_view text, Literals literals = Literals::keep) {
  std::string spliced;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      continue;
    }
    spliced += text[i];
  }
  std::string out;
  const auto literal = [&](std::size_t from, std::size_t stop) {
    if (literals == Literals::keep) out.append(spliced, from, stop - from);
    else out += ' ';
  };
  for (std::size_t i = 0; i < spliced.size();) {
    const char c = spliced[i];
    if (spliced.compare(i, 2, "//") == 0) {
      i = spliced.find('\n', i);
      if (i == std::string::npos) i = spliced.size();
      out += ' ';
    } else if (spliced.compare(i, 2, "/*") == 0) {
      const std::size_t end = spliced.find("*/", i + 2);
      i = end == std::string::npos ? spliced.size() : end + 2;
      out += ' ';
    } else if (c == 'R' && i + 1 < spliced.size() && spliced[i + 1] == '"') {
      const std::size_t open = spliced.find('(', i + 2);
      std::string close = ")";  // then the delimiter and the quote
      if (open != std::string::npos) close.append(spliced, i + 2, open - i - 2).push_back('"');
      const std::size_t end = open == std::string::npos ? std::string::npos : spliced.find(close, open);
      const std::size_t stop = end == std::string::npos ? spliced.size() : end + close.size();
      literal(i, stop);
      i = stop;
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < spliced.size() && spliced[j] != c && spliced[j] != '\n') j += spliced[j] == '\\' ? 2 : 1;
      // past the closing quote; an unclosed literal ends before its line's newline, which stays code
      const std::size_t stop = j < spliced.size() ? (spliced[j] == c ? j + 1 : j) : spliced.size();
      literal(i, stop);
      i = stop;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

}  // namespace gpgpu::harness
