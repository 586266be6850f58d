// The row-walking kernels' host code (07b_03_multirow.cu, 07b_04_symmetric.cu, 07b_05_prefetch.cu,
// 07b_06_ring.cu), in the order a run uses it: the four variants, then how each kernel is launched on chapter 05's
// pitched layout (the rows per thread and their tuning).
#include "gpgpu/jacobi/cuda/row_walking_solver.hpp"

#include <memory>
#include <span>
#include <string>

#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/launch_tuning.hpp"
#include "jacobi/cuda/launchers.hpp"

namespace gpgpu::jacobi::cuda {

using gpgpu::jacobi::LinearSystem;
using gpgpu::jacobi::Variant;

namespace {

// A variant whose solver runs `kernel`; `work` names its row of the work table, `stored` the
// diagonals its device buffers hold (for the memory check).
Variant row_walking_variant(const LaunchOptions& launch, RowWalkingSolver::Kernel kernel, const char* name,
                            const char* description, const char* source, const char* work, int stored) {
  Variant v = cuda_variant(name, description, source, "", work);
  v.make = [&launch, kernel](const LinearSystem& sys, gpgpu::Session& gpu) {
    return std::make_unique<RowWalkingSolver>(sys, kernel, launch, gpgpu::cuda::device_info(gpu).sm_count);
  };
  v.check_fits = fits_pitched(name, stored);
  return v;
}

}  // namespace

//! [variants]
Variant multirow_variant(const LaunchOptions& launch) {
  return row_walking_variant(launch, RowWalkingSolver::Kernel::multirow, "multirow",
                             "float4 per thread, several rows per thread, x rows in registers",
                             "kernels/jacobi/cuda/07b_03_multirow.cu", "jacobi9", 9);
}

Variant symmetric_variant(const LaunchOptions& launch) {
  return row_walking_variant(launch, RowWalkingSolver::Kernel::symmetric, "symmetric",
                             "multirow with 5 of the 9 diagonals (symmetric storage)",
                             "kernels/jacobi/cuda/07b_04_symmetric.cu", "jacobi9_symmetric", 5);
}

Variant symmetric_prefetch_variant(const LaunchOptions& launch) {
  return row_walking_variant(launch, RowWalkingSolver::Kernel::symmetric_prefetch, "symmetric_prefetch",
                             "symmetric with the next row's loads in flight during this row's update",
                             "kernels/jacobi/cuda/07b_05_prefetch.cu", "jacobi9_symmetric", 5);
}

Variant symmetric_ring_variant(const LaunchOptions& launch) {
  return row_walking_variant(launch, RowWalkingSolver::Kernel::symmetric_ring, "symmetric_ring",
                             "symmetric with the next two rows copied into a shared-memory ring (cp.async)",
                             "kernels/jacobi/cuda/07b_06_ring.cu", "jacobi9_symmetric", 5);
}
//! [variants]

namespace {

using gpgpu::jacobi::Dir;

std::span<const Dir> stored(RowWalkingSolver::Kernel k) {
  if (k == RowWalkingSolver::Kernel::multirow) return kNineDiagonals;
  return kUpperDiagonals;
}

}  // namespace

RowWalkingSolver::RowWalkingSolver(const gpgpu::jacobi::LinearSystem& sys, Kernel kernel, const LaunchOptions& launch,
                                   int sm_count)
    : PitchedSolver(sys, stored(kernel)), kernel_(kernel), tuning_(launch.tuning()) {
  block_ = launch.block_or(128);
  check_block(block_);
  const int max_block = kernel == Kernel::symmetric_prefetch ? kPrefetchMaxBlock
                        : kernel == Kernel::symmetric_ring   ? kRingMaxBlock
                                                             : 0;
  if (max_block > 0 && block_ > max_block)
    throw gpgpu::UsageError(std::string(kernel == Kernel::symmetric_ring ? "symmetric_ring" : "symmetric_prefetch") + ": a block of " +
                            std::to_string(block_) + " threads: its kernel is built for at most " + std::to_string(max_block) +
                            " (--block)");
  rows_per_thread_ = launch.rows_per_thread > 0 ? launch.rows_per_thread : default_rows_per_thread(sm_count);
}

// Chapter 07b's rule (rows_per_thread_for): as many rows per thread as keep eight waves of
// resident threads.
int RowWalkingSolver::default_rows_per_thread(int sm_count) const {
  const int per_sm = kernel_ == Kernel::multirow             ? multirow_blocks_per_sm(block_)
                     : kernel_ == Kernel::symmetric          ? symmetric_blocks_per_sm(block_)
                     : kernel_ == Kernel::symmetric_prefetch ? symmetric_prefetch_blocks_per_sm(block_)
                                                             : symmetric_ring_blocks_per_sm(block_);
  return rows_per_thread_for(grid().nx, grid().ny, block_, per_sm, sm_count);
}

void RowWalkingSolver::step(int in, float omega) {
  if (kernel_ == Kernel::multirow) {
    launch_jacobi_multirow(args(in, omega), block_, rows_per_thread_, nullptr);
    return;
  }
  const auto a = [&](std::size_t i) { return array(i); };
  const SymmetricArgs s{a(0), a(1), a(2), a(3), a(4), a(5), x(in), x(1 - in), grid().nx, grid().ny, pitch(), omega};
  if (kernel_ == Kernel::symmetric)
    launch_jacobi_symmetric(s, block_, rows_per_thread_, nullptr);
  else if (kernel_ == Kernel::symmetric_prefetch)
    launch_jacobi_symmetric_prefetch(s, block_, rows_per_thread_, nullptr);
  else
    launch_jacobi_symmetric_ring(s, block_, rows_per_thread_, nullptr);
}

//! [tune]
std::string RowWalkingSolver::tune(int iters, float omega) {
  if (!tuning_) return {};
  // The occupancy-based default first, then every shape of gpgpu::jacobi::fastest_launch.
  const gpgpu::jacobi::TunedLaunch best =
      gpgpu::jacobi::fastest_launch({block_, rows_per_thread_}, iters, [&](const gpgpu::jacobi::LaunchShape& shape) {
        block_ = shape.block;
        rows_per_thread_ = shape.rows_per_thread;
        return iterate(iters, omega);
      });
  block_ = best.shape.block;
  rows_per_thread_ = best.shape.rows_per_thread;
  return best.text;
}
//! [tune]

std::string RowWalkingSolver::launch() const {
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on chains of "literal" + std::string.
  std::string s = "block ";
  s += std::to_string(block_);
  s += ", 4 columns x ";
  s += std::to_string(rows_per_thread_);
  s += " rows per thread, pitch ";
  s += std::to_string(pitch());
  s += " floats";
  return s;
}

}  // namespace gpgpu::jacobi::cuda
