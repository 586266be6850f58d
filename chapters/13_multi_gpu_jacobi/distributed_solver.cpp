// Rank 0 drives, the other ranks serve: every step of a distributed solver is one Command
// broadcast from rank 0, then the same call on every rank's Part. Rows travel as plain MPI
// messages from and to rank 0 (untimed: only iterate() is timed).
#include "distributed_solver.hpp"

#include <cstdio>
#include <vector>

#include "gpgpu/errors.hpp"
#include "gpgpu/memory.hpp"
#include "gpgpu/timing.hpp"

namespace ch13 {
namespace {

enum class Op : int { make, reset, iterate, shape, solution, destroy, quit };

struct Command {
  Op op = Op::quit;
  PartKind kind = PartKind::mpi_cpu;
  int nx = 0, ny = 0, iters = 0;
  float omega = 0;
  Mode mode = Mode::full;
  LaunchShape shape{};
  Convergence check{};
};

void broadcast(Command& c) { CH13_MPI_CHECK(MPI_Bcast(&c, sizeof c, MPI_BYTE, 0, MPI_COMM_WORLD)); }

enum Tag : int { kTagArrays = 100, kTagX0 = 200, kTagRows = 300 };

// Inside a catch block: reports the exception as run_main would (one line; out of host memory is
// exit 2, not 1 with "std::bad_alloc"), naming the rank, and ends every rank with its exit code.
[[noreturn]] void abort_on_failure(const MpiSession& mpi) {
  const gpgpu::Failure f = gpgpu::current_failure();
  std::fprintf(stderr, "rank %d: error: %s\n", mpi.rank(), f.message.c_str());
  mpi.abort(f.code);
}

// Runs `step` on rank 0; a failure there ends every rank, since the workers may be waiting in a
// collective that rank 0 will never join.
template <typename F>
auto guarded(const MpiSession& mpi, F&& step) {
  try {
    return step();
  } catch (...) {
    abort_on_failure(mpi);
  }
}

PartInputs inputs(PartKind kind, int nx, const Decomposition& split, int part) {
  PartInputs in;
  in.nx = nx;
  in.split = split;
  in.part = part;
  in.stored = split.with_ghosts(part, coefficient_ghost_rows(kind));
  return in;
}

// A worker's part: receives its arrays, builds.
std::unique_ptr<Part> receive_part(const Command& c, const MpiSession& mpi) {
  const Decomposition split(c.ny, mpi.size());
  PartInputs in = inputs(c.kind, c.nx, split, mpi.rank());
  const std::size_t floats = static_cast<std::size_t>(in.stored.count()) * static_cast<std::size_t>(c.nx);
  // Each rank checks its own host: rank 0 checked the whole system against its own, and a rank on
  // another machine may have less.
  gpgpu::require_host_memory(static_cast<double>(array_count(c.kind) * floats * sizeof(float)),
                             "rank " + std::to_string(mpi.rank()) + "'s rows of the system");
  std::vector<std::vector<float>> arrays(array_count(c.kind), std::vector<float>(floats));
  for (std::vector<float>& a : arrays) {
    recv_floats(a, 0, kTagArrays);
    in.arrays.emplace_back(a);
  }
  return make_part(c.kind, in, mpi);
}

}  // namespace

DistributedSolver::DistributedSolver(PartKind kind, const gpgpu::jacobi::LinearSystem& sys, const MpiSession& mpi)
    : sys_(sys), mpi_(mpi), split_(sys.grid.ny, mpi.size()) {
  guarded(mpi_, [&] {
    Command c{Op::make, kind, sys.grid.nx, sys.grid.ny};
    broadcast(c);
    const std::vector<std::span<const float>> arrays = system_arrays(kind, sys);
    for (int r = 1; r < mpi_.size(); ++r) {
      const RowRange stored = split_.with_ghosts(r, coefficient_ghost_rows(kind));
      for (std::span<const float> a : arrays) send_floats(rows_of(a, sys.grid.nx, stored), r, kTagArrays);
    }
    PartInputs in = inputs(kind, sys.grid.nx, split_, 0);
    for (std::span<const float> a : arrays) in.arrays.push_back(rows_of(a, sys.grid.nx, in.stored));
    part_ = make_part(kind, in, mpi_);
    return 0;
  });
}

DistributedSolver::~DistributedSolver() {
  Command c{Op::destroy};
  guarded(mpi_, [&] {
    broadcast(c);
    return 0;
  });
}

void DistributedSolver::reset(std::span<const float> x0) {
  guarded(mpi_, [&] {
    Command c{Op::reset};
    broadcast(c);
    for (int r = 1; r < mpi_.size(); ++r) send_floats(rows_of(x0, sys_.grid.nx, split_.with_ghosts(r, 1)), r, kTagX0);
    part_->reset(rows_of(x0, sys_.grid.nx, split_.with_ghosts(0, 1)));
    return 0;
  });
}

double DistributedSolver::timed(int iters, float omega, Mode mode) {
  return guarded(mpi_, [&] {
    Command c{Op::iterate};
    c.iters = iters;
    c.omega = omega;
    c.mode = mode;
    c.check = check_for(mode);
    broadcast(c);
    // Every rank starts together and the time ends when the last one is done.
    CH13_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    const gpgpu::Stopwatch clock;
    const Stop stop = part_->iterate(iters, omega, mode, c.check);
    CH13_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    const double seconds = clock.seconds();
    if (mode == Mode::full) stop_ = stop;
    return seconds;
  });
}

bool DistributedSolver::set_launch(const LaunchShape& shape) {
  return guarded(mpi_, [&] {
    Command c{Op::shape};
    c.shape = shape;
    broadcast(c);
    return part_->set_launch(shape);
  });
}

std::vector<float> DistributedSolver::solution() {
  return guarded(mpi_, [&] {
    Command c{Op::solution};
    broadcast(c);
    std::vector<float> x = part_->rows();
    x.resize(static_cast<std::size_t>(sys_.grid.nodes()));
    for (int r = 1; r < mpi_.size(); ++r) {
      const RowRange rows = split_.part(r);
      recv_floats(std::span<float>(x).subspan(static_cast<std::size_t>(rows.begin) * sys_.grid.nx,
                                              static_cast<std::size_t>(rows.count()) * sys_.grid.nx),
                  r, kTagRows);
    }
    return x;
  });
}

// Asked of rank 0's part each time: its launch shape changes with set_launch.
std::string DistributedSolver::launch() const { return std::to_string(mpi_.size()) + " ranks; rank 0: " + part_->launch(); }

int serve(const MpiSession& mpi) {
  std::unique_ptr<Part> part;
  std::vector<float> x0;
  Command made;  // the grid of the part
  try {
    for (;;) {
      Command c;
      broadcast(c);
      switch (c.op) {
        case Op::make:
          made = c;
          part = receive_part(c, mpi);
          break;
        case Op::reset:  // the part's rows and its neighbours' boundary rows
          x0.resize(static_cast<std::size_t>(Decomposition(made.ny, mpi.size()).with_ghosts(mpi.rank(), 1).count()) *
                    static_cast<std::size_t>(made.nx));
          recv_floats(x0, 0, kTagX0);
          part->reset(x0);
          break;
        case Op::iterate:
          CH13_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
          (void)part->iterate(c.iters, c.omega, c.mode, c.check);
          CH13_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
          break;
        case Op::shape:
          (void)part->set_launch(c.shape);
          break;
        case Op::solution:
          send_floats(part->rows(), 0, kTagRows);
          break;
        case Op::destroy:
          part.reset();
          break;
        case Op::quit:
          return 0;
      }
    }
  } catch (...) {
    abort_on_failure(mpi);
  }
}

WorkerRelease::~WorkerRelease() {
  if (mpi_.rank() != 0 || mpi_.size() == 1) return;
  Command c{Op::quit};
  try {
    broadcast(c);
  } catch (...) {
    abort_on_failure(mpi_);
  }
}

}  // namespace ch13
