// The check of exercise 05: the round trip gives the values back exactly at awkward widths; the
// pitch is the one cudaMallocPitch chooses for rows of nx floats (so a cudaMalloc with a pitch of
// the student's own, 16-byte rows say, fails), and the allocation starts aligned; every ghost row
// and every padding byte is zero, every unknown sits at its place. Every cudaMallocPitch of the
// program comes back filled with 0xFF bytes (the link wraps it, see __wrap_cudaMallocPitch), so an
// upload that does not clear the ghosts and the padding (no cudaMemset2D) fails.
// Measure.* runs chapter 05's kernel (kernels/jacobi/cuda/05_pitched.cu) on arrays laid out by
// upload_pitched, at a width the pitch pads and one it does not, and holds each against the limit
// the GPU reaches for the kernel's read:write mix, measured in the same run; it asserts only that
// the kernel computed the right iteration on your layout.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/jacobi/checks.hpp"
#include "gpgpu/jacobi/measure.hpp"
#include "gpgpu/jacobi/work.hpp"
#include "gpgpu/table.hpp"
#include "jacobi/cuda/launchers.hpp"
#include "pitched_upload.hpp"

// A fresh allocation is zero more often than not (the driver clears the memory it maps for a
// process; on an H200 even a block freed and allocated again came back zero), so an upload that never
// clears the ghosts and the padding would pass a zero check by luck. The build links every
// cudaMallocPitch of this program, the student's included, to this wrapper (GNU ld's and lld's
// --wrap, exercises/05_cuda_pitched_upload/CMakeLists.txt): the allocation comes back with every
// byte 0xFF (a NaN in every float), as a reused block may, and only a cleared one shows zeros. It
// remembers what it handed out, so that the check can tell an allocation made another way (which a
// fresh zero would let pass) from one it filled.
namespace {
std::vector<void*>& filled_allocations() {
  static std::vector<void*> blocks;
  return blocks;
}
}  // namespace
extern "C" cudaError_t __real_cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width,  // NOLINT(bugprone-reserved-identifier)
                                              std::size_t height);
extern "C" cudaError_t __wrap_cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width,  // NOLINT(bugprone-reserved-identifier)
                                              std::size_t height) {
  const cudaError_t allocated = __real_cudaMallocPitch(ptr, pitch, width, height);
  if (allocated != cudaSuccess || height == 0) return allocated;
  const cudaError_t filled = cudaMemset2D(*ptr, *pitch, 0xFF, *pitch, height);
  if (filled != cudaSuccess) return filled;
  filled_allocations().push_back(*ptr);
  return cudaDeviceSynchronize();
}

namespace {

class PitchedUpload : public ::testing::TestWithParam<gpgpu::jacobi::Grid> {};  // device 0: opened by the test main

// The pitch the CUDA runtime chooses for `rows` rows of nx floats on this device.
std::size_t runtime_pitch(int nx, std::size_t rows) {
  void* probe = nullptr;
  std::size_t pitch = 0;
  GPGPU_CUDA_CHECK(cudaMallocPitch(&probe, &pitch, static_cast<std::size_t>(nx) * sizeof(float), rows));
  GPGPU_CUDA_CHECK(cudaFree(probe));
  return pitch;
}

TEST_P(PitchedUpload, RoundTripAndLayout) {
  const gpgpu::jacobi::Grid g = GetParam();
  const auto values = gpgpu::jacobi::checks::random_guess(g.nodes(), 9);
  const std::size_t rows = static_cast<std::size_t>(g.ny) + 2 * ex05::kGhostRows;
  ex05::PitchedField field = ex05::upload_pitched(values, g.nx, g.ny);
  ASSERT_NE(field.base, nullptr) << "nothing was allocated";
  const std::vector<void*>& filled = filled_allocations();
  ASSERT_NE(std::find(filled.begin(), filled.end(), static_cast<void*>(field.base)), filled.end())
      << "the field was not allocated by cudaMallocPitch (the check fills what that call returns with 0xFF bytes, "
      << "so that only an upload that clears its ghosts and padding shows zeros)";
  EXPECT_GE(field.pitch_bytes, static_cast<std::size_t>(g.nx) * sizeof(float));
  EXPECT_EQ(field.pitch_bytes, runtime_pitch(g.nx, rows)) << "not the pitch the runtime chooses for rows of " << g.nx
                                                          << " floats on this device";
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(field.base) % 256, 0u);
  EXPECT_EQ(ex05::download_pitched(field), values);

