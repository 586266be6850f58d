/// @file sgemv_t_vec4.hpp
/// @brief Exercise 12: y = Aᵀ x with four columns per thread, read as one float4 where the row allows.
#pragma once

namespace ex12 {

/// Columns of A one thread sums.
inline constexpr int kColumnsPerThread = 4;
/// Threads of a block: kThreadsX across the columns, kLanes down the rows.
inline constexpr int kThreadsX = 32, kLanes = 8;
/// The block's strip of A: kBlockColumns columns, kBlockRows rows.
inline constexpr int kBlockColumns = kThreadsX * kColumnsPerThread, kBlockRows = 256;

/// y (n) = Aᵀ x for A (m x n, row-major, row i starting at a + i * lda), x (m), y (n), all float in
/// device memory. lda >= n is a multiple of 4 and `a` is 16-byte aligned, so every row starts
/// 16-byte aligned; columns n ... lda - 1 of a row are padding that the kernel never reads.
/// y is zeroed on the default stream, then a grid of ceil(n / kBlockColumns) x ceil(m / kBlockRows)
/// blocks of kThreadsX x kLanes threads adds to it (atomicAdd), block (bx, by) the part of columns
/// bx*kBlockColumns ... from rows by*kBlockRows .... Thread (tx, ty) sums columns
/// bx*kBlockColumns + 4 tx ... + 3 over rows by*kBlockRows + ty, + ty + kLanes, .... Every element
/// of y is written, nothing outside A's n columns, x and y is read or written. Checks the launch.
void launch_sgemv_t_vec4(const float* a, int lda, const float* x, float* y, int m, int n);

}  // namespace ex12
