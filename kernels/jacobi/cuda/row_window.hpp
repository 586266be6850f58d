// Register helpers of 07b_03_multirow.cu and 07b_04_symmetric.cu, where each thread owns four neighbouring columns
// i0 .. i0+3 of a row and reads them as ONE 16-byte load (a float4). Row starts are aligned to
// 16 bytes (the pitch is a multiple of 4 floats), so these loads are aligned for every width.
#pragma once

namespace gpgpu::jacobi::cuda {

/// Four consecutive values of one row (columns i0 .. i0+3). An array indexed only with constants
/// after unrolling, so it lives in registers, never in local memory.
struct Four {
  float v[4];
};

/// Six consecutive values of one row: columns i0-1 .. i0+4, the four owned ones and one on each side.
struct Window {
  float v[6];
};

/// One read-only 16-byte load of p[0..3] (p aligned to 16 bytes).
__device__ __forceinline__ Four load4(const float* p) {
  const float4 q = __ldg(reinterpret_cast<const float4*>(p));
  return {{q.x, q.y, q.z, q.w}};
}

/// p[-1 .. 4]: the aligned float4 plus the two outer neighbours. The neighbours belong to the
/// float4 of the threads on either side, which loaded them an instant earlier: on-chip cache hits.
__device__ __forceinline__ Window load_window(const float* p) {
  const Four m = load4(p);
  return {{__ldg(p - 1), m.v[0], m.v[1], m.v[2], m.v[3], __ldg(p + 4)}};
}

/// {left, v0, v1, v2}: the values one column to the left.
__device__ __forceinline__ Four shifted_right(const Four& v, float left) { return {{left, v.v[0], v.v[1], v.v[2]}}; }

/// {v1, v2, v3, right}: the values one column to the right.
__device__ __forceinline__ Four shifted_left(const Four& v, float right) { return {{v.v[1], v.v[2], v.v[3], right}}; }

/// Stores four values with one 16-byte store (p aligned to 16 bytes).
__device__ __forceinline__ void store4(float* p, const float (&r)[4]) {
  *reinterpret_cast<float4*>(p) = make_float4(r[0], r[1], r[2], r[3]);
}

}  // namespace gpgpu::jacobi::cuda
