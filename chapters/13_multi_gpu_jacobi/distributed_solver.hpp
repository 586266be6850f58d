/// @file distributed_solver.hpp
/// @brief Rank 0's side of a distributed solver, and the loop the other ranks run.
///
/// Rank 0 runs the chapter like any other: it builds a solver, resets it, iterates it, reads the
/// solution. For a distributed variant that solver is a DistributedSolver, which tells every other
/// rank what to do (a Command, broadcast), sends each its rows, and runs rank 0's own part beside
/// them. The other ranks run serve() until rank 0 says quit.
#pragma once
#include <memory>
#include <string>

#include "parts.hpp"

namespace ch13 {

class DistributedSolver final : public ScalingSolver {
 public:
  /// Builds the part of every rank (a collective: the workers build theirs at the same time).
  DistributedSolver(PartKind kind, const gpgpu::jacobi::LinearSystem& sys, const MpiSession& mpi);
  ~DistributedSolver() override;
  DistributedSolver(const DistributedSolver&) = delete;
  DistributedSolver& operator=(const DistributedSolver&) = delete;

  void reset(std::span<const float> x0) override;
  double timed(int iters, float omega, Mode mode) override;
  [[nodiscard]] std::vector<float> solution() override;
  [[nodiscard]] std::string launch() const override;
  [[nodiscard]] int parts() const override { return split_.parts(); }
  bool set_launch(const LaunchShape& shape) override;

 private:
  const gpgpu::jacobi::LinearSystem& sys_;
  const MpiSession& mpi_;
  Decomposition split_;
  std::unique_ptr<Part> part_;
};

/// The loop of ranks 1..P-1: waits for rank 0's commands and carries them out; returns the exit
/// code when rank 0 says quit. A failure on a worker aborts every rank (they may be inside a collective).
int serve(const MpiSession& mpi);

/// Rank 0 tells the workers to return from serve(); called once, when the chapter's run is over
/// (RAII: on every way out of main, a usage error included).
class WorkerRelease {
 public:
  explicit WorkerRelease(const MpiSession& mpi) : mpi_(mpi) {}
  ~WorkerRelease();
  WorkerRelease(const WorkerRelease&) = delete;
  WorkerRelease& operator=(const WorkerRelease&) = delete;

 private:
  const MpiSession& mpi_;
};

}  // namespace ch13
