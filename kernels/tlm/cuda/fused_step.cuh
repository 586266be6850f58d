// Past the paper: one kernel per step. Each node pulls its twelve incident pulses straight from
// where its neighbours' reflected pulses of the last step lie (the connect, read instead of
// written), scatters them and writes its twelve reflected pulses once, into the other of two
// arrays. Every pulse is read by exactly one node and written by exactly one: 12 reads and 12
// writes per node and step, 96 B in FP32, half of the paper's two passes (two_kernel_step.cuh).
// Templated on how a pulse is stored (PulseStorage, specialised by 11_fused.cu for float and by
// 11_fused_half.cu for half precision); the arithmetic is FP32 either way.
#pragma once
#include "scn_device.cuh"

namespace gpgpu::tlm::cuda {

/// load(x): a stored pulse as a float; store(v): a float as a stored pulse.
template <typename Pulse>
struct PulseStorage;

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

}  // namespace gpgpu::tlm::cuda
