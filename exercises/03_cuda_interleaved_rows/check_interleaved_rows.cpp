// The check of exercise 03, built against the skeleton (label `exercise`) and the worked answer
// (label `solution`): the interleaved-row kernel matches the CPU double-precision reference at
// awkward sizes, for odd and even iteration counts and several block sizes. The output's unknowns
// are NaN before the run, so an element the kernel does not write fails.
#include <utility>

#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "interleaved_rows.hpp"

namespace {

using gpgpu::cuda::DeviceBuffer;

// Host side: the layout, the upload, the ping-pong loop and the download.
std::vector<float> solve(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0, int iters, int block) {
  const gpgpu::jacobi::Grid g = sys.grid;
  const auto offset = gpgpu::jacobi::simple_offset(g);
  const auto host_rows = gpgpu::jacobi::interleave_rows(sys.A);
  const auto host_x = gpgpu::jacobi::make_ghost_padded<float>(g, x0, offset);
  DeviceBuffer<float> rows(host_rows.size()), f(sys.rhs.size()), x(host_x.data.size()), x_new(host_x.data.size());
  rows.upload(host_rows);
  f.upload(sys.rhs);
  x.upload(host_x.data);
  x_new.fill_bytes(0);
  GPGPU_CUDA_CHECK(cudaMemset(x_new.get() + offset, 0xFF, static_cast<std::size_t>(g.nodes()) * sizeof(float)));
  for (int it = 0; it < iters; ++it) {
    ex03::launch_jacobi_interleaved({rows.get(), f.get(), x.get(), x_new.get(), g.nx, static_cast<int>(g.nodes()),
                                     static_cast<float>(gpgpu::jacobi::kDefaultOmega)},
                                    block);
    std::swap(x, x_new);
  }
  return x.download(static_cast<std::size_t>(offset), static_cast<std::size_t>(g.nodes()));
}

using gpgpu::jacobi::checks::JacobiCase;

class InterleavedRows : public ::testing::TestWithParam<JacobiCase> {};  // device 0: opened by the test main

TEST_P(InterleavedRows, MatchesTheReference) {
  const JacobiCase c = GetParam();
  const auto sys = gpgpu::jacobi::assemble_bidomain(c.grid);
  const auto x0 = gpgpu::jacobi::checks::random_guess(c.grid.nodes(), 3);
  EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(solve(sys, x0, c.iters, c.block), sys, x0, c.iters));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, InterleavedRows,
                         ::testing::Values(JacobiCase{{1, 1}, 3, 64}, JacobiCase{{2, 7}, 2, 64},
                                           JacobiCase{{17, 1023}, 7, 100},
                                           JacobiCase{{513, 1024}, 10, 64}, JacobiCase{{4097, 33}, 5, 256}),
                         gpgpu::jacobi::checks::case_name);

}  // namespace
