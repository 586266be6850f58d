// The paper's step (sec. III-IV): a scatter kernel, then a connect kernel, one thread per node, on
// one array of pulses in place. Templated on the address of pulse p of a node, so that the array of
// structures (11_aos.cu) and the coalesced layout (11_coalesced.cu) run the same code and differ
// only in where the pulses are.
#pragma once
#include "scn_device.cuh"

namespace gpgpu::tlm::cuda {

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

}  // namespace gpgpu::tlm::cuda
