// Chapter 11, past the paper: the fused step (11_02_fused.cu) with W consecutive nodes of a row per
// thread, so that each of a thread's 12 loads and 12 stores moves W pulses as one aligned word
// (cuda_fused_x2, _x4: float2, float4; cuda_fused_half_x2, _x4: 4 and 8 bytes of halves).
// 11_02_fused.cu's half kernel issues a load per pulse of 2 bytes: a warp's request is 64 B, two
// sectors, and a streaming multiprocessor keeps half the FP32 kernel's bytes in flight with the same
// loads; and every node repeats the index and wall work that W nodes of a row share.
// The layout is the paper's, unchanged (twelve arrays, rows padded to 64 nodes): W divides 64, so
// every word is aligned. A warp is 32·W consecutive nodes of one row; a block, 32 x kRows threads,
// kRows rows. The pulses along x are the one new thing: node i's pulse from x−1 lies one element
// before its own, so a thread loads its W aligned elements of the opposite port's array and takes
// the one it lacks from the neighbouring lane (a warp shuffle), or, at the warp's edge, from memory.
// Every node does 11_02_fused.cu's arithmetic in its order: the same floats, bit for bit.
#include <cstring>
#include <stdexcept>
#include <string>

#include "gpgpu/cuda/check.hpp"
#include "scn_device.hpp"

namespace gpgpu::tlm::cuda {
namespace {

constexpr int kWarp = 32;
constexpr unsigned kWholeWarp = 0xFFFFFFFFu;

/// The word that carries W pulses of one array.
template <typename Pulse, int W>
struct PulseWord;
template <>
struct PulseWord<float, 2> {
  using type = float2;
};
template <>
struct PulseWord<float, 4> {
  using type = float4;
};
template <>
struct PulseWord<__half, 2> {
  using type = unsigned int;
};
template <>
struct PulseWord<__half, 4> {
  using type = uint2;
};

//! [pulse_words]
/// The W pulses from `at` on, as floats: one aligned load of W·sizeof(Pulse) bytes.
template <typename Pulse, int W>
__device__ __forceinline__ void load_pulses(const Pulse* at, float v[W]) {
  using Word = typename PulseWord<Pulse, W>::type;
  const Word word = __ldg(reinterpret_cast<const Word*>(at));
  Pulse p[W];
  memcpy(static_cast<void*>(p), &word, sizeof word);
#pragma unroll
  for (int m = 0; m < W; ++m) v[m] = PulseStorage<Pulse>::load(p[m]);
}

/// Stores the W floats v[m][port] from `at` on, each rounded as 11_02_fused.cu rounds it.
template <typename Pulse, int W>
__device__ __forceinline__ void store_pulses(Pulse* at, const float (&v)[W][kPorts], int port) {
  using Word = typename PulseWord<Pulse, W>::type;
  Pulse p[W];
#pragma unroll
  for (int m = 0; m < W; ++m) p[m] = PulseStorage<Pulse>::store(v[m][port]);
  Word word;
  memcpy(&word, p, sizeof word);
  *reinterpret_cast<Word*>(at) = word;
}
//! [pulse_words]

/// Whether the faces of all W nodes from n on along x, normal to `axis` on `side`, are walls.
template <int W>
__device__ __forceinline__ bool all_walls(const StepArgs& a, const NodeIndex& n, int axis, int side) {
  bool all = true;
#pragma unroll
  for (int m = 0; m < W; ++m) all = all && is_wall(a.extent, a.irises, n.i + m, n.j, n.k, axis, side);
  return all;
}

/// Shifts the W pulses v[.][p] of the thread's own nodes by one node along x towards `side`: each
/// node gets its neighbour's, the one beyond the thread's W from the next lane (a warp shuffle) or,
/// at the warp's edge, from `beyond` (which lies in the mesh when the lane can load it).
template <typename Pulse, int W>
__device__ __forceinline__ void shift_along_x(float (&v)[W][kPorts], int p, int side, int lane, bool can_load,
                                              const Pulse* beyond) {
  if (side < 0) {
    float before = __shfl_up_sync(kWholeWarp, v[W - 1][p], 1);
    if (lane == 0 && can_load) before = PulseStorage<Pulse>::load(*beyond);
#pragma unroll
    for (int m = W - 1; m > 0; --m) v[m][p] = v[m - 1][p];
    v[0][p] = before;
  } else {
    float after = __shfl_down_sync(kWholeWarp, v[0][p], 1);
    if (lane == kWarp - 1 && can_load) after = PulseStorage<Pulse>::load(*beyond);
#pragma unroll
    for (int m = 0; m + 1 < W; ++m) v[m][p] = v[m + 1][p];
    v[W - 1][p] = after;
  }
}

//! [vector_kernel]
template <typename Pulse, int W>
__global__ void tlm_fused_vector(const Pulse* __restrict__ in, Pulse* __restrict__ out, SegmentedAddress at, StepArgs a) {
  using S = PulseStorage<Pulse>;
  const int lane = static_cast<int>(threadIdx.x);  // blockDim.x == kWarp: a warp is one row's 32·W nodes
  const NodeIndex n{static_cast<int>((blockIdx.x * kWarp + threadIdx.x) * W),
                    static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y), static_cast<int>(blockIdx.z)};
  // No thread returns early: the shuffles need the whole warp. A thread loads and stores only when
  // its first node is in the mesh; its other nodes may lie in the row's padding, whose results go
  // to the padding, which no node reads.
  const bool row = n.j < a.extent.ny, live = row && n.i < a.extent.nx;
  float v[W][kPorts] = {};
  // 1. Every port's W pulses from the neighbours across its face, one load each, all in flight at
  //    once. Along x the neighbours' pulses are this row's: the thread's own W of the opposite port.
#pragma unroll
  for (int p = 0; p < kPorts; ++p) {
    const int axis = port_axis(p), side = port_side(p);
    if (live && (axis == 0 || !all_walls<W>(a, n, axis, side))) {
      float pulses[W];
      load_pulses<Pulse, W>(in + at(opposite_port(p), axis == 0 ? n : neighbour(n, axis, side)), pulses);
#pragma unroll
      for (int m = 0; m < W; ++m) v[m][p] = pulses[m];
    }
  }
  // 2. Along x, one node over.
#pragma unroll
  for (int p = 0; p < kPorts; ++p) {
    const int side = port_side(p);
    if (port_axis(p) != 0) continue;
    const int beyond = side < 0 ? -1 : W;
    const bool in_mesh = side < 0 ? live && n.i > 0 : row && n.i + W < a.extent.nx;
    shift_along_x<Pulse, W>(v, p, side, lane, in_mesh, in + at(opposite_port(p), n) + beyond);
  }
  // 3. At a wall the pulse left port p itself and came back inverted.
#pragma unroll
  for (int p = 0; p < kPorts; ++p)
#pragma unroll
    for (int m = 0; m < W; ++m)
      if (live && is_wall(a.extent, a.irises, n.i + m, n.j, n.k, port_axis(p), port_side(p)))
        v[m][p] = kWallReflection * S::load(in[at(p, n) + m]);
#pragma unroll
  for (int m = 0; m < W; ++m) {
    if (row && n.i + m < a.extent.nx) source_and_probe(v[m], {n.i + m, n.j, n.k}, a);
    scatter(v[m]);
  }
  if (live) {
#pragma unroll
    for (int p = 0; p < kPorts; ++p) store_pulses<Pulse, W>(out + at(p, n), v, p);
  }
}
//! [vector_kernel]

}  // namespace

