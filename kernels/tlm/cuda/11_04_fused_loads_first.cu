// Chapter 11, past the paper: 11_02_fused.cu's half kernel with its twelve loads issued before any
// pulse is converted. In 11_02 each load sits in the branch that asks whether its port faces a wall
// (for y and z, a loop over the irises), and the compiler converts the half right there (HADD2.F32
// straight after the LDG.U16): the warp waits for that pulse before it reaches the next port's load.
// A node's loads go out in about eight rounds, a memory latency each, so an SM has few bytes in
// flight however many warps it holds (Little's law; chapter README, "Where the half kernel waits").
// FP32 storage needs no conversion, and its loads are all in flight at once.
// Here the branches choose addresses only: each port loads from the neighbour's opposite port or, at
// a wall, from its own, and nothing reads the twelve halves until all are issued. The wall's
// inversion flips the stored half's sign bit, so it needs no predicate after the loads (with twelve
// selects the compiler converted one pulse early to free a predicate register: a second round).
// -h converts to exactly -(float)h, which 11_02 computes: every node does 11_02's arithmetic in its
// order, the same floats, bit for bit.
#include "gpgpu/cuda/check.hpp"
#include "scn_device.hpp"  // PulseStorage: how a pulse is stored

namespace gpgpu::tlm::cuda {
namespace {

constexpr unsigned short kHalfSign = 0x8000;
static_assert(kWallReflection == -1, "the wall's reflection is done as a sign flip of the stored half");

//! [loads_first_kernel]
__global__ void tlm_fused_half_loads_first(const __half* __restrict__ in, __half* __restrict__ out,
                                           SegmentedAddress at, StepArgs a) {
  using S = PulseStorage<__half>;
  const NodeIndex n = this_node();
  if (n.i >= a.extent.nx) return;
  // 1. Where each port's pulse lies, and its sign: integer work and branches, no loads.
  int from[kPorts];
  unsigned short sign[kPorts];
#pragma unroll
  for (int p = 0; p < kPorts; ++p) {
    const int axis = port_axis(p), side = port_side(p);
    const bool wall = is_wall(a.extent, a.irises, n.i, n.j, n.k, axis, side);
    sign[p] = wall ? kHalfSign : 0;  // kWallReflection, on the stored bits
    from[p] = wall ? at(p, n) : at(opposite_port(p), neighbour(n, axis, side));
  }
  // 2. Twelve loads, one per port and none in a branch; nothing reads them yet.
  __half stored[kPorts];
#pragma unroll
  for (int p = 0; p < kPorts; ++p) stored[p] = in[from[p]];
  // 3. Then the conversions.
  float v[kPorts];
#pragma unroll
  for (int p = 0; p < kPorts; ++p) v[p] = S::load(__ushort_as_half(__half_as_ushort(stored[p]) ^ sign[p]));
  source_and_probe(v, n, a);
  scatter(v);
#pragma unroll
  for (int p = 0; p < kPorts; ++p) out[at(p, n)] = S::store(v[p]);
}
//! [loads_first_kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel on the CPU
//! [loads_first_launch]
/// 11_02's launch: blocks of 64 threads, one 64-node segment of a row (fused_shape).
void launch_fused_half_loads_first(const __half* in, __half* out, const StepArgs& a, cudaStream_t stream) {
  const LaunchShape shape = fused_shape(a.extent);
  tlm_fused_half_loads_first<<<shape.grid, shape.block, 0, stream>>>(in, out, SegmentedAddress{a.pitch, a.extent.ny, a.plane}, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_fused_half_loads_first");
}
//! [loads_first_launch]
#endif

}  // namespace gpgpu::tlm::cuda
