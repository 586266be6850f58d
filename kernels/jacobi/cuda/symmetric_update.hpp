/// @file symmetric_update.hpp
/// @brief The weighted Jacobi update of one node on the symmetric storage, written once for every
/// kernel that keeps values on chip across sweeps (chapter 07c). Its operations are those of
/// 07b_04_symmetric.cu's expression in the same order (the eight couplings from south-west to
/// north-east, then the division by the diagonal), so a kernel that calls it computes, node for node,
/// the bits 07b_04_symmetric.cu computes: temporal blocking changes where values come from, never the
/// arithmetic.
#pragma once

namespace gpgpu::jacobi::cuda {

/// The eight off-diagonal entries of one row of the matrix, or the eight neighbour values they
/// multiply, in the order SW, S, SE, W, E, NW, N, NE.
struct Neighbours {
  float sw, s, se, w, e, nw, n, ne;
};

/// (1 - ω) x_c + ω (f - Σ a_k x_k) / c, the sum taken in Neighbours order.
__host__ __device__ inline float symmetric_update(const Neighbours& a, const Neighbours& x, float x_c, float c, float f,
                                                  float omega) {
  const float sum = a.sw * x.sw + a.s * x.s + a.se * x.se + a.w * x.w + a.e * x.e + a.nw * x.nw + a.n * x.n + a.ne * x.ne;
  return (1.0f - omega) * x_c + omega * (f - sum) / c;
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
