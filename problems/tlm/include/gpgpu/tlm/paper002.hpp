/// @file paper002.hpp
/// @brief Figures of the TLM paper (docs/papers.md): a 3D symmetrical condensed node TLM solver in
/// CUDA and ported to OpenCL on NVIDIA GPUs of 2008-2009 (GeForce 8800 Ultra, Quadro FX 570M,
/// Quadro FX 5600). Only the figures the chapters use.
#pragma once

namespace gpgpu::tlm::paper002 {

/// Section V, Fig. 11: OpenCL was slower than CUDA on small meshes and "when the structure size
/// reaches about 10 million nodes, the two programs have similar computation speed".
inline constexpr double kOpenClMatchesCudaFromNodes = 10e6;

/// Section VI: the best CUDA version reached 293 million nodes per second on an empty structure
/// (288 with the filter).
inline constexpr double kCudaBestMNodesPerSecond = 293;

}  // namespace gpgpu::tlm::paper002
