// Chapter 11, past the paper: one kernel per step. Each node pulls its twelve incident pulses
// straight from where its neighbours' reflected pulses of the last step lie (the connect, read
// instead of written), scatters them and writes its twelve reflected pulses once, into the other of
// two arrays. Every pulse is read by exactly one node and written by exactly one: 12 reads and 12
// writes per node and step, 96 B in FP32, half of the paper's two passes (11_01_scatter_connect.cu).
// Templated on how a pulse is stored: as a float (cuda_fused), or in half precision (cuda_fused_half:
// IEEE binary16, 11 significant bits, 2 bytes: 48 B per node and step; rounding to nearest on every
// store is the only new error, reference.hpp's tolerance()). The arithmetic is FP32 either way.
// Those roundings also feed the mesh's static solutions (two charges per cell corner that the exact
// step conserves): nothing carries their share away, so the static field wanders like a random walk,
// about 2^-11·√(16N) times the rms pulse per corner after N steps, and shows in the probe's spectrum
// below the box's lowest mode (chapter README, "What half storage does to the spectrum"; the physics
// check check_spurious_lines bounds it).
#include "gpgpu/cuda/check.hpp"
#include "scn_device.hpp"  // PulseStorage: how a pulse is stored

namespace gpgpu::tlm::cuda {
namespace {

//! [fused_kernel]
template <typename Pulse>
__global__ void tlm_fused(const Pulse* __restrict__ in, Pulse* __restrict__ out, SegmentedAddress at, StepArgs a) {
  using S = PulseStorage<Pulse>;
  const NodeIndex n = this_node();
  if (n.i >= a.extent.nx) return;
  float v[kPorts];
#pragma unroll
  for (int p = 0; p < kPorts; ++p) {
    // The pulse arriving at port p left the neighbour across p's face from the opposite port, or,
    // at a wall, left port p itself and came back inverted.
    const int axis = port_axis(p), side = port_side(p);
    if (is_wall(a.extent, a.irises, n.i, n.j, n.k, axis, side))
      v[p] = kWallReflection * S::load(in[at(p, n)]);
    else
      v[p] = S::load(in[at(opposite_port(p), neighbour(n, axis, side))]);
  }
  source_and_probe(v, n, a);
  scatter(v);
#pragma unroll
  for (int p = 0; p < kPorts; ++p) out[at(p, n)] = S::store(v[p]);
}
//! [fused_kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel on the CPU
//! [fused_launch]
/// The block of the paper's kernels: 64 threads, one 64-node segment of a row.
constexpr int kBlock = 64;

void launch_fused(const float* in, float* out, const StepArgs& a, cudaStream_t stream) {
  tlm_fused<<<grid_for(a.extent, kBlock), kBlock, 0, stream>>>(in, out, SegmentedAddress{a.pitch, a.extent.ny, a.plane}, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_fused");
}

void launch_fused_half(const __half* in, __half* out, const StepArgs& a, cudaStream_t stream) {
  tlm_fused<<<grid_for(a.extent, kBlock), kBlock, 0, stream>>>(in, out, SegmentedAddress{a.pitch, a.extent.ny, a.plane}, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_fused (half storage)");
}
//! [fused_launch]

LaunchShape fused_shape(const Extent& e) { return {grid_for(e, kBlock), dim3(kBlock)}; }
#endif

}  // namespace gpgpu::tlm::cuda
