/// @file solvers.hpp
/// @brief Chapter 01's CPU solvers: the paper's separate diagonals and its interleaved rows, each
/// on one thread (as in the paper) or on every core with OpenMP (today's fair CPU baseline); the
/// chapter's variants made of them; and the CPU baseline the GPU chapters time on their system.
///
/// Each solver owns its storage layout (built once, not timed, as in the paper), takes an initial
/// guess with reset(), runs iterations with iterate() (the timed part, on the host's steady clock)
/// and hands the result back with solution(): the Solver every chapter implements.
/// All compute in single precision, like the paper's CPU code.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/solver.hpp"

namespace gpgpu::jacobi::cpu {

/// The weighted Jacobi update of one node from its off-diagonal sum s = ((L+U)x)_k:
/// (1−ω) x + ω (f − s) / a_C. 20 FLOPs in all with the 15 of the sum (work_counts.hpp).
//! [update]
inline float jacobi_update(float x, float f, float offdiag_sum, float centre, float omega) {
  return (1.0f - omega) * x + omega * (f - offdiag_sum) / centre;
}
//! [update]

/// One sweep of the separate-diagonal layout over nodes [begin, end) of `sys`: y = the weighted
/// Jacobi update of x. x points at unknown 0 and must hold one ghost row and one element more on
/// each side (x[k ± (nx+1)] is read). SeparateDiagonalsSolver runs it over the whole grid;
/// chapter 13 runs it over one MPI rank's rows, with its neighbours' rows in the ghost rows.
void sweep_separate(const LinearSystem& sys, const float* __restrict x, float* __restrict y, std::int64_t begin,
                    std::int64_t end, float omega);

/// The paper's storage (Fig. 2): nine separate, zero-padded diagonal arrays and a ghost-padded x
/// (offset nx+1, Fig. 12). Twelve memory streams per node: nine diagonals, f, x and the new x.
class SeparateDiagonalsSolver final : public Solver {
 public:
  /// threads > 1 splits every iteration's rows across OpenMP threads (static schedule).
  explicit SeparateDiagonalsSolver(const LinearSystem& sys, int threads = 1);
  void reset(std::span<const float> x0) override;
  double iterate(int iters, float omega) override;
  [[nodiscard]] std::vector<float> solution() override;
  /// Σ (x_k − x_{k−1})² of the last iteration run (convergence.hpp's squared_update): the two
  /// buffers of the ping-pong hold both iterates. Only after iterate() has run at least once.
  [[nodiscard]] double squared_update() const;

 private:
  const LinearSystem& sys_;
  GhostPadded<float> x_, next_;
  int threads_;
};

/// The paper's CPU storage (Fig. 4): the nine coefficients of a row side by side in one array, so
/// a node's matrix data arrive in one or two cache lines. Four streams: rows, f, x, new x.
class InterleavedRowsSolver final : public Solver {
 public:
  /// threads > 1 splits every iteration's rows across OpenMP threads (static schedule).
  explicit InterleavedRowsSolver(const LinearSystem& sys, int threads = 1);
  void reset(std::span<const float> x0) override;
  double iterate(int iters, float omega) override;
  [[nodiscard]] std::vector<float> solution() override;

 private:
  const LinearSystem& sys_;
  std::vector<float> rows_;
  GhostPadded<float> x_, next_;
  int threads_;
};

/// A storage layout: what it is, where its loop is, and its solver for a thread count.
struct Layout {
  const char* description;
  const char* source;  ///< from the repository root
  std::unique_ptr<Solver> (*make)(const LinearSystem& sys, int threads);
};
extern const Layout kSeparateDiagonals;  ///< SeparateDiagonalsSolver, separate_diagonals.cpp
extern const Layout kInterleavedRows;    ///< InterleavedRowsSolver, interleaved_rows.cpp

/// A variant of chapter 01: `layout` on `threads` threads (1: the paper's CPU code; 0: the OpenMP
/// variant, one run per --threads count, see runs_per_count()).
Variant cpu_variant(std::string name, const Layout& layout, int threads);

/// The chosen variants as they run: the serial ones once, each OpenMP one once per --threads count
/// of the CPU session `cpu`, named <name>_t<count> when there are several counts.
std::vector<Variant> runs_per_count(const std::vector<const Variant*>& chosen, const Session& cpu);

/// Chapter 01's CPU numbers on a given system, for the later chapters' "speedup over the CPU"
/// columns. Times `sample_iters` iterations (after one untimed; best of three samples) of both layouts on one
/// thread and on `threads` threads and keeps the faster layout of each. Cost: about 12 × sample_iters
/// iterations.
CpuBaseline measure_cpu_baseline(const LinearSystem& sys, int sample_iters, int threads);

/// Host bytes per node the solvers above add to the experiment: interleaved rows (9 floats) and
/// two ghost-padded iterates.
inline constexpr double kHostBytesPerNode = 9 * 4 + 2 * 4;

}  // namespace gpgpu::jacobi::cpu
