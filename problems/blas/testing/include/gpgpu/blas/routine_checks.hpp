/// @file routine_checks.hpp
/// @brief What every variant of paper 001's routines is tested on, on any backend: awkward sizes
/// (one element, odd, no multiple of any block, tile, warp or vector width, rectangular both ways,
/// larger than a CPU's last-level cache or a GPU's L2) and one checked run of the variant's operation
/// against the FP64 reference within the routine's error bound, with the operation's contract (an
/// out-of-place result poisoned by upload(); a second upload and call giving the same verdict).
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/routine_operation.hpp"

namespace gpgpu::blas::routine_checks {

/// How far past the caches the sizes go.
enum class Reach {
  small,     ///< what the emulation and the sanitizers can afford
  past_llc,  ///< one size of 32-64 MiB: past a CI machine's last-level cache (seconds each)
  past_l2,   ///< and one of 64-128 MiB per array, past an H100's 50 MiB L2 (the GPU tests)
};

/// One element, odd sizes, sizes no block, tile or vector width divides (and, for the convolution,
/// widths a float4 divides but no block), rectangular both ways, and as far past the caches as
/// `reach` says.
inline std::vector<RoutineSizes> awkward_sizes(Routine r, Reach reach) {
  const bool large = reach != Reach::small, huge = reach == Reach::past_l2;
  std::vector<RoutineSizes> v;
  const auto sized = [](auto&& set) {
    RoutineSizes s;
    set(s);
    return s;
  };
  switch (r) {
    case Routine::saxpy:
    case Routine::sscal:
      for (std::int64_t n : {1, 3, 31, 1001, 100003}) v.push_back(sized([n](RoutineSizes& s) { s.vector = n; }));
      if (large) v.push_back(sized([](RoutineSizes& s) { s.vector = (std::int64_t{1} << 23) + 7; }));  // 32 MiB a vector
      if (huge) v.push_back(sized([](RoutineSizes& s) { s.vector = (std::int64_t{1} << 25) + 7; }));  // 128 MiB
      break;
    case Routine::sgemv:
    case Routine::sgemv_t:
      for (auto [m, n] : {std::pair{1, 1}, {1, 1000}, {1000, 1}, {3, 5}, {67, 129}, {129, 67}, {1023, 517}, {33, 4099}})
        v.push_back(sized([m, n](RoutineSizes& s) { s.gemv_m = m; s.gemv_n = n; }));
      if (large) v.push_back(sized([](RoutineSizes& s) { s.gemv_m = 2051; s.gemv_n = 4099; }));  // 32 MiB
      if (huge) v.push_back(sized([](RoutineSizes& s) { s.gemv_m = 4099; s.gemv_n = 8195; }));  // 128 MiB
      break;
    case Routine::sgemm:
      for (std::int64_t n : {1, 3, 67, 129}) v.push_back(sized([n](RoutineSizes& s) { s.gemm = n; }));
      if (large) v.push_back(sized([](RoutineSizes& s) { s.gemm = 1031; }));
      if (huge) v.push_back(sized([](RoutineSizes& s) { s.gemm = 2053; }));
      break;
    case Routine::conv2d:
      for (auto [rows, cols, k] : {std::tuple{1, 1, 1}, {1, 1, 31}, {1, 37, 5}, {41, 1, 5}, {2, 3, 7}, {67, 129, 3},
                                   {130, 33, 17}, {19, 23, 31}, {257, 255, 9},
                                   // widths a float4 divides but no block (kernels that load 16 bytes where cols % 4 == 0)
                                   {37, 132, 3}, {70, 260, 13}, {5, 8, 31}})
        v.push_back(sized([=](RoutineSizes& s) { s.image = {rows, cols, k}; }));
      if (large) v.push_back(sized([](RoutineSizes& s) { s.image = {2051, 4097, 3}; }));  // 32 MiB
      if (huge) v.push_back(sized([](RoutineSizes& s) { s.image = {4099, 4097, 17}; }));  // 64 MiB in, 64 out
      break;
  }
  return v;
}

/// Runs `v`'s operation on the case of `sizes`: an out-of-place result must be all NaN after upload();
/// after one call, and again after a fresh upload and one call, within the bound.
inline ::testing::AssertionResult runs_within_bound(const RoutineVariant& v, const RoutineSizes& sizes, Session& session) {
  const Case c = make_case(v.routine, sizes, 17);
  const Expected expected = reference(c);
  const std::string what = v.info.name + " on " + c.size_str();
  const std::unique_ptr<RoutineOperation> op = v.make(c, session);
  op->upload(c);
  const bool in_place = v.routine == Routine::saxpy || v.routine == Routine::sscal;
  if (!in_place) {
    const std::vector<float> before = op->download();
    if (static_cast<std::int64_t>(before.size()) != c.output_size())
      return ::testing::AssertionFailure() << what << ": a result of " << before.size() << " elements";
    for (std::size_t i = 0; i < before.size(); ++i)
      if (!std::isnan(before[i])) return ::testing::AssertionFailure() << what << ": upload() left element " << i << " unpoisoned";
  }
  for (int round = 0; round < 2; ++round) {
    op->upload(c);
    (void)op->run(1);
    const Verification check = compare(op->download(), expected);
    if (!check.pass) return ::testing::AssertionFailure() << what << ", round " << round << ": " << check.summary();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gpgpu::blas::routine_checks
