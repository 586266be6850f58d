/// @file checks.hpp
/// @brief What every multiply variant's test checks, on any backend: the awkward sizes, and runs of
/// the variant's GemmOperation on random operands of both signs against the FP64 reference within
/// γ_k |A||B|, with the operation's contract (C poisoned by upload(), several calls giving a result
/// that still passes).
#pragma once
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/fp8.hpp"
#include "gpgpu/blas/operation.hpp"

namespace gpgpu::blas {
/// GoogleTest prints a Dims parameter as "17x1023x33".
inline void PrintTo(const Dims& d, std::ostream* os) { *os << d.str(); }
/// A variant by its name in the tests' listings and failures (not as its bytes).
inline void PrintTo(const GemmVariant& v, std::ostream* os) { *os << v.info.name; }
}  // namespace gpgpu::blas

namespace gpgpu::blas::checks {

/// m x n x k: one element, one row or column of C from a long or a one-term dot product, and
/// sizes that are no multiple of any tile (16, 32, 64, 128), warp or vector width (4), each in a
/// different dimension, rectangular both ways.
inline std::vector<Dims> awkward_dims() {
  return {{1, 1, 1},     {1, 1000, 1},   {1, 1, 1000},   {1000, 1, 3},   {17, 1023, 33},
          {33, 17, 1023}, {1023, 33, 17}, {67, 129, 93},  {130, 131, 129}, {257, 255, 66}};
}
/// Sizes where k and n are multiples of 4 (the kernels' 16-byte path in float and double): full
/// tiles, a partial tile in every dimension, one vector of a row.
inline std::vector<Dims> aligned_dims() { return {{128, 128, 16}, {131, 132, 20}, {1, 4, 4}, {67, 260, 36}}; }
/// Sizes only a GPU runs in a test: one dimension past every tile by one, and the chapter's 4097.
inline std::vector<Dims> large_dims() { return {{4097, 4097, 4097}, {2049, 1023, 4097}, {1000, 3001, 515}}; }

inline constexpr ElementType kTypes[] = {ElementType::f32, ElementType::f64};

inline std::string case_name(const Dims& d, ElementType t) { return d.str() + " " + std::string(matrix::type_name(t)); }

/// The operands and reference of a size and type, made once per test program (the reference of
/// 4097³ takes seconds).
inline const std::pair<Operands, Reference>& problem(const Dims& d, ElementType t) {
  static std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, int>, std::pair<Operands, Reference>> cache;
  const auto key = std::make_tuple(d.m, d.n, d.k, static_cast<int>(t));
  auto it = cache.find(key);
  if (it == cache.end()) {
    Operands ops = random_operands(d, t, 21);
    Reference ref = reference(ops);
    it = cache.emplace(key, std::make_pair(std::move(ops), std::move(ref))).first;
  }
  return it->second;
}

/// The reference `arithmetic` is judged against at that size: problem()'s, or for FP8 the product of
/// its operands dequantised from E4M3 (fp8.hpp; per tensor or per block) with its accumulator's partial
/// sums (fp8_reference), made once per test program too.
inline const Reference& reference_for(const Dims& d, ElementType t, Arithmetic arithmetic) {
  const auto& [ops, ref] = problem(d, t);
  if (!judged_on_dequantised_inputs(arithmetic)) return ref;
  static std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, int, bool>, Reference> cache;
  const auto key = std::make_tuple(d.m, d.n, d.k, static_cast<int>(t), block_scaled(arithmetic));
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, fp8_reference(dequantised_inputs(arithmetic, ops), arithmetic)).first;
  return it->second;
}

/// Runs `v`'s operation at `dims` in `type`: after upload() every byte of C must be the poison
/// (0xFF); after one call and after a fresh upload and three calls, C must be within the bound.
inline ::testing::AssertionResult runs_within_bound(const GemmVariant& v, const Dims& dims, ElementType type,
                                                    Session& session) {
  const Operands& ops = problem(dims, type).first;
  const std::string what = v.info.name + " on " + case_name(dims, type);
  const std::unique_ptr<GemmOperation> op = v.make({dims, type}, session);
  op->upload(ops);
  const HostMatrix before = op->download();
  if (before.shape() != dims.c()) return ::testing::AssertionFailure() << what << ": C of shape " << before.shape().str();
  const auto* bytes = static_cast<const unsigned char*>(before.data());
  for (std::size_t i = 0; i < before.bytes(); ++i)
    if (bytes[i] != 0xFF) return ::testing::AssertionFailure() << what << ": upload() left byte " << i << " of C unpoisoned";
  for (int calls : {1, 3}) {
    op->upload(ops);
    (void)op->run(calls);
    const Verification check = compare(op->download(), reference_for(dims, type, v.arithmetic(type)), v.arithmetic(type));
    if (!check.pass) return ::testing::AssertionFailure() << what << " after " << calls << " call(s): " << check.summary();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gpgpu::blas::checks
