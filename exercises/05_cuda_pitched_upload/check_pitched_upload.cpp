// The check of exercise 05: the round trip gives the values back exactly at awkward widths; the
// pitch is at least a row, a multiple of 16 bytes (aligned float4 rows) and the allocation starts
// aligned; every ghost row and every padding byte is zero, every unknown sits at its place.
#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "pitched_upload.hpp"

namespace {

class PitchedUpload : public ::testing::TestWithParam<gpgpu::jacobi::Grid> {};  // device 0: opened by the test main

TEST_P(PitchedUpload, RoundTripAndLayout) {
  const gpgpu::jacobi::Grid g = GetParam();
  const auto values = gpgpu::jacobi::checks::random_guess(g.nodes(), 9);
  ex05::PitchedField field = ex05::upload_pitched(values, g.nx, g.ny);
  ASSERT_NE(field.base, nullptr) << "nothing was allocated";
  EXPECT_GE(field.pitch_bytes, static_cast<std::size_t>(g.nx) * sizeof(float));
  EXPECT_EQ(field.pitch_bytes % 16, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(field.base) % 256, 0u);
  EXPECT_EQ(ex05::download_pitched(field), values);

  // The whole allocation, ghosts and padding included, as raw rows.
  const std::size_t rows = static_cast<std::size_t>(g.ny) + 2 * ex05::kGhostRows;
  const std::size_t per_row = field.pitch_bytes / sizeof(float);
  std::vector<float> all(per_row * rows);
  GPGPU_CUDA_CHECK(cudaMemcpy(all.data(), field.base, field.pitch_bytes * rows, cudaMemcpyDeviceToHost));
  for (std::size_t r = 0; r < rows; ++r) {
    const bool ghost = r < ex05::kGhostRows || r >= ex05::kGhostRows + static_cast<std::size_t>(g.ny);
    for (std::size_t c = 0; c < per_row; ++c) {
      const float v = all[r * per_row + c];
      if (ghost || c >= static_cast<std::size_t>(g.nx)) {
        ASSERT_EQ(std::memcmp(&v, "\0\0\0\0", 4), 0) << "row " << r << ", column " << c << " is not zero";
      } else {
        ASSERT_EQ(v, values[(r - ex05::kGhostRows) * static_cast<std::size_t>(g.nx) + c]) << "row " << r << ", column " << c;
      }
    }
  }
  ex05::free_pitched(field);
  EXPECT_EQ(field.base, nullptr);
}

INSTANTIATE_TEST_SUITE_P(AwkwardWidths, PitchedUpload,
                         ::testing::Values(gpgpu::jacobi::Grid{1, 1}, gpgpu::jacobi::Grid{3, 5}, gpgpu::jacobi::Grid{129, 7},
                                           gpgpu::jacobi::Grid{513, 31}, gpgpu::jacobi::Grid{1000, 1000}),
                         [](const auto& info) { return info.param.str(); });

}  // namespace
