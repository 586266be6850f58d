/// @file cpu_variants.hpp
/// @brief Chapter 11's CPU variants and their solver: the fused step of the GPU kernels on the
/// host's cores, one thread (the paper's Fig. 7 starts from one CPU) or --threads of them with OpenMP.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "gpgpu/tlm/solver.hpp"

namespace ch11 {

/// The CPU variants, in run order (cpu_variants.cpp): cpu_serial (one thread, the paper's one CPU of
/// Fig. 7) and cpu_openmp (--threads threads: 1-4 of them for Fig. 7, all cores now).
std::vector<gpgpu::tlm::Variant> cpu_variants();

/// Pulses in the canonical order (twelve arrays, x fastest, no padding: the CPU's cache lines make
/// the paper's segments unnecessary), single precision like the GPU kernels. Each step every node
/// pulls its incident pulses from the reflected ones of the last step, scatters them and writes
/// its reflected pulses into the other buffer (ping-pong): 96 B of memory traffic per node. The
/// nodes inside a row that no wall or iris edge crosses go through a loop the compiler vectorises;
/// the others (the row's two ends, the source's and the probe's rows, rows an iris edge crosses)
/// node by node. Both compute the same floats, bit for bit.
class CpuSolver final : public gpgpu::tlm::Solver {
 public:
  /// `vectorise` = false sends every row node by node (the tests compare the two paths bit for bit).
  CpuSolver(const gpgpu::tlm::Setup& setup, int threads, bool vectorise = true);
  void reset(std::span<const float> incident) override;
  double run(int steps) override;
  [[nodiscard]] std::vector<float> pulses() override;
  [[nodiscard]] std::vector<float> probe() override;
  [[nodiscard]] std::string launch() const override;

 private:
  void step(int n);

  const gpgpu::tlm::Setup& setup_;
  int threads_;
  bool vectorise_;
  std::vector<float> reflected_, next_;  ///< the last step's reflected pulses, and the next step's
  std::vector<float> probe_;
  std::vector<bool> mixed_rows_;  ///< rows (k·ny + j) where an iris covers some nodes' z faces, not all
  int step_ = 0;
};

/// Host bytes per node a CpuSolver holds: two arrays of 12 floats.
inline constexpr double kCpuBytesPerNode = 2 * 12 * 4;

}  // namespace ch11
