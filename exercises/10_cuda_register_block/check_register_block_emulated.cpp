// The CPU check of exercise 10 (label cpu, no GPU needed), on the CPU emulation of the CUDA thread
// model (kernels/matrix/cuda/tests/matrix_emulation.hpp), launched as launch_gemm_register_block
// launches it: the product within the FP32 bound at sizes no tile divides (A and B between NaN
// guards, C poisoned), and the structure the
// exercise asks for, counted per thread with T = CountedFloat (counted_float.hpp).
#include "counted_float.hpp"  // includes the emulation, which must precede the kernel

#define GPGPU_CUDA_EMULATION
#include <gemm_register_block.cu>  // the student's file (exercises/ or solutions/: the include path decides)

#include <algorithm>
#include <string>
#include <vector>

#include "register_block_checks.hpp"

namespace {

using ex10::counting::CountedFloat;
using ex10::counting::Mode;

dim3 grid_for(int m, int n) {
  const ex10::TileShape s = ex10::tile_shape();
  return dim3((n + s.block_n - 1) / s.block_n, (m + s.block_m - 1) / s.block_m);
}

gpgpu::blas::HostMatrix multiply_emulated(const gpgpu::blas::Operands& ops) {
  const gpgpu::blas::Dims d = ops.dims();
  gpgpu::blas::HostMatrix c = gpgpu::matrix::poisoned(d.c(), gpgpu::blas::ElementType::f32);
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
  // A and B between NaN guards: a load past either end (a k edge guarded only by the row) shows.
  const std::vector<float> a_guarded = ex10::checks::guarded(ops.a.as<float>());
  const std::vector<float> b_guarded = ex10::checks::guarded(ops.b.as<float>());
  const float* a = a_guarded.data() + ex10::checks::kGuard;
  const float* b = b_guarded.data() + ex10::checks::kGuard;
  float* out = c.as<float>().data();
  emu::launch_with_barriers(grid_for(m, n), dim3(ex10::kThreads),
                            [&] { ex10::gemm_register_block<float>(a, b, out, m, n, k); });
  return c;
}

TEST(RegisterBlockEmulated, WithinTheFp32BoundAtAwkwardSizes) {
  ASSERT_TRUE(ex10::checks::shape_is_valid(ex10::tile_shape()));
  for (const gpgpu::blas::Dims& d : ex10::checks::sizes()) EXPECT_TRUE(ex10::checks::within_bound(multiply_emulated, d));
}

// Two blocks each way and four steps through k, every tile full: the counts the shape promises.
TEST(RegisterBlockEmulated, EachThreadComputesItsBlockFromSharedTiles) {
  const ex10::TileShape s = ex10::tile_shape();
  ASSERT_TRUE(ex10::checks::shape_is_valid(s));
  const int m = 2 * s.block_m, n = 2 * s.block_n, k = 4 * s.step_k;
  std::vector<CountedFloat> a(static_cast<std::size_t>(m) * k, CountedFloat(1.0f)),
      b(static_cast<std::size_t>(k) * n, CountedFloat(1.0f)), c(static_cast<std::size_t>(m) * n);
  const dim3 grid = grid_for(m, n);
  const auto launch = [&] {
    emu::launch_with_barriers(grid, dim3(ex10::kThreads),
                              [&] { ex10::gemm_register_block<CountedFloat>(a.data(), b.data(), c.data(), m, n, k); });
  };
  ex10::counting::Ledger& ledger = ex10::counting::ledger();
  if (ledger.shared.empty()) {  // static: a repeated test finds them already constructed
    ledger.mode = Mode::discover;  // what the launch constructs and leaves alive: the __shared__ arrays
    launch();
  }
  ledger.mode = Mode::count;
  ledger.a_begin = a.data(), ledger.a_end = a.data() + a.size();
  ledger.b_begin = b.data(), ledger.b_end = b.data() + b.size();
  ledger.c_begin = c.data(), ledger.c_end = c.data() + c.size();
  ledger.threads.assign(static_cast<std::size_t>(grid.x) * grid.y * ex10::kThreads, {});
  launch();
  ledger.mode = Mode::off;

  const long shared_bytes = static_cast<long>(ledger.shared.size() * sizeof(float));
  EXPECT_GT(shared_bytes, 0) << "the tiles of A and B go through shared memory";
  EXPECT_LE(shared_bytes, ex10::kMaxSharedBytes) << "shared memory per block, bytes";
  for (const CountedFloat& x : c) ASSERT_EQ(x.value(), static_cast<float>(k)) << "C = A·B with A and B all ones";

  const long outputs = static_cast<long>(s.thread_m) * s.thread_n;
  for (std::size_t t = 0; t < ledger.threads.size(); ++t) {
    const ex10::counting::ThreadCounts& n_t = ledger.threads[t];
    const std::string who = "thread " + std::to_string(t % ex10::kThreads) + " of block " + std::to_string(t / ex10::kThreads);
    ASSERT_EQ(n_t.stores_to_c, outputs) << who << ": elements of C stored, thread_m x thread_n";
    ASSERT_EQ(n_t.multiplies, outputs * k) << who << ": multiply-adds, one per element of C per step of k";
    ASSERT_GT(n_t.shared_stores, 0) << who << ": stores into the shared tiles";
    ASSERT_LE(n_t.shared_loads * ex10::kFmasPerSharedLoad, n_t.multiplies)
        << who << ": " << n_t.shared_loads << " shared-memory loads for " << n_t.multiplies
        << " multiply-adds, more than one per " << ex10::kFmasPerSharedLoad;
  }
  for (std::size_t block = 0; block < ledger.threads.size() / ex10::kThreads; ++block) {
    long loads = 0;
    for (int t = 0; t < ex10::kThreads; ++t) loads += ledger.threads[block * ex10::kThreads + t].global_loads;
    EXPECT_LE(loads, static_cast<long>(s.block_m + s.block_n) * k)
        << "block " << block << ": elements of A and B loaded; each should be loaded once per block";
  }
}

}  // namespace
