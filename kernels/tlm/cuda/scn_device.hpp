// What every TLM kernel of chapter 11 shares: the node a thread updates, the source and probe at
// their nodes, and the paper's coalesced address (sec. IV, Fig. 6), which the paper's kernels use
// on one of their two layouts (11_01_scatter_connect.cu) and the fused kernels keep (11_02_fused.cu).
// The node itself (scatter, walls) is gpgpu/tlm/scn.hpp, the same code the CPU reference runs.
#pragma once
#include "gpgpu/tlm/scn.hpp"
#include "tlm_args.hpp"

namespace gpgpu::tlm::cuda {

/// Node (i, j, k): x from the block and the thread (64 threads read 64 consecutive nodes of a
/// row), y and z from the grid.
struct NodeIndex {
  int i, j, k;
};
__device__ __forceinline__ NodeIndex this_node() {
  return {static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), static_cast<int>(blockIdx.y),
          static_cast<int>(blockIdx.z)};
}
/// The node across the face of port p's side along p's axis.
__device__ __forceinline__ NodeIndex neighbour(const NodeIndex& n, int axis, int side) {
  return {n.i + (axis == 0) * side, n.j + (axis == 1) * side, n.k + (axis == 2) * side};
}

/// Adds the source's value at its node and records the probe's fields at its node (one thread
/// each; every other thread compares two integers and goes on).
__device__ __forceinline__ void source_and_probe(float v[kPorts], const NodeIndex& n, const StepArgs& a) {
  const int node = (n.k * a.extent.ny + n.j) * a.extent.nx + n.i;
  if (node == a.source_node) inject(v, a.source_polarisation, a.source_value);
  if (node == a.probe_node) {
    const NodeFields<float> f = node_fields(v);
    a.probe[0] = f.vx, a.probe[1] = f.vy, a.probe[2] = f.vz;
    a.probe[3] = f.ix, a.probe[4] = f.iy, a.probe[5] = f.iz;
  }
}

/// How a pulse is stored: load(x) is a stored pulse as a float, store(v) a float as a stored pulse (the
/// fused kernels, 11_02_fused.cu and 11_03_fused_vector.cu: FP32 storage or half precision, rounded
/// to nearest, ties to even).
template <typename Pulse>
struct PulseStorage;

//! [float_storage]
template <>
struct PulseStorage<float> {
  __device__ __forceinline__ static float load(float x) { return x; }
  __device__ __forceinline__ static float store(float v) { return v; }
};
//! [float_storage]

//! [half_storage]
template <>
struct PulseStorage<__half> {
  __device__ __forceinline__ static float load(__half x) { return __half2float(x); }
  __device__ __forceinline__ static __half store(float v) { return __float2half_rn(v); }
};
//! [half_storage]

//! [segmented_address]
/// The paper's coalesced layout: twelve arrays, one per link line; in each, x rows padded to whole
/// 64-node segments. Thread t of a block reads element t of a segment: 64 consecutive floats.
struct SegmentedAddress {
  int pitch, ny, plane;
  __device__ __forceinline__ int operator()(int p, const NodeIndex& n) const {
    return p * plane + (n.k * ny + n.j) * pitch + n.i;
  }
};
//! [segmented_address]

}  // namespace gpgpu::tlm::cuda