#ifndef GPGPU_CUDA_EMULATION  // tests/test_kernels_emulated.cpp runs the kernel on the CPU
//! [vector_launch]
/// Rows per block: blocks of 32 x 4 threads, 4 warps, each 32·W consecutive nodes of one row.
constexpr int kRows = 4;

dim3 vector_grid(const Extent& e, int w) {
  return dim3(static_cast<unsigned>((e.nx + kWarp * w - 1) / (kWarp * w)), static_cast<unsigned>((e.ny + kRows - 1) / kRows),
              static_cast<unsigned>(e.nz));
}

template <typename Pulse, int W>
void launch_vector(const Pulse* in, Pulse* out, const StepArgs& a, cudaStream_t stream) {
  tlm_fused_vector<Pulse, W><<<vector_grid(a.extent, W), dim3(kWarp, kRows), 0, stream>>>(
      in, out, SegmentedAddress{a.pitch, a.extent.ny, a.plane}, a);
  GPGPU_CUDA_CHECK_LAUNCH("tlm_fused_vector");
}

template <typename Pulse>
void launch_vector(const Pulse* in, Pulse* out, int nodes_per_thread, const StepArgs& a, cudaStream_t stream) {
  if (nodes_per_thread == 2)
    launch_vector<Pulse, 2>(in, out, a, stream);
  else if (nodes_per_thread == 4)
    launch_vector<Pulse, 4>(in, out, a, stream);
  else
    throw std::logic_error("tlm_fused_vector: " + std::to_string(nodes_per_thread) + " nodes per thread (2 or 4)");
}

void launch_fused_vector(const float* in, float* out, int nodes_per_thread, const StepArgs& a, cudaStream_t stream) {
  launch_vector(in, out, nodes_per_thread, a, stream);
}

void launch_fused_vector_half(const __half* in, __half* out, int nodes_per_thread, const StepArgs& a, cudaStream_t stream) {
  launch_vector(in, out, nodes_per_thread, a, stream);
}
//! [vector_launch]

LaunchShape fused_vector_shape(const Extent& e, int nodes_per_thread) {
  return {vector_grid(e, nodes_per_thread), dim3(kWarp, kRows)};
}
#endif

}  // namespace gpgpu::tlm::cuda
