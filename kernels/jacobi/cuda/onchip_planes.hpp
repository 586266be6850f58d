/// @file onchip_planes.hpp
/// @brief What the temporal-blocking kernels of chapter 07c (07c_01_overlapped.cu,
/// 07c_04_wavefront.cu) keep on chip: a block of rows of the five stored diagonals, f and the
/// iterate, one plane per array, `stride` floats per row, loaded from the pitched arrays four
/// columns (one float4) at a time. Outside the grid every plane holds zero: a node there has no
/// coupling, and its value is never anything but zero.
#pragma once
#include "jacobi_args.hpp"
#include "symmetric_update.hpp"

namespace gpgpu::jacobi::cuda {

/// The stored arrays in the order the planes hold them: c, e, nw, n, ne, f, then x.
inline constexpr int kStoredPlanes = 7;

/// Shared-memory planes: planes[p] + m is element m of array p (kStoredPlanes order).
struct Planes {
  float* plane[kStoredPlanes];
  [[nodiscard]] __host__ __device__ const float* c() const { return plane[0]; }
  [[nodiscard]] __host__ __device__ const float* e() const { return plane[1]; }
  [[nodiscard]] __host__ __device__ const float* nw() const { return plane[2]; }
  [[nodiscard]] __host__ __device__ const float* n() const { return plane[3]; }
  [[nodiscard]] __host__ __device__ const float* ne() const { return plane[4]; }
  [[nodiscard]] __host__ __device__ const float* f() const { return plane[5]; }
  [[nodiscard]] __host__ __device__ float* x() const { return plane[6]; }
};

/// Planes of `size` floats each, one after the other from `base` (size a multiple of 4, so that
/// each plane stays 16-byte aligned).
__host__ __device__ inline Planes planes_at(float* base, int size) {
  Planes p{};
  for (int k = 0; k < kStoredPlanes; ++k) p.plane[k] = base + k * size;
  return p;
}

/// How a kernel loads the iterate x. `read_only`: through the read-only data cache (__ldg), which
/// is right only while nothing in the launch writes x. `through_l2`: past the SM's own L1 (__ldcg),
/// for a launch in which other blocks wrote x before a grid-wide barrier (07c_06_overlapped_persistent.cu):
/// the read-only cache is not kept coherent with those writes. The coefficients and f are never
/// written and always go through the read-only cache.
enum class IterateLoad { read_only, through_l2 };

/// Columns i .. i+3 (i a multiple of 4) of row j of the first `planes` stored arrays into element m
/// of their planes (m a multiple of 4): one 16-byte load per array inside the grid (x as kIterate
/// says, the others read-only), zeros outside it (rows beyond the ghost rows, columns left of 0 or
/// from nx on). Diagonal::scaled stores w = ω / c in the c plane instead of c (scaled_diagonal:
/// zero outside the grid too).
template <IterateLoad kIterate = IterateLoad::read_only, Diagonal kDiagonal = Diagonal::divide>
__device__ __forceinline__ void load_quad(const SymmetricArgs& a, int i, int j, const Planes& to, int m,
                                          int planes = kStoredPlanes) {
  const float* from[kStoredPlanes] = {a.c, a.e, a.nw, a.n, a.ne, a.f, a.x};
  const bool inside = j >= 0 && j < a.ny && i >= 0 && i < a.nx;
  const long long k = static_cast<long long>(j) * a.pitch + i;
#pragma unroll
  for (int p = 0; p < kStoredPlanes; ++p) {
    if (p >= planes) continue;  // (not break: the loop must unroll, or `from` goes to local memory)
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (inside) {
      const float4* q = reinterpret_cast<const float4*>(from[p] + k);
      v = kIterate == IterateLoad::through_l2 && p == kStoredPlanes - 1 ? __ldcg(q) : __ldg(q);  // plane 6 is x
    }
    // The padding of a row holds zeros on the GPU, but the kernels must not depend on it.
    if (i + 1 >= a.nx) v.y = 0.0f;
    if (i + 2 >= a.nx) v.z = 0.0f;
    if (i + 3 >= a.nx) v.w = 0.0f;
    //! [scaled_load]
    if constexpr (kDiagonal == Diagonal::scaled)  // plane 0 holds w = ω / c, zero outside the grid
      if (p == 0) v = make_float4(scaled_diagonal(v.x, a.omega), scaled_diagonal(v.y, a.omega),
                                  scaled_diagonal(v.z, a.omega), scaled_diagonal(v.w, a.omega));
    //! [scaled_load]
    *reinterpret_cast<float4*>(to.plane[p] + m) = v;
  }
}

/// Columns col0 .. col0+width-1 (width a multiple of 4) of rows row0 .. row0+rows-1 of every plane,
/// row r at element r * row_stride of the planes, loaded by all the threads of the block together:
/// consecutive threads take consecutive float4s of a row (load_quad, x and c as kIterate and
/// kDiagonal say).
template <IterateLoad kIterate = IterateLoad::read_only, Diagonal kDiagonal = Diagonal::divide>
__device__ __forceinline__ void load_tile(const SymmetricArgs& a, int col0, int row0, int width, int rows,
                                          const Planes& to, int row_stride) {
  const int thread = threadIdx.y * blockDim.x + threadIdx.x, threads = blockDim.x * blockDim.y;
  for (int q = thread; q < width / 4 * rows; q += threads) {
    const int r = q / (width / 4), c4 = q % (width / 4) * 4;
    load_quad<kIterate, kDiagonal>(a, col0 + c4, row0 + r, to, r * row_stride + c4);
  }
}

/// Whether node (i, j) is in the grid.
__host__ __device__ inline bool in_grid(const SymmetricArgs& a, int i, int j) {
  return i >= 0 && i < a.nx && j >= 0 && j < a.ny;
}

}  // namespace gpgpu::jacobi::cuda
