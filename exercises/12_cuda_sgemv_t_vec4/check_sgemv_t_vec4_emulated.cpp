// The CPU check of exercise 12 (label cpu, no GPU needed): the kernel, unchanged, on the CPU
// emulation of the CUDA thread model (kernels/blas/cuda/tests/level12_emulation.hpp: fibers meeting
// at __syncthreads(), atomicAdd), launched as launch_sgemv_t_vec4 launches it (y zeroed first), with
// its loads of A watched (load_watch.hpp): the result within the bound, A read once, as float4
// wherever four columns of a row lie inside it, never past column n - 1, and one atomicAdd per
// column and block.
#include "blas/cuda/tests/level12_emulation.hpp"
#include "load_watch.hpp"

#define GPGPU_CUDA_EMULATION
#include <sgemv_t_vec4.cu>  // the student's file (exercises/ or solutions/: the include path decides)

#include "sgemv_t_vec4_checks.hpp"

namespace {

std::vector<float> emulated(const gpgpu::blas::Case& c, const ex12::checks::PitchedMatrix& a) {
  const int m = static_cast<int>(c.m), n = static_cast<int>(c.n);
  std::vector<float> y(static_cast<std::size_t>(n), 0.0f);
  ex12::watch::current = ex12::watch::Watch{};
  ex12::watch::current.a = a.data();
  ex12::watch::current.floats = static_cast<std::ptrdiff_t>(a.floats());
  ex12::watch::current.lda = a.lda;
  ex12::watch::current.n = n;
  emu::atomic_adds = 0;
  const dim3 grid((n + ex12::kBlockColumns - 1) / ex12::kBlockColumns, (m + ex12::kBlockRows - 1) / ex12::kBlockRows);
  emu::launch_with_barriers(grid, dim3(ex12::kThreadsX, ex12::kLanes),
                            [&] { ex12::sgemv_t_vec4(a.data(), a.lda, c.x.data(), y.data(), m, n); });
  return y;
}

TEST(SgemvTVec4Emulated, WithinTheBoundAtAwkwardShapes) {
  for (const auto& [m, n] : ex12::checks::shapes()) EXPECT_TRUE(ex12::checks::within_bound(emulated, m, n));
}

// The technique, not only the result: every element of A read once through __ldg, four columns as
// one 16-byte load wherever all four lie inside the row, nothing read from the padding, and the
// block's partial sums of a column added to y with one atomicAdd (not one per thread).
TEST(SgemvTVec4Emulated, ReadsARowFourColumnsAtATimeAndNeverPastIt) {
  for (const auto& [m, n] : ex12::checks::shapes()) {
    const gpgpu::blas::Case c = ex12::checks::make(m, n);
    emulated(c, ex12::checks::PitchedMatrix(c));
    const ex12::watch::Watch& w = ex12::watch::current;
    SCOPED_TRACE("A of " + std::to_string(m) + " x " + std::to_string(n) + ", row pitch " + std::to_string(w.lda));
    for (const std::string& fault : w.faults) ADD_FAILURE() << fault;
    EXPECT_EQ(w.loads16, static_cast<long long>(m) * (n / 4))
        << "16-byte loads of A (__ldg(const float4*)): one per row for every four columns inside it";
    EXPECT_EQ(w.loads4, static_cast<long long>(m) * (n % 4))
        << "4-byte loads of A (__ldg(const float*)): one per row for each of the last n % 4 columns";
    const long long blocks_down = (m + ex12::kBlockRows - 1) / ex12::kBlockRows;
    EXPECT_EQ(emu::atomic_adds, blocks_down * n)
        << "atomicAdd calls: one per column and block, after the block's kLanes partial sums meet in shared memory";
  }
}

}  // namespace
