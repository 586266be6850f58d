/// @file symmetric_update.hpp
/// @brief The weighted Jacobi update of one node on the symmetric storage, written once for
/// 07b_04_symmetric.cu and for every kernel of chapter 07c that keeps values on chip across sweeps.
/// nvcc fuses a product and a sum into one FMA (one rounding) where it sees fit, and in a*b + c*d it
/// may fuse either product: the same expression in two kernels compiled two ways differs in the last
/// bit. So the update is written with the fused operations spelled out, in one order (the eight
/// couplings from south-west to north-east, then the division by the diagonal), and a kernel that
/// calls it computes, node for node, the bits 07b_04_symmetric.cu computes: temporal blocking changes
/// where values come from, never the arithmetic. On the host (the emulated tests) fmaf is the same
/// single-rounding operation. 07c_07_overlapped_scaled.cu alone gives up the bits, to multiply by a
/// precomputed ω / c instead of dividing by c (scaled_update).
#pragma once
#include <cmath>

namespace gpgpu::jacobi::cuda {

/// The eight off-diagonal entries of one row of the matrix, or the eight neighbour values they
/// multiply, in the order SW, S, SE, W, E, NW, N, NE.
struct Neighbours {
  float sw, s, se, w, e, nw, n, ne;
};

/// Σ a_k x_k in Neighbours order, each term after the first fused into the running sum.
__host__ __device__ inline float coupling_sum(const Neighbours& a, const Neighbours& x) {
  float sum = a.sw * x.sw;
  sum = fmaf(a.s, x.s, sum);
  sum = fmaf(a.se, x.se, sum);
  sum = fmaf(a.w, x.w, sum);
  sum = fmaf(a.e, x.e, sum);
  sum = fmaf(a.nw, x.nw, sum);
  sum = fmaf(a.n, x.n, sum);
  return fmaf(a.ne, x.ne, sum);
}

//! [update]
/// (1 - ω) x_c + ω (f - Σ a_k x_k) / c, the first term of the result fused with the second.
__host__ __device__ inline float symmetric_update(const Neighbours& a, const Neighbours& x, float x_c, float c, float f,
                                                  float omega) {
  return fmaf(1.0f - omega, x_c, omega * (f - coupling_sum(a, x)) / c);
}

/// The same update with w = ω / c divided out beforehand (scaled_diagonal): (1 - ω) x_c + w (f - Σ a_k x_k).
/// No longer 07b_04_symmetric's bits, but within the same bound (not the same error: the one
/// rounding of ω / c scales every sweep's correction of the node alike). From d = f - Σ a_k x_k (the same float on
/// both paths) to the term ω d / c, each path rounds twice: ω d, then / c here above; ω / c, then
/// w d here. Each gives ω d / c (1 + δ1)(1 + δ2) with |δ| <= u = 2⁻²⁴: the error an iteration adds
/// stays within the few units of u per iteration that the chapter's tolerance allows
/// (jacobi_tolerance, problems/jacobi/include/gpgpu/jacobi/reference.hpp), though the last bit of
/// a node may differ from symmetric_update's.
__host__ __device__ inline float scaled_update(const Neighbours& a, const Neighbours& x, float x_c, float w, float f,
                                               float omega) {
  return fmaf(1.0f - omega, x_c, w * (f - coupling_sum(a, x)));
}

/// What a tile's load stores in place of c for scaled_update: w = ω / c (one IEEE division, the
/// same correctly rounded quotient on host and device), and zero where c is zero, outside the grid,
/// chosen by a select: ω / 0 would be inf, and inf times zero is NaN.
__host__ __device__ inline float scaled_diagonal(float c, float omega) { return c != 0.0f ? omega / c : 0.0f; }
//! [update]

/// How a kernel divides by the diagonal c. `divide`: the on-chip plane holds c and every update
/// divides by it (symmetric_update, 07b_04_symmetric's bits). `scaled`: the plane holds
/// w = ω / c, written by the tile's load (load_quad, one division per loaded node), and every
/// update multiplies by it (scaled_update, 07c_07_overlapped_scaled.cu).
enum class Diagonal { divide, scaled };

/// symmetric_update or scaled_update, `diagonal` being the plane's c or w as kDiagonal says.
template <Diagonal kDiagonal>
__host__ __device__ inline float diagonal_update(const Neighbours& a, const Neighbours& x, float x_c, float diagonal,
                                                 float f, float omega) {
  if constexpr (kDiagonal == Diagonal::scaled)
    return scaled_update(a, x, x_c, diagonal, f, omega);
  else
    return symmetric_update(a, x, x_c, diagonal, f, omega);
}

/// The update of the node at index m of a block of on-chip rows `stride` floats apart that hold the
/// five stored diagonals and f (c, e, nw, n, ne, f) and an iterate x, all with one layout. The lower
/// couplings are read from the neighbours (W = E(m-1), S = N(m-stride), SW = NE(m-stride-1),
/// SE = NW(m-stride+1)), so the row below and the column to the left must be there too.
__host__ __device__ inline float symmetric_update_at(const float* c, const float* e, const float* nw, const float* n,
                                                     const float* ne, const float* f, const float* x, int m, int stride,
                                                     float omega) {
  const int b = m - stride, t = m + stride;
  const Neighbours a{ne[b - 1], n[b], nw[b + 1], e[m - 1], e[m], nw[m], n[m], ne[m]};
  const Neighbours v{x[b - 1], x[b], x[b + 1], x[m - 1], x[m + 1], x[t - 1], x[t], x[t + 1]};
  return symmetric_update(a, v, x[m], c[m], f[m], omega);
}

}  // namespace gpgpu::jacobi::cuda