  // The whole allocation, ghosts and padding included, as raw rows.
  const std::size_t per_row = field.pitch_bytes / sizeof(float);
  std::vector<float> all(per_row * rows);
  GPGPU_CUDA_CHECK(cudaMemcpy(all.data(), field.base, field.pitch_bytes * rows, cudaMemcpyDeviceToHost));
  for (std::size_t r = 0; r < rows; ++r) {
    const bool ghost = r < ex05::kGhostRows || r >= ex05::kGhostRows + static_cast<std::size_t>(g.ny);
    for (std::size_t c = 0; c < per_row; ++c) {
      const float v = all[r * per_row + c];
      if (ghost || c >= static_cast<std::size_t>(g.nx)) {
        ASSERT_EQ(std::memcmp(&v, "\0\0\0\0", 4), 0)
            << "row " << r << ", column " << c << " is not zero (" << (ghost ? "a ghost row" : "row padding")
            << " left as the allocation held it: clear the allocation before the upload)";
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

// Every array of a Jacobi run in your layout: the nine diagonals, f and the two iterates.
class PitchedRun {
 public:
  PitchedRun(const gpgpu::jacobi::LinearSystem& sys, std::span<const float> x0) : grid_(sys.grid) {
    for (const auto& d : sys.A.diag) fields_.push_back(ex05::upload_pitched(d, grid_.nx, grid_.ny));
    fields_.push_back(ex05::upload_pitched(sys.rhs, grid_.nx, grid_.ny));
    fields_.push_back(ex05::upload_pitched(x0, grid_.nx, grid_.ny));
    fields_.push_back(ex05::upload_pitched(x0, grid_.nx, grid_.ny));
  }
  ~PitchedRun() {
    for (ex05::PitchedField& f : fields_) ex05::free_pitched(f);
  }
  PitchedRun(const PitchedRun&) = delete;
  PitchedRun& operator=(const PitchedRun&) = delete;

  /// Whether every array got the pitch of the first (one index must address them all).
  [[nodiscard]] bool one_pitch() const {
    for (const ex05::PitchedField& f : fields_)
      if (f.pitch_bytes != fields_[0].pitch_bytes || f.base == nullptr) return false;
    return true;
  }
  [[nodiscard]] int pitch() const { return static_cast<int>(fields_[0].pitch_bytes / sizeof(float)); }

  /// Device time of `iters` iterations of chapter 05's kernel, ping-pong between the last two arrays.
  double iterate(int iters) {
    timer_.start();
    for (int it = 0; it < iters; ++it) {
      const auto o = [&](std::size_t a) { return origin(a); };
      const gpgpu::jacobi::cuda::PitchedArgs args{{o(0), o(1), o(2), o(3), o(4), o(5), o(6), o(7), o(8)}, o(9),
                                                  o(10 + current_), origin(11 - current_), grid_.nx, grid_.ny,
                                                  pitch(), static_cast<float>(gpgpu::jacobi::kDefaultOmega)};
      gpgpu::jacobi::cuda::launch_jacobi_pitched(args, 64, nullptr);
      current_ ^= 1;
    }
    timer_.stop();
    return timer_.seconds();
  }
  [[nodiscard]] std::vector<float> solution() const { return ex05::download_pitched(fields_[10 + current_]); }

 private:
  [[nodiscard]] float* origin(std::size_t a) const { return fields_[a].base + ex05::kGhostRows * pitch(); }
  gpgpu::jacobi::Grid grid_;
  std::vector<ex05::PitchedField> fields_;
  std::size_t current_ = 0;
  gpgpu::cuda::EventTimer timer_;
};

TEST(Measure, Chapter05sKernelOnYourLayoutAgainstTheLimit) {
  const std::unique_ptr<gpgpu::Session> gpu = gpgpu::cuda::open_session(0);
  constexpr int kIters = 20;
  for (const gpgpu::jacobi::Grid g : {gpgpu::jacobi::Grid{512, 8192}, gpgpu::jacobi::Grid{513, 8192}}) {
    const auto sys = gpgpu::jacobi::assemble_bidomain(g);
    const auto x0 = gpgpu::jacobi::checks::random_guess(g.nodes(), 12);
    PitchedRun run(sys, x0);
    ASSERT_TRUE(run.one_pitch()) << "arrays of one width must share one pitch";
    std::cout << g.str() << ": pitch " << run.pitch() << " floats, "
              << gpgpu::format_cell("%.1f", 100.0 * (run.pitch() - g.nx) / g.nx) << "% padding\n";
    gpgpu::jacobi::measure::report(std::cout, "  chapter 05's kernel on your layout", gpgpu::jacobi::work("jacobi9", g, kIters),
                                   gpu->stream_limit(gpgpu::jacobi::stream_mix("jacobi9", g)),
                                   [&] { return run.iterate(kIters); });
    PitchedRun check(sys, x0);
    check.iterate(3);
    EXPECT_TRUE(gpgpu::jacobi::checks::matches_reference(check.solution(), sys, x0, 3)) << g.str();
  }
}

}  // namespace
