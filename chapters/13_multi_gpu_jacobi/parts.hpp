/// @file parts.hpp
/// @brief The distributed solvers of chapter 13, one process per GPU (or per CPU core): each MPI
/// rank owns one Part, its rows of the grid, and exchanges boundary rows with its neighbours by
/// NCCL or MPI. Rank 0's DistributedSolver (distributed_solver.hpp) drives them all.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "decomposition.hpp"
#include "gpgpu/jacobi/bidomain.hpp"
#include "mpi_session.hpp"
#include "scaling_solver.hpp"

namespace ch13 {

/// The distributed variants.
enum class PartKind : int {
  nccl,        ///< GPU; boundary rows first on a high-priority stream, ncclSend/ncclRecv while the interior computes
  nccl_graph,  ///< the same iteration captured once in a CUDA graph and replayed
  mpi_gpu,     ///< GPU; MPI_Sendrecv of the boundary rows (device buffers where the MPI is CUDA-aware)
  mpi_cpu,     ///< chapter 01's CPU loop on each rank, MPI_Sendrecv of the boundary rows
};

/// One rank's share of a distributed solver.
class Part {
 public:
  virtual ~Part() = default;
  /// Starts over from the initial guess: `x0` holds the rows `x0_rows` (the part's rows and the
  /// neighbours' boundary rows, Decomposition::with_ghosts(p, 1)). Poisons the other iterate.
  virtual void reset(std::span<const float> x0) = 0;
  /// Runs at most `iters` iterations in `mode`, under `check` (the norm combined over every rank, so
  /// all stop at the same iteration); returns when this rank's work is complete, with where it stopped.
  virtual Stop iterate(int iters, float omega, Mode mode, const Convergence& check) = 0;
  /// This part's rows of the current iterate.
  [[nodiscard]] virtual std::vector<float> rows() = 0;
  /// How it runs on this rank ("GPU 1, block 128, 4 rows per thread, CUDA-aware MPI").
  [[nodiscard]] virtual std::string launch() const = 0;
  /// Launches with `shape` from now on (ScalingSolver::set_launch); false on the CPU.
  virtual bool set_launch(const LaunchShape& shape) {
    (void)shape;
    return false;
  }
};

/// What a part is built from: the rows `stored` of each array its kind keeps.
struct PartInputs {
  int nx = 0;
  Decomposition split{1, 1};
  int part = 0;
  RowRange stored{};
  std::vector<std::span<const float>> arrays;  ///< in array order, each rows `stored` x nx values
};

/// Chapter 07b's symmetric storage of the system, in the order the GPU parts keep it (gpu_slab.hpp):
/// the diagonals C, E, NW, N, NE, then f.
[[nodiscard]] std::vector<std::span<const float>> symmetric_storage(const gpgpu::jacobi::LinearSystem& sys);
/// The arrays a kind keeps, in order: the GPU kinds chapter 07b's symmetric storage (C, E, NW, N,
/// NE, then f), the CPU kind chapter 01's nine diagonals and f.
[[nodiscard]] std::vector<std::span<const float>> system_arrays(PartKind kind, const gpgpu::jacobi::LinearSystem& sys);
/// Rows of coefficients kept beyond the part's own on each side: 2 for the GPU kinds (the symmetric
/// kernel reads its lower couplings from the rows below, and 16-byte loads reach one row further),
/// 0 for the CPU kind (every node stores its nine coefficients).
[[nodiscard]] int coefficient_ghost_rows(PartKind kind);
/// How many arrays system_arrays(kind) holds (what a worker receives before it builds its part).
[[nodiscard]] std::size_t array_count(PartKind kind);
[[nodiscard]] bool on_gpu(PartKind kind);

/// Builds this rank's part (a collective call: every rank builds its own at the same time).
std::unique_ptr<Part> make_part(PartKind kind, const PartInputs& in, const MpiSession& mpi);

/// The CPU part (cpu_part.cpp); the GPU parts are in gpu_parts.cpp, built with CUDA.
std::unique_ptr<Part> make_cpu_part(const PartInputs& in);
std::unique_ptr<Part> make_gpu_part(PartKind kind, const PartInputs& in, const MpiSession& mpi);

}  // namespace ch13
