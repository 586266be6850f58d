// Exercise 13's copy of chapter 13's CPU part (chapters/13_multi_gpu_jacobi/cpu_part.cpp): the same
// storage and loop, chapter 01's sweep_separate over one rank's rows with a ghost row on each side,
// but the exchange after each sweep is yours, exchange_halo (halo_exchange.cpp). The check builds
// the chapter executable again with this file in place of cpu_part.cpp (CMakeLists.txt), so the
// chapter's own part stays as the chapter shows it; keep the two in step if the chapter's changes.
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "gpgpu/jacobi/cpu/solvers.hpp"
#include "halo_exchange.hpp"
#include "parts.hpp"

namespace ch13 {
namespace {

class ExerciseCpuPart final : public Part {
 public:
  explicit ExerciseCpuPart(const PartInputs& in)
      : nx_(in.nx), rows_(in.split.part(in.part)), below_(in.split.has_below(in.part) ? in.part - 1 : MPI_PROC_NULL),
        above_(in.split.has_above(in.part) ? in.part + 1 : MPI_PROC_NULL) {
    sys_.grid = {nx_, rows_.count()};
    for (std::size_t d = 0; d < 9; ++d) sys_.A.diag[d].assign(in.arrays[d].begin(), in.arrays[d].end());
    sys_.rhs.assign(in.arrays[9].begin(), in.arrays[9].end());
    // Rows -1 (ghost below) to count (ghost above), and one spare float at each end for the corner reads.
    const std::size_t size = static_cast<std::size_t>(rows_.count() + 2) * nx_ + 2;
    x_.assign(size, 0.0f);
    next_.assign(size, 0.0f);
  }

  void reset(std::span<const float> x0) override {
    std::fill(x_.begin(), x_.end(), 0.0f);
    std::copy(x0.begin(), x0.end(), row(x_, below_ == MPI_PROC_NULL ? 0 : -1));
    // The ghost rows a neighbour must fill start as NaN in the other iterate: a row your exchange
    // leaves unwritten poisons the result.
    std::fill(next_.begin(), next_.end(), 0.0f);
    std::fill(row(next_, below_ == MPI_PROC_NULL ? 0 : -1), row(next_, rows_.count() + (above_ == MPI_PROC_NULL ? 0 : 1)),
              std::numeric_limits<float>::quiet_NaN());
  }

  void iterate(int iters, float omega, Mode mode) override {
    const int last = rows_.count() - 1;
    for (int it = 0; it < iters; ++it) {
      if (mode != Mode::exchange_only) {
        gpgpu::jacobi::cpu::sweep_separate(sys_, row(x_, 0), row(next_, 0), 0, sys_.grid.nodes(), omega);
      }
      if (mode != Mode::compute_only) {
        exchange_halo(row(next_, 0), row(next_, last), row(next_, -1), row(next_, last + 1), nx_, below_, above_);
      }
      std::swap(x_, next_);
    }
  }

  std::vector<float> rows() override { return {row(x_, 0), row(x_, rows_.count())}; }

  [[nodiscard]] std::string launch() const override {
    return "rows " + std::to_string(rows_.begin) + "-" + std::to_string(rows_.end - 1) + ", 1 thread, exchange_halo";
  }

 private:
  float* row(std::vector<float>& x, int r) { return x.data() + 1 + static_cast<std::ptrdiff_t>(r + 1) * nx_; }

  int nx_;
  RowRange rows_;
  int below_, above_;
  gpgpu::jacobi::LinearSystem sys_;
  std::vector<float> x_, next_;
};

}  // namespace

std::unique_ptr<Part> make_cpu_part(const PartInputs& in) { return std::make_unique<ExerciseCpuPart>(in); }

}  // namespace ch13
