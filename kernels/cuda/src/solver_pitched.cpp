// Solvers on the pitched layout (kernels 03, 04, 06-09): every array from cudaMallocPitch with the
// same pitch and kGhostRows zero rows above and below the grid; padding columns are zero too.
#include <array>
#include <cstdio>
#include <vector>

#include "../launchers.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/stencil.hpp"
#include "ping_pong.hpp"
#include "solvers.hpp"

namespace gpgpu::cuda_jacobi {
namespace {

using cuda::PitchedBuffer;

// The stored diagonals of the symmetric kernel, in SymmetricArgs order.
constexpr std::array<Dir, 5> kUpperDirs{Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE};

class PitchedSolver final : public PingPongSolver {
 public:
  PitchedSolver(const VariantInfo& info, const LinearSystem& sys, const LaunchConfig& config, PitchedKind kind)
      : info_(info), kind_(kind), grid_(sys.grid),
        block_x_(config.block_x > 0 ? config.block_x : info.default_block_x),
        block_y_(kind == PitchedKind::tiled2d ? (config.block_y > 0 ? config.block_y : info.default_block_y) : 1) {
    check_block(info, block_x_, block_y_);
    const std::size_t rows = static_cast<std::size_t>(grid_.ny) + 2 * kGhostRows;
    const auto add = [&](std::span<const float> values) {
      coef_.push_back(cuda::pitched_with_ghost_rows(values, static_cast<std::size_t>(grid_.nx),
                                              static_cast<std::size_t>(grid_.ny), kGhostRows));
    };
    if (kind_ == PitchedKind::symmetric) {
      for (Dir d : kUpperDirs) add(sys.A.diag[static_cast<std::size_t>(idx(d))]);
    } else {
      for (const auto& d : sys.A.diag) add(d);
    }
    add(sys.rhs);  // f is the last entry of coef_
    for (auto& x : x_) {
      x = PitchedBuffer<float>(static_cast<std::size_t>(grid_.nx), rows);
      x.fill_bytes(0);
    }
    pitch_ = x_[0].pitch();
    for (const auto& b : coef_)
      if (b.pitch() != pitch_) throw std::logic_error("cudaMallocPitch gave arrays of one width different pitches");
    if (pitch_ % 4 != 0) throw std::logic_error("pitch is not a multiple of 16 bytes: the float4 kernels need it");
    rows_per_thread_ = config.rows_per_thread > 0 ? config.rows_per_thread : default_rows_per_thread();
  }

  void upload(std::span<const float> x0) override {
    const auto nx = static_cast<std::size_t>(grid_.nx), ny = static_cast<std::size_t>(grid_.ny);
    x_[0].fill_bytes(0);
    x_[0].upload_rows(x0, nx, ny, kGhostRows);
    x_[1].fill_bytes(0);  // ghosts and padding zero, the unknowns NaN
    x_[1].fill_block_bytes(0xFF, nx, ny, kGhostRows);
    current_ = 0;
  }

  [[nodiscard]] std::vector<float> download() const override {
    return x_[current_].download_rows(static_cast<std::size_t>(grid_.nx), static_cast<std::size_t>(grid_.ny),
                                      kGhostRows);
  }

  std::string tune(int iters, float omega) override {
    if (kind_ != PitchedKind::multirow && kind_ != PitchedKind::symmetric) return {};
    int best_block = block_x_, best_rows = rows_per_thread_, tried = 0;
    double best = run(iters, omega);  // the occupancy-based default first (also warms up)
    for (int block : {64, 128, 256})
      for (int rows : {1, 2, 4, 8, 16}) {
        block_x_ = block;
        rows_per_thread_ = rows;
        const double t = run(iters, omega);
        ++tried;
        if (t < best) {
          best = t;
          best_block = block;
          best_rows = rows;
        }
      }
    block_x_ = best_block;
    rows_per_thread_ = best_rows;
    char text[160];
    std::snprintf(text, sizeof text, "block %d, %d rows per thread: %.4f ms/iter, fastest of %d configurations x %d iterations",
                  best_block, best_rows, 1e3 * best / iters, tried + 1, iters);
    return text;
  }

