/// @file chunks.hpp
/// @brief The plan of the overlapped transfers ("w/ overlapped"): a routine's operands split into
/// chunks whose copies up, calls and copies down go on a few CUDA streams, so that chunk i+1 is
/// copied up while chunk i is computed and chunk i-1 copied down. Plain arithmetic on offsets, no
/// CUDA: the CPU test carries a plan out on host arrays (chunks.cpp's users: cuda_variants.cpp).
///
/// Which routines chunk: those whose result splits into parts that each need only part of the
/// inputs. SAXPY and SSCAL by element ranges; SGEMV (y = A x) by bands of rows of A, x shared by
/// all; the convolution by bands of image rows, each reading r = k / 2 rows of its neighbours'
/// (the halo), the filter shared. Not SGEMV_T (y = Aᵀ x: every element of y sums over all rows of
/// A, so a band of rows gives partial sums of all of y; chunks would add into y one after another)
/// and not SGEMM (every band of C needs all of B before its first FMA, so B's copy cannot overlap
/// anything, and A's and C's bands are a third each of the bytes): for these, plan_chunks() is empty.
#pragma once
#include <cstdint>
#include <vector>

#include "gpgpu/blas/routines.hpp"

namespace ch12 {

/// The arrays of a case (gpgpu::blas::Case's a, b, x, y), by the same offsets on host and device.
enum class Array { a, b, x, y };

/// `count` elements of an array from `first`.
struct Copy {
  Array array;
  std::int64_t first = 0, count = 0;
};

/// One chunk: what it copies up, which earlier chunks' copies its call also reads, the
/// sub-problem the call computes, and the part of the result it copies down.
struct Chunk {
  std::vector<Copy> uploads;   ///< every element of every input is copied up by exactly one chunk
  /// Earlier chunks whose uploads the call reads (shared operands, halo rows): the data flow that
  /// any schedule must respect. cuda_variants.cpp meets it with a stronger order, every upload on
  /// one stream, so chunk i's event covers them all; the CPU test checks the plan against it.
  std::vector<int> waits;
  std::int64_t a_first = 0;    ///< the call's A (or image) starts here
  std::int64_t x_first = 0;    ///< its x (SAXPY, SSCAL, SGEMV's shared x: 0)
  std::int64_t m = 0, n = 0;   ///< its sizes (rows x cols of its image band; n of a vector range)
  /// Where the call writes: saxpy y / sscal x from x_first; SGEMV out from out_first; the
  /// convolution into a band buffer of its own (rows lo..hi of the image: m x n), of which rows
  /// band_skip .. band_skip + result_count / n are the chunk's result.
  std::int64_t out_first = 0, band_skip = 0;
  std::int64_t result_first = 0, result_count = 0;  ///< the chunk's part of the result, host offsets
};

/// The chunks of `c` (at most `chunks` of them, fewer for small cases; element ranges a multiple
/// of 4 so that float4 kernels stay aligned), or empty for a routine that does not chunk.
std::vector<Chunk> plan_chunks(const gpgpu::blas::Case& c, int chunks);

/// The largest band a convolution chunk computes (m x n of the band buffer), 0 if none.
std::int64_t largest_band(const std::vector<Chunk>& plan);

}  // namespace ch12
