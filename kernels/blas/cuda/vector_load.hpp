/// @file vector_load.hpp
/// @brief 16-byte loads of a row segment that may reach past the matrix: float4 (four floats) or
/// double2 (two doubles) where the whole segment is inside and aligned, element by element with
/// zeros beyond the edge otherwise. Shared by 10_05_vectorized.cu and the kernels built on it.
#pragma once
#include <cuda_runtime_api.h>

namespace gpgpu::blas::cuda {

template <typename T> struct Vec16;
template <> struct Vec16<float> {
  using type = float4;
  static constexpr int lanes = 4;
};
template <> struct Vec16<double> {
  using type = double2;
  static constexpr int lanes = 2;
};

/// Copies the Vec16<T>::lanes elements at `src` (16-byte aligned; global or shared memory) to `dst`
/// with one 16-byte load.
template <typename T>
__device__ __forceinline__ void load16(const T* src, T* dst) {
  const typename Vec16<T>::type v = *reinterpret_cast<const typename Vec16<T>::type*>(src);
  const T* lanes = reinterpret_cast<const T*>(&v);
#pragma unroll
  for (int l = 0; l < Vec16<T>::lanes; ++l) dst[l] = lanes[l];
}

/// Reads the `valid` (at most Vec16<T>::lanes, may be <= 0) elements of a row that start at
/// `row_base[offset]` into `out`, zeros after them. With Aligned (every row's length a multiple of
/// the lanes and offset a multiple of them, checked by the launcher) a full segment is one 16-byte
/// load. Nothing is read, and no address formed, for an element outside the row.
template <typename T, bool Aligned>
__device__ __forceinline__ void load_segment(const T* row_base, int offset, int valid, T (&out)[Vec16<T>::lanes]) {
  constexpr int L = Vec16<T>::lanes;
  if (Aligned && valid >= L) {
    load16(row_base + offset, out);
    return;
  }
#pragma unroll
  for (int l = 0; l < L; ++l) out[l] = l < valid ? row_base[offset + l] : T(0);
}

}  // namespace gpgpu::blas::cuda
