/// @file sgemv_t_vec4_checks.hpp
/// @brief What both checks of exercise 12 ask: y = Aᵀ x within chapter 12's bound γ_m |Aᵀ||x| at
/// shapes no block, strip or vector width divides, with A stored as the kernel takes it: rows lda
/// floats apart, with a guard of NaN after each row's n columns.
#pragma once
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/routines.hpp"

namespace ex12::checks {

/// (m, n): one element, one row, odd, a strip and a half, more rows than one block sweeps; n % 4
/// from 0 to 3, so that some threads' four columns end past the row and some do not.
inline std::vector<std::pair<int, int>> shapes() {
  return {{1, 1}, {1, 4}, {3, 5}, {67, 129}, {129, 68}, {300, 134}, {513, 131}, {1023, 516}};
}

/// The row pitch the checks give the kernel: n rounded up to a multiple of 4, plus one more float4
/// of guard, so that every row is followed by at least 4 padding floats.
inline int pitch_of(int n) { return (n + 3) / 4 * 4 + 4; }

/// A of a case stored with the pitch: row i at data() + i * lda, 16-byte aligned (Quad), and the
/// padding after column n - 1 of every row set to NaN, so that a kernel that adds a value from past
/// the row makes y NaN (the CPU check also flags the read itself).
struct PitchedMatrix {
  struct alignas(16) Quad {
    float f[4];
  };
  int m = 0, n = 0, lda = 0;
  std::vector<Quad> storage;

  explicit PitchedMatrix(const gpgpu::blas::Case& c)
      : m(static_cast<int>(c.m)), n(static_cast<int>(c.n)), lda(pitch_of(n)),
        storage(static_cast<std::size_t>(m) * static_cast<std::size_t>(lda) / 4) {
    float* rows = data();
    for (std::size_t i = 0; i < static_cast<std::size_t>(m); ++i)
      for (std::size_t j = 0; j < static_cast<std::size_t>(lda); ++j)
        rows[i * lda + j] = j < static_cast<std::size_t>(n) ? c.a[i * n + j] : std::numeric_limits<float>::quiet_NaN();
  }
  float* data() { return reinterpret_cast<float*>(storage.data()); }
  const float* data() const { return reinterpret_cast<const float*>(storage.data()); }
  std::size_t floats() const { return storage.size() * 4; }
};

using Compute = std::function<std::vector<float>(const gpgpu::blas::Case&, const PitchedMatrix&)>;

inline gpgpu::blas::Case make(int m, int n) {
  gpgpu::blas::RoutineSizes s;
  s.gemv_m = m;
  s.gemv_n = n;
  return gpgpu::blas::make_case(gpgpu::blas::Routine::sgemv_t, s, 12);
}

/// `compute(case, A)` (the kernel's y for the case's A, pitched, and x) against the FP64 reference.
inline ::testing::AssertionResult within_bound(const Compute& compute, int m, int n) {
  const gpgpu::blas::Case c = make(m, n);
  const gpgpu::Verification v = gpgpu::blas::compare(compute(c, PitchedMatrix(c)), gpgpu::blas::reference(c));
  if (v.pass) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "y = Aᵀ x for A of " << m << " x " << n << " (row pitch " << pitch_of(n)
                                       << "): " << v.summary();
}

}  // namespace ex12::checks