  [[nodiscard]] std::string launch_text() const override {
    // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on chains of "literal" + std::string.
    std::string s = "block ";
    s += std::to_string(block_x_);
    if (kind_ == PitchedKind::tiled2d) {
      s += "x";
      s += std::to_string(block_y_);
    }
    if (kind_ == PitchedKind::multirow || kind_ == PitchedKind::symmetric) {
      s += ", 4 columns x ";
      s += std::to_string(rows_per_thread_);
      s += " rows per thread";
    }
    s += ", pitch ";
    s += std::to_string(pitch_);
    s += " floats";
    return s;
  }
  [[nodiscard]] const VariantInfo& info() const override { return info_; }

 private:
  static float* origin(PitchedBuffer<float>& b) { return b.row(kGhostRows); }
  static const float* origin(const PitchedBuffer<float>& b) { return b.row(kGhostRows); }

  // As many rows per thread (up to 16) as keep at least eight waves of resident threads. More rows
  // save loads (each x and coefficient row is loaded once per thread, plus one row per strip), but
  // a block then lives longer, and at the end of every iteration the last blocks run with the rest
  // of the GPU idle: at 4096² on an H100 this picks 4 rows (blocks of ~6 µs), at 1024² 1 row.
  int default_rows_per_thread() const {
    if (kind_ != PitchedKind::multirow && kind_ != PitchedKind::symmetric) return 1;
    int device = 0, sms = 0;
    GPGPU_CUDA_CHECK(cudaGetDevice(&device));
    GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int per_sm = kind_ == PitchedKind::symmetric ? symmetric_blocks_per_sm(block_x_) : multirow_blocks_per_sm(block_x_);
    const double resident = static_cast<double>(per_sm) * block_x_ * sms;
    const double threads_per_row = static_cast<double>(blocks_for((grid_.nx + 3) / 4, block_x_)) * block_x_;
    int rows = 16;
    while (rows > 1 && threads_per_row * static_cast<double>(blocks_for(grid_.ny, rows)) < 8 * resident) rows /= 2;
    return rows;
  }

  void launch(int in, float omega) override {
    const auto o = [&](std::size_t a) { return origin(coef_[a]); };
    const float* x = origin(x_[in]);
    float* out = origin(x_[1 - in]);
    const int pitch = static_cast<int>(pitch_);
    if (kind_ == PitchedKind::symmetric) {
      const SymmetricArgs a{o(0), o(1), o(2), o(3), o(4), o(5), x, out, grid_.nx, grid_.ny, pitch, omega};
      launch_jacobi_symmetric(a, block_x_, rows_per_thread_, nullptr);
      return;
    }
    const PitchedArgs a{{o(0), o(1), o(2), o(3), o(4), o(5), o(6), o(7), o(8)}, o(9), x, out,
                        grid_.nx, grid_.ny, pitch, omega};
    switch (kind_) {
      case PitchedKind::pitched: launch_jacobi_pitched(a, block_x_, nullptr); break;
      case PitchedKind::shared: launch_jacobi_shared(a, block_x_, nullptr); break;
      case PitchedKind::readonly: launch_jacobi_readonly(a, block_x_, nullptr); break;
      case PitchedKind::tiled2d: launch_jacobi_tiled2d(a, block_x_, block_y_, nullptr); break;
      case PitchedKind::multirow: launch_jacobi_multirow(a, block_x_, rows_per_thread_, nullptr); break;
      case PitchedKind::symmetric: break;  // handled above
    }
  }

  const VariantInfo& info_;
  PitchedKind kind_;
  Grid grid_;
  int block_x_, block_y_;
  int rows_per_thread_ = 1;
  std::size_t pitch_ = 0;
  std::vector<PitchedBuffer<float>> coef_;  // the stored diagonals, then f
  std::array<PitchedBuffer<float>, 2> x_;
};

}  // namespace

std::unique_ptr<Solver> make_pitched_solver(const VariantInfo& info, const LinearSystem& sys,
                                            const LaunchConfig& config, PitchedKind kind) {
  return std::make_unique<PitchedSolver>(info, sys, config, kind);
}

}  // namespace gpgpu::cuda_jacobi
