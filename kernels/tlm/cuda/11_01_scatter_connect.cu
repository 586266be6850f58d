// Chapter 11, the paper's step (sec. III-IV): a scatter kernel, then a connect kernel, one thread
// per node, on one array of pulses in place. Templated on the address of pulse p of a node, so that
// the paper's two layouts run the same code and differ only in where the pulses are:
//  - array of structures (cuda_aos, the paper's uncoalesced kernel, Fig. 5): a node's twelve pulses
//    side by side. A warp's load of pulse p touches 32 floats 48 bytes apart: 32 sectors of 32 B in
//    12 cache lines (1536 bytes), for 128 useful bytes (the other eleven loads of the same nodes may
//    find those lines in L1);
//  - the paper's coalesced layout (cuda_coalesced, Fig. 6; scn_device.hpp, SegmentedAddress):
//    twelve arrays grouped by link line, x rows in segments of 64 nodes, blocks of 64 threads. A
//    warp's load of pulse p is 32 consecutive floats: 128 bytes, 4 sectors, every byte used.
#include "gpgpu/cuda/check.hpp"
#include "scn_device.hpp"

namespace gpgpu::tlm::cuda {
namespace {

//! [aos_address]
/// Node (k·ny + j)·nx + i, its pulse p at 12·node + p.
struct AosAddress {
  int nx, ny;
  __device__ __forceinline__ int operator()(int p, const NodeIndex& n) const {
    return ((n.k * ny + n.j) * nx + n.i) * kPorts + p;
  }
};
//! [aos_address]

//! [scatter_kernel]
/// Reads the node's 12 incident pulses, adds the source, scatters, writes the 12 reflected pulses
/// back where they were.
template <class Address>
__global__ void tlm_scatter(float* pulses, Address at, StepArgs a) {
  const NodeIndex n = this_node();
  if (n.i >= a.extent.nx) return;  // the tail of the last segment
  float v[kPorts];
#pragma unroll
  for (int p = 0; p < kPorts; ++p) v[p] = pulses[at(p, n)];
  source_and_probe(v, n, a);
  scatter(v);
#pragma unroll
  for (int p = 0; p < kPorts; ++p) pulses[at(p, n)] = v[p];
}
//! [scatter_kernel]

//! [connect_kernel]
/// Each link line between two nodes swaps its two reflected pulses (each becomes the other node's
/// incident pulse); a pulse that reached a wall comes back inverted. The node below an open face
/// swaps it, so every link is swapped once and no two threads touch the same pulse.
template <class Address>
__global__ void tlm_connect(float* pulses, Address at, StepArgs a) {
  const NodeIndex n = this_node();
  if (n.i >= a.extent.nx) return;
#pragma unroll
  for (int p = 0; p < kPorts; ++p) {
    const int axis = port_axis(p), side = port_side(p);
    if (is_wall(a.extent, a.irises, n.i, n.j, n.k, axis, side)) {
      pulses[at(p, n)] *= kWallReflection;
    } else if (side > 0) {
      const int mine = at(p, n), theirs = at(opposite_port(p), neighbour(n, axis, side));
      const float t = pulses[mine];
      pulses[mine] = pulses[theirs];
      pulses[theirs] = t;
    }
  }
}
//! [connect_kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernels on the CPU
//! [paper_launch]
/// The paper's thread block: 64 threads, one 64-node segment of a row (sec. IV).
constexpr int kBlock = 64;

void launch_paper_step_aos(float* pulses, const StepArgs& a, cudaStream_t stream) {
  const AosAddress at{a.extent.nx, a.extent.ny};
  const dim3 grid = grid_for(a.extent, kBlock);
  tlm_scatter<<<grid, kBlock, 0, stream>>>(pulses, at, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_scatter (array of structures)");
  tlm_connect<<<grid, kBlock, 0, stream>>>(pulses, at, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_connect (array of structures)");
}

void launch_paper_step_coalesced(float* pulses, const StepArgs& a, cudaStream_t stream) {
  const SegmentedAddress at{a.pitch, a.extent.ny, a.plane};
  const dim3 grid = grid_for(a.extent, kBlock);
  tlm_scatter<<<grid, kBlock, 0, stream>>>(pulses, at, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_scatter (coalesced)");
  tlm_connect<<<grid, kBlock, 0, stream>>>(pulses, at, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_connect (coalesced)");
}
//! [paper_launch]

LaunchShape paper_step_shape(const Extent& e) { return {grid_for(e, kBlock), dim3(kBlock)}; }
#endif

}  // namespace gpgpu::tlm::cuda
