/// @file paper002.hpp
/// @brief Figures of the TLM paper (paper 002 of docs/papers.md: Rossi, McQuay and So, GPU based
/// TLM algorithms in CUDA and OpenCL): a 3D symmetrical condensed node TLM solver in CUDA, ported
/// to OpenCL, on NVIDIA GPUs of 2008-2009 (GeForce 8800 Ultra, Quadro FX 570M, Quadro FX 5600).
///
/// Only figures the text states. Its plots (Figs. 5, 7 and 11) print no values; where the text
/// reads one off a plot ("about 25 GB/s"), the figure is that reading.
#pragma once

namespace gpgpu::tlm::paper002 {

/// Section V, Fig. 11: OpenCL was slower than CUDA on small meshes and "when the structure size
/// reaches about 10 million nodes, the two programs have similar computation speed".
inline constexpr double kOpenClMatchesCudaFromNodes = 10e6;

/// Section VI: the latest CUDA version reached 293 million nodes per second on an empty structure
/// (the GPU is not named there; the project's GPUs are listed in sec. II).
inline constexpr double kCudaBestMNodesPerSecond = 293;
/// Section VI: 288 million nodes per second with the filter in the mesh.
inline constexpr double kCudaFilterMNodesPerSecond = 288;

/// Section IV, Fig. 5, on the Quadro FX 5600: about 25 GB/s ("read-write round trip") for coalesced
/// access against about 3 GB/s uncoalesced, "a speed-up of over 8 times".
inline constexpr double kCoalescedGBs = 25;
inline constexpr double kUncoalescedGBs = 3;
/// Section IV: the Quadro FX 5600's theoretical bandwidth, 76.8 GB/s, "or expressed as read+write
/// round trip: 38.4 GB/s".
inline constexpr double kFx5600TheoreticalGBs = 76.8;
inline constexpr double kFx5600RoundTripGBs = 38.4;
/// Section IV: "much of the kernel execution time (70% to 80%) may be spent in accessing global memory".
inline constexpr double kMemoryShareLow = 0.70;
inline constexpr double kMemoryShareHigh = 0.80;

/// Section IV, Fig. 6: the coalesced layout's x segments and thread blocks: 64 nodes, 64 threads.
inline constexpr int kSegmentNodes = 64;

/// Section IV, Fig. 7: the workload of the CPU-against-GPU comparison, a WR-28 filter of 150,000
/// nodes, run on 1 to 4 CPUs and on the GPU with the uncoalesced and the coalesced kernel.
inline constexpr double kFilterNodes = 150000;
inline constexpr int kFig7MaxCpus = 4;

/// Section VI: the generalised SCN (Trenkic et al.) would store 18 pulses per node instead of 12,
/// and would not be slower per pulse because "the bottleneck is in the data transfer, not in number
/// of floating point operations".
inline constexpr int kGscnPulses = 18;

}  // namespace gpgpu::tlm::paper002
