// The CPU part of the MPI variant: chapter 01's separate-diagonal loop (sweep_separate) over one
// rank's rows, whose x has a ghost row on each side: after every sweep the rank sends its first
// row down and its last row up, and receives its neighbours' into its ghost rows (exchange_halo,
// halo_exchange.cpp).
// The arithmetic per node is chapter 01's, so the result equals the one-process run bit for bit.
#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpgpu/jacobi/convergence.hpp"
#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "mpi_session.hpp"
#include "halo_exchange.hpp"
#include "parts.hpp"

namespace ch13 {
namespace {

using gpgpu::jacobi::LinearSystem;

// What the ghost rows outside the grid (below the bottom rank, above the top one) hold. No
// neighbour sends into them, and the sweep multiplies them by couplings that are zero there, so
// any finite value leaves the result unchanged: a wrong exchange that writes into them (a periodic
// neighbour, say) would go unseen in the result, and is caught by this sentinel instead. NaN would
// not do: 0 x NaN is NaN.
constexpr float kEdgeSentinel = 12345.0f;

class MpiCpuPart final : public Part {
 public:
  explicit MpiCpuPart(const PartInputs& in)
      : nx_(in.nx), rows_(in.split.part(in.part)), below_(in.split.has_below(in.part) ? in.part - 1 : MPI_PROC_NULL),
        above_(in.split.has_above(in.part) ? in.part + 1 : MPI_PROC_NULL) {
    // The rank's rows as a system of their own: chapter 01's loop indexes every array by node.
    sys_.grid = {nx_, rows_.count()};
    for (std::size_t d = 0; d < 9; ++d) sys_.A.diag[d].assign(in.arrays[d].begin(), in.arrays[d].end());
    sys_.rhs.assign(in.arrays[9].begin(), in.arrays[9].end());
    const std::size_t size = static_cast<std::size_t>(rows_.count() + 2) * nx_ + 2;
    x_.assign(size, 0.0f);
    next_.assign(size, 0.0f);
  }

  void reset(std::span<const float> x0) override {
    std::fill(x_.begin(), x_.end(), 0.0f);
    // x0 holds rows [begin-1, end+1) clipped to the grid: they start at the ghost row below, or at
    // row 0 for the bottom rank.
    float* first = row(x_, below_ == MPI_PROC_NULL ? 0 : -1);
    std::copy(x0.begin(), x0.end(), first);
    for_each_edge_ghost_row(x_, [&](float* r) { std::fill(r, r + nx_, kEdgeSentinel); });
    // The other iterate: unknowns and the ghost rows a neighbour fills NaN, so that a row the sweep
    // or the exchange fails to write shows up in the result.
    std::fill(next_.begin(), next_.end(), 0.0f);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::fill(row(next_, below_ == MPI_PROC_NULL ? 0 : -1), row(next_, rows_.count() + (above_ == MPI_PROC_NULL ? 0 : 1)), nan);
    for_each_edge_ghost_row(next_, [&](float* r) { std::fill(r, r + nx_, kEdgeSentinel); });
  }

  //! [mpi_cpu_check]
  // This rank's sum of squares is taken right after the checked sweep, while both iterates are
  // here; the ranks' sums are reduced (MPI_Iallreduce) while the next sweep runs, its halo exchange
  // driving MPI's progress, and waited for after it (convergence.hpp: --check-overlap).
  Stop iterate(int iters, float omega, Mode mode, const Convergence& check) override {
    const std::int64_t nodes = sys_.grid.nodes();
    const auto run = [&](int count, bool norm_wanted) {
      for (int it = 0; it < count; ++it) {
        if (mode != Mode::exchange_only) gpgpu::jacobi::cpu::sweep_separate(sys_, row(x_, 0), row(next_, 0), 0, nodes, omega);
        if (mode != Mode::compute_only) {
          const int last = rows_.count() - 1;
          exchange_halo(row(next_, 0), row(next_, last), row(next_, -1), row(next_, last + 1), nx_, below_, above_);
        }
        std::swap(x_, next_);
      }
      if (norm_wanted) norm_.start(gpgpu::jacobi::squared_update(row(x_, 0), row(next_, 0), nodes));
    };
    const Stop stop = gpgpu::jacobi::iterate_checked(iters, check, run, [&] { return norm_.wait(); },
                                                     [&] { std::swap(x_, next_); });  // back to x_k
    //! [mpi_cpu_check]
    // Nothing rewrites an edge ghost row, so a value the exchange wrote there is still there now.
    for (std::vector<float>* x : {&x_, &next_}) {
      for_each_edge_ghost_row(*x, [&](const float* r) {
        if (std::any_of(r, r + nx_, [](float v) { return v != kEdgeSentinel; })) {
          throw std::runtime_error("exchange_halo wrote into a ghost row outside the grid: at the grid's edge the "
                                   "neighbour is MPI_PROC_NULL, and nothing may arrive there");
        }
      });
    }
    return stop;
  }

  std::vector<float> rows() override { return {row(x_, 0), row(x_, rows_.count())}; }

  [[nodiscard]] std::string launch() const override {
    return "rows " + std::to_string(rows_.begin) + "-" + std::to_string(rows_.end - 1) + ", 1 thread, MPI_Sendrecv (exchange_halo)";
  }

 private:
  // Row r of an iterate (r = -1 and r = rows are the ghost rows); one spare element at each end
  // covers the corner reads x[k ± (nx+1)].
  float* row(std::vector<float>& x, int r) { return x.data() + 1 + static_cast<std::ptrdiff_t>(r + 1) * nx_; }

  // Calls f on each ghost row of `x` that lies outside the grid (none on a rank between two others).
  template <typename F>
  void for_each_edge_ghost_row(std::vector<float>& x, F&& f) {
    if (below_ == MPI_PROC_NULL) f(row(x, -1));
    if (above_ == MPI_PROC_NULL) f(row(x, rows_.count()));
  }

  int nx_;
  RowRange rows_;
  int below_, above_;
  LinearSystem sys_;
  std::vector<float> x_, next_;
  NormOverRanks norm_;
};

}  // namespace

std::unique_ptr<Part> make_cpu_part(const PartInputs& in) { return std::make_unique<MpiCpuPart>(in); }

}  // namespace ch13
