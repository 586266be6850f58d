/// @file checks.hpp
/// @brief What every matrix variant's test checks, on any backend: the awkward shapes, and one run
/// of the variant's Operation on random operands of both signs against the CPU reference, bit for
/// bit, with the Operation contract (the output poisoned by upload(), several calls giving the same
/// result).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/matrix/operation.hpp"

namespace gpgpu::matrix {
/// GoogleTest prints a Shape parameter as "17x1023".
inline void PrintTo(const Shape& s, std::ostream* os) { *os << s.str(); }
}  // namespace gpgpu::matrix

namespace gpgpu::matrix::checks {

/// 1x1, one row, one column, 17 x 1023 and 4097 x 33 (no multiple of any block, tile or warp, one
/// side below a tile), their mirror images, two more shapes no tile divides.
inline std::vector<Shape> awkward_shapes() {
  return {{1, 1}, {1, 1000}, {1000, 1}, {17, 1023}, {1023, 17}, {4097, 33}, {33, 4097}, {67, 129}, {100, 37}};
}

/// Shapes whose rows and cols are multiples of 4, so that a row of the input and of the output is a
/// whole number of 16-byte vectors (of floats, ints and doubles): whole 64 x 64 tiles, tiles cut by
/// the edge beside them, one vector, and 34 tile columns (two panels of 09_12, the second narrower).
/// The 16-byte transposes take their vector path on these.
inline std::vector<Shape> whole_vector_shapes() {
  return {{64, 64}, {128, 192}, {132, 68}, {68, 260}, {4, 4}, {256, 8}, {132, 64 * 33 + 4}};
}

/// 4600 x 4600: 85 MB per float matrix, more than the H100's 50 MB L2 (and every CPU's last-level cache).
inline constexpr Shape kBeyondL2{4600, 4600};

inline constexpr ElementType kTypes[] = {ElementType::f32, ElementType::f64, ElementType::i32};

/// "17x1023 float".
inline std::string case_name(const Shape& s, ElementType t) { return s.str() + " " + std::string(type_name(t)); }

/// Runs `variant`'s operation on random operands of `shape` and `type`: after upload() every byte of the
/// output must be the poison; after one call the result must equal the CPU reference bit for bit;
/// after a fresh upload and three calls back to back, again.
inline ::testing::AssertionResult runs_exactly(const Variant& variant, const Shape& shape, ElementType type,
                                               Session& session) {
  const Inputs in = random_inputs({shape, type}, 21);
  const HostMatrix ref = variant.op == Op::add         ? add_reference(in.a, in.b)
                         : variant.op == Op::transpose ? transpose_reference(in.a)
                                                       : in.a;
  const std::string what = variant.info.name + " on " + case_name(shape, type);
  const std::unique_ptr<Operation> op = variant.make(in, session);
  op->upload(in);
  const HostMatrix before = op->download();
  if (before.shape() != ref.shape()) return ::testing::AssertionFailure() << what << ": result of shape " << before.shape().str();
  const auto* bytes = static_cast<const unsigned char*>(before.data());
  for (std::size_t i = 0; i < before.bytes(); ++i)
    if (bytes[i] != static_cast<unsigned char>(poison_byte(type)))
      return ::testing::AssertionFailure() << what << ": upload() left output byte " << i << " unpoisoned";
  for (int calls : {1, 3}) {
    op->upload(in);
    (void)op->run(calls);
    const Verification v = compare(op->download(), ref);
    if (!v.pass) return ::testing::AssertionFailure() << what << " after " << calls << " call(s): " << v.summary();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gpgpu::matrix::checks
