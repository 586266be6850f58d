/// @file work.hpp
/// @brief The one table of the work each TLM kernel must do per node and step, from which every
/// rate of chapter 11 is computed (in the spirit of BabelStream's table).
///
/// One step of every kernel scatters every node once: 48 FLOPs (three node voltages and three
/// currents, each 3 additions and a multiplication by ½, then 12 reflected pulses of 2 additions
/// each). What differs is the memory traffic:
///
///   scn_fused        one kernel per step: each node pulls its 12 incident pulses from its
///                    neighbours' reflected ones and writes its 12 reflected pulses once. Each pulse
///                    is read by exactly one node (its receiver), so 12 reads + 12 writes of 4 B:
///                    96 B per node and step, the least any step can move.
///   scn_fused_half   the same with pulses stored in half precision (2 B): 48 B.
///   scn_two_kernel   the paper's scatter and connect as two kernels on one array (sec. III-IV):
///                    scatter reads and writes a node's 12 pulses, connect reads and writes them
///                    again (its own 6 on the + faces and the neighbours' 6 they swap with): 2 x 96 B
///                    = 192 B per node and step, in either layout (array of structures or the
///                    paper's coalesced one).
///
/// Every kernel's stream mix is 12 arrays read and 12 written (twelve link-line arrays), so its
/// limit is a stream kernel that reads 12 and writes 12 arrays of the same length.
#pragma once
#include <array>
#include <string_view>

#include "gpgpu/backend.hpp"
#include "gpgpu/tlm/mesh.hpp"
#include "gpgpu/work.hpp"

namespace gpgpu::tlm {

struct KernelWork {
  std::string_view kernel;  ///< "scn_fused", ...
  double flops;             ///< per node and step
  int passes;               ///< times per step every pulse is read and written (2 for scatter + connect)
  int element_bytes;        ///< bytes of one stored pulse
  std::string_view what;
  /// Bytes per node and step: 12 pulses read and 12 written per pass.
  [[nodiscard]] constexpr double bytes_min() const { return 24.0 * element_bytes * passes; }
};

inline constexpr double kScatterFlops = 48;
inline constexpr int kArraysRead = 12;
inline constexpr int kArraysWritten = 12;

inline constexpr std::array kWorkTable{
    KernelWork{"scn_fused", kScatterFlops, 1, 4, "pull, scatter, write once (FP32)"},
    KernelWork{"scn_fused_half", kScatterFlops, 1, 2, "pull, scatter, write once (FP16 storage, FP32 arithmetic)"},
    KernelWork{"scn_two_kernel", kScatterFlops, 2, 4, "scatter kernel, then connect kernel (FP32)"},
};

/// The row for `kernel`; throws std::out_of_range for an unknown name.
const KernelWork& kernel_work(std::string_view kernel);

/// The work of `steps` steps of `kernel` on `mesh` (items: node updates).
Work work(std::string_view kernel, const Mesh& mesh, int steps);

/// The traffic pattern of `kernel` on `mesh`: 12 arrays read, 12 written, one element per node.
StreamMix stream_mix(std::string_view kernel, const Mesh& mesh, int threads = 0);

}  // namespace gpgpu::tlm
