// The CPU variants: chapter 01's loop in one process (the baseline) and on MPI ranks.
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "distributed_solver.hpp"
#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "gpgpu/timing.hpp"
#include "variants.hpp"

namespace ch13 {
namespace {

// one_cpu: chapter 01's solver on every core, run from check to check when the norm is on (each
// check reads the two iterates of its ping-pong), as one call of every iteration when it is off.
class OneCpuSolver final : public ScalingSolver {
 public:
  OneCpuSolver(const gpgpu::jacobi::LinearSystem& sys, int threads) : solver_(sys, threads) {}
  void reset(std::span<const float> x0) override { solver_.reset(x0); }
  double timed(int iters, float omega, Mode mode) override {
    if (mode == Mode::exchange_only) return std::numeric_limits<double>::quiet_NaN();  // nothing to exchange
    const gpgpu::Stopwatch clock;
    const Stop stop = gpgpu::jacobi::iterate_checked(iters, check_for(mode), [&](int count, bool norm_wanted) {
      (void)solver_.iterate(count, omega);
      return norm_wanted ? std::sqrt(solver_.squared_update()) : 0.0;
    });
    const double seconds = clock.seconds();
    if (mode == Mode::full) stop_ = stop;
    return seconds;
  }
  [[nodiscard]] std::vector<float> solution() override { return solver_.solution(); }
  [[nodiscard]] int parts() const override { return 1; }
  // The norm is summed by the cores that sweep: no reduction elsewhere to wait for.
  [[nodiscard]] bool overlaps_check() const override { return false; }

 private:
  gpgpu::jacobi::cpu::SeparateDiagonalsSolver solver_;
};

}  // namespace

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
  one.make = [](const gpgpu::jacobi::LinearSystem& sys, gpgpu::Session& session) {
    return std::make_unique<OneCpuSolver>(sys, gpgpu::cpu_threads(session));
  };

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
