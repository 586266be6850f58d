/// @file load_watch.hpp
/// @brief The CPU check's eye on how exercise 12's kernel reads A: __ldg for one float and for a
/// float4, instrumented. Included after the emulation (which gives __ldg as a template that just
/// loads) and before the kernel, these overloads are the ones the kernel's calls pick.
///
/// A load inside the watched matrix is counted by width and checked: a float4 must be 16-byte
/// aligned, and no load may reach past column n - 1 of its row (into the padding up to lda). The
/// check then compares the counts with what reading every element once, four at a time wherever
/// four columns of a row lie inside it, gives: m * (n / 4) float4 loads and m * (n % 4) float loads.
/// Loads outside the matrix (x) are not watched.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ex12::watch {

struct Watch {
  const float* a = nullptr;
  std::ptrdiff_t floats = 0;  // m * lda
  int lda = 1, n = 0;
  long long loads16 = 0, loads4 = 0;
  std::vector<std::string> faults;  // the first few bad loads, described

  void fault(const std::string& what) {
    if (faults.size() < 4) faults.push_back(what);
  }
  /// Checks a load of `width` floats at p; false when p is not in the matrix.
  bool see(const float* p, int width) {
    const auto address = reinterpret_cast<std::uintptr_t>(p), first = reinterpret_cast<std::uintptr_t>(a);
    if (a == nullptr || address < first || address >= first + sizeof(float) * static_cast<std::size_t>(floats)) return false;
    const auto at = static_cast<long long>((address - first) / sizeof(float));
    const long long row = at / lda, col = at % lda;
    if (col + width > n)
      fault("a " + std::to_string(4 * width) + "-byte load of columns " + std::to_string(col) + "..." +
            std::to_string(col + width - 1) + " of row " + std::to_string(row) + ": past column n - 1 = " + std::to_string(n - 1));
    if (width == 4 && reinterpret_cast<std::uintptr_t>(p) % 16 != 0)
      fault("a 16-byte load at column " + std::to_string(col) + " of row " + std::to_string(row) + " that is not 16-byte aligned");
    (width == 4 ? loads16 : loads4) += 1;
    return true;
  }
};

inline Watch current;

}  // namespace ex12::watch

inline float4 __ldg(const float4* p) {
  ex12::watch::current.see(reinterpret_cast<const float*>(p), 4);
  float4 v;
  std::memcpy(&v, p, sizeof v);  // a misaligned p is reported above, not a crash here
  return v;
}

inline float __ldg(const float* p) {
  ex12::watch::current.see(p, 1);
  return *p;
}
