// The CPU variants: chapter 01's loop in one process (the baseline) and on MPI ranks.
#include <memory>
#include <string>

#include "distributed_solver.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "variants.hpp"

namespace ch13 {

/// Why a distributed variant cannot run with this many ranks, or nullopt.
std::optional<std::string> needs_ranks(const MpiSession& mpi) {
  if (mpi.size() >= 2) return std::nullopt;
  return "needs 2 or more MPI ranks, one per part: mpirun -np 2 (this run has 1)";
}

std::vector<Variant> cpu_variants(const MpiSession& mpi) {
  Variant one;
  static_cast<gpgpu::jacobi::Variant&>(one) = gpgpu::jacobi::cpu::cpu_variant("one_cpu", gpgpu::jacobi::cpu::kSeparateDiagonals, 0);
  one.info.description = "chapter 01's separate diagonals on every core, the whole grid in one process (the baseline)";
  one.info.paper_name = "";

  //! [mpi_cpu]
  Variant split;
  split.info = {"mpi_cpu", gpgpu::Backend::cpu, "chapter 01's loop on each MPI rank's rows, MPI_Sendrecv of the boundary rows",
                "chapters/13_multi_gpu_jacobi/cpu_part.cpp", "", "steady_clock (MPI_Barrier before and after)", 1};
  split.opener = gpgpu::cpu_opener;
  split.baseline = "one_cpu";
  split.make = [&mpi](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session&) {
    return std::make_unique<DistributedSolver>(PartKind::mpi_cpu, sys, mpi);
  };
  split.limitation = [&mpi](const gpgpu::jacobi::Grid&, gpgpu::Session&) { return needs_ranks(mpi); };
  split.check_fits = [&mpi](const gpgpu::jacobi::Grid& grid, gpgpu::Session&) { (void)Decomposition(grid.ny, mpi.size()); };
  //! [mpi_cpu]
  return {one, split};
}

}  // namespace ch13
