// Chapter 12's level-1/2 CUDA kernels (SAXPY, SSCAL, SGEMV both ways), unchanged, run on the CPU
// by the emulation of the CUDA thread model (level12_emulation.hpp), with the launch shapes of
// their launchers, against the FP64 reference within each routine's bound, at the awkward sizes of
// problems/blas's checks. No GPU needed (label cpu): it catches wrong indices, a missing tail, the
// scalar path of an unaligned row, a shuffle or barrier some threads skip.
#include "level12_emulation.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/routine_checks.hpp"

#define GPGPU_CUDA_EMULATION
#include "../12_01_saxpy.cu"
#include "../12_02_sscal.cu"
#include "../12_03_sgemv_rows.cu"
#include "../12_04_sgemv_t_columns.cu"

namespace gpgpu::blas::cuda {
namespace {

namespace checks = gpgpu::blas::routine_checks;

// One call of the routine's kernel on `c`, with its launcher's shape; returns the result.
std::vector<float> emulate(const Case& c) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  switch (c.routine) {
    case Routine::saxpy:
    case Routine::sscal: {
      std::vector<float> y = c.routine == Routine::saxpy ? c.y : c.x;
      const VectorArgs v{c.x.data(), y.data(), c.alpha, static_cast<int>(c.n)};
      const unsigned blocks = vector_blocks(v.n);
      if (c.routine == Routine::saxpy)
        emu::launch(dim3(blocks), dim3(kVectorThreads), false, [&] { saxpy_vec4(v); });
      else
        emu::launch(dim3(blocks), dim3(kVectorThreads), false, [&] { sscal_vec4(v); });
      return y;
    }
    case Routine::sgemv: {
      std::vector<float> y(static_cast<std::size_t>(c.m), nan);
      const GemvArgs g{c.a.data(), c.x.data(), y.data(), static_cast<int>(c.m), static_cast<int>(c.n)};
      const dim3 grid(level12_blocks(g.m, kGemvRowsPerBlock)), block(32 * kGemvRowsPerBlock);
      if (g.n % 4 == 0)
        emu::launch_with_barriers(grid, block, [&] { sgemv_rows<true>(g); });
      else
        emu::launch_with_barriers(grid, block, [&] { sgemv_rows<false>(g); });
      return y;
    }
    case Routine::sgemv_t: {
      std::vector<float> y(static_cast<std::size_t>(c.n), 0.0f);  // the launcher's cudaMemsetAsync
      const GemvArgs g{c.a.data(), c.x.data(), y.data(), static_cast<int>(c.m), static_cast<int>(c.n)};
      const dim3 grid(level12_blocks(g.n, kGemvTColumns), level12_blocks(g.m, kGemvTRows));
      emu::launch_with_barriers(grid, dim3(kGemvTColumns, kGemvTLanes), [&] { sgemv_t_columns(g); });
      return y;
    }
    default: break;
  }
  ADD_FAILURE() << "no emulated kernel for " << routine_name(c.routine);
  return {};
}

class Level12Kernel : public ::testing::TestWithParam<Routine> {};

TEST_P(Level12Kernel, WithinTheBoundAtAwkwardSizes) {
  for (const RoutineSizes& s : checks::awkward_sizes(GetParam(), checks::Reach::small)) {
    const Case c = make_case(GetParam(), s, 23);
    const Verification v = compare(emulate(c), reference(c));
    EXPECT_TRUE(v.pass) << routine_name(GetParam()) << " on " << c.size_str() << ": " << v.summary();
  }
}

INSTANTIATE_TEST_SUITE_P(Ch12, Level12Kernel, ::testing::Values(Routine::saxpy, Routine::sscal, Routine::sgemv, Routine::sgemv_t),
                         [](const auto& info) { return std::string(routine_name(info.param)); });

}  // namespace
}  // namespace gpgpu::blas::cuda
