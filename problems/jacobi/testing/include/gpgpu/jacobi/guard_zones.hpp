/// @file guard_zones.hpp
/// @brief Guard zones around a kernel's output, for the checks of exercises 03 and 04 (and the
/// marked NaNs of exercise 06's) (GPU and CPU
/// emulation alike): an array holds its unknowns between values the kernel must never write, and a
/// check compares everything outside the unknowns, bit for bit, with what was there before the run.
/// A guard is a NaN, so a read outside the grid poisons the result too (0 × NaN is NaN). Arithmetic
/// on a NaN passes its bits on (x86) or gives the canonical NaN (GPUs): a value computed from one
/// array's guards and written into another's would look untouched if both held the same NaN, so the
/// two iterates of a ping-pong get NaNs of different payloads (guard_nan's tag).
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <ios>
#include <sstream>
#include <string>
#include <span>
#include <type_traits>

#include <gtest/gtest.h>

namespace gpgpu::jacobi::checks {

template <typename T>
using GuardBits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <typename T>
GuardBits<T> bits_of(T v) {
  static_assert(std::is_floating_point_v<T> && (sizeof(T) == 4 || sizeof(T) == 8));
  return std::bit_cast<GuardBits<T>>(v);
}

/// `v`'s bits in hexadecimal, 0x-prefixed (an AssertionResult streams each value on its own, so
/// std::hex would not reach the next one).
template <typename T>
std::string hex_bits(T v) {
  std::ostringstream out;
  out << "0x" << std::hex << bits_of(v);
  return out.str();
}

/// A quiet NaN of sign 1 whose low payload bits are `tag` (tag 0: every bit set, 0xFFFFFFFF for
/// float). Neither tag 0 nor a small non-zero tag is the canonical NaN a GPU writes.
template <typename T>
T guard_nan(unsigned tag = 0) {
  GuardBits<T> bits = ~GuardBits<T>{0};
  if (tag != 0) bits = (bits & ~GuardBits<T>{0xFFFF}) | GuardBits<T>{tag & 0xFFFFu};
  return std::bit_cast<T>(bits);
}

/// The guard NaN of iterate `b` (0 or 1) of a ping-pong: tags 1 and 2, so that a value computed from
/// one iterate's guards and written into the other's (a thread past the grid without its range test)
/// no longer matches them.
template <typename T>
T iterate_guard_nan(std::size_t b) {
  return guard_nan<T>(static_cast<unsigned>(b) + 1);
}

/// Whether `now` holds the bits of `was` at every index outside [first, first + n): the unknowns
/// (the kernel's to write) are skipped, every guard and ghost is compared. Names the first write it
/// finds by its distance from unknown 0, with both bit patterns (two NaNs print alike).
template <typename T>
::testing::AssertionResult untouched_outside(std::span<const T> now, std::span<const T> was, std::size_t first,
                                             std::size_t n) {
  if (now.size() != was.size())
    return ::testing::AssertionFailure() << "compared arrays of " << now.size() << " and " << was.size() << " values";
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (i >= first && i < first + n) continue;
    if (bits_of(now[i]) != bits_of(was[i]))
      return ::testing::AssertionFailure() << "a write outside the unknowns, "
                                           << static_cast<long long>(i) - static_cast<long long>(first)
                                           << " from unknown 0: " << now[i] << " (bits " << hex_bits(now[i])
                                           << ") where " << was[i] << " (bits " << hex_bits(was[i]) << ") was";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gpgpu::jacobi::checks
