// Solvers on the paper's 1D layouts (kernels 01, 02, 05): nine unpadded diagonal arrays, f, and two
// ghost-padded iterates (gpgpu::make_ghost_padded, offset nx+1 or rounded up to a multiple).
#include <array>
#include <cstdint>
#include <optional>

#include "../launchers.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/layouts.hpp"
#include "ping_pong.hpp"
#include "solvers.hpp"

namespace gpgpu::cuda_jacobi {
namespace {

using cuda::DeviceBuffer;

class LinearSolver final : public PingPongSolver {
 public:
  LinearSolver(const VariantInfo& info, const LinearSystem& sys, const LaunchConfig& config, LinearKind kind)
      : info_(info), kind_(kind), grid_(sys.grid),
        offset_(kind == LinearKind::simple ? simple_offset(sys.grid)
                                           : aligned_offset(sys.grid, kind == LinearKind::aligned16 ? 16 : 32)),
        block_(config.block_x > 0 ? config.block_x : info.default_block_x) {
    check_block(info, block_, 1);
    const std::size_t n = static_cast<std::size_t>(grid_.nodes());
    for (std::size_t d = 0; d < 9; ++d) {
      diag_[d] = DeviceBuffer<float>(n);
      diag_[d].upload(sys.A.diag[d]);
    }
    f_ = DeviceBuffer<float>(n);
    f_.upload(sys.rhs);
    // Same padded length as the host layout; a multiple of 32 floats keeps the texture size tidy.
    padded_size_ = static_cast<std::size_t>(ghost_padded_length(grid_, offset_, 32));
    // A texture's base address must be a multiple of textureAlignment (512 B on the H100), more
    // than cudaMalloc promises (256 B): allocate a little more and start at the next multiple.
    const std::size_t alignment = kind_ == LinearKind::texture ? texture_limits().alignment : 256;
    for (int b = 0; b < 2; ++b) {
      x_[b] = DeviceBuffer<float>(padded_size_ + alignment / sizeof(float));
      x_[b].fill_bytes(0);
      const auto address = reinterpret_cast<std::uintptr_t>(x_[b].get());
      xb_[b] = x_[b].get() + ((alignment - address % alignment) % alignment) / sizeof(float);
    }
    if (kind_ == LinearKind::texture) {
      const TextureLimits limits = texture_limits();
      for (int b = 0; b < 2; ++b) tex_[b] = cuda::TextureObject(xb_[b], padded_size_, limits.alignment, limits.max_floats);
    }
  }

  void upload(std::span<const float> x0) override {
    const GhostPadded<float> host = make_ghost_padded<float>(grid_, x0, offset_, 32);
    GPGPU_CUDA_CHECK(cudaMemcpy(xb_[0], host.data.data(), host.data.size() * sizeof(float), cudaMemcpyHostToDevice));
    x_[1].fill_bytes(0);  // ghosts must be finite: 0 times a ghost is only 0 if the ghost is
    GPGPU_CUDA_CHECK(cudaMemset(xb_[1] + offset_, 0xFF, static_cast<std::size_t>(grid_.nodes()) * sizeof(float)));
    current_ = 0;
  }

  [[nodiscard]] std::vector<float> download() const override {
    std::vector<float> x(static_cast<std::size_t>(grid_.nodes()));
    GPGPU_CUDA_CHECK(cudaMemcpy(x.data(), xb_[current_] + offset_, x.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return x;
  }

  [[nodiscard]] std::string launch_text() const override {
    return "grid " + std::to_string(blocks_for(grid_.nodes(), block_)) + ", block " + std::to_string(block_) +
           ", ghost offset " + std::to_string(offset_) + (kind_ == LinearKind::texture ? ", 2 texture objects" : "");
  }
  [[nodiscard]] const VariantInfo& info() const override { return info_; }

 private:
  void launch(int in, float omega) override {
    const Diagonals A{diag_[0].get(), diag_[1].get(), diag_[2].get(), diag_[3].get(), diag_[4].get(),
                      diag_[5].get(), diag_[6].get(), diag_[7].get(), diag_[8].get()};
    const int nodes = static_cast<int>(grid_.nodes());
    const int offset = static_cast<int>(offset_);
    float* out = xb_[1 - in];
    switch (kind_) {
      case LinearKind::simple:
        launch_jacobi_simple({A, f_.get(), xb_[in], out, grid_.nx, nodes, offset, omega}, block_, nullptr);
        break;
      case LinearKind::aligned16:
      case LinearKind::aligned32:
        launch_jacobi_aligned({A, f_.get(), xb_[in], out, grid_.nx, nodes, offset, omega}, block_, nullptr);
        break;
      case LinearKind::texture:  // the input is the texture object over buffer `in`
        launch_jacobi_texture({A, f_.get(), tex_[in].get(), out, grid_.nx, nodes, offset, omega}, block_, nullptr);
        break;
    }
  }

  const VariantInfo& info_;
  LinearKind kind_;
  Grid grid_;
  std::int64_t offset_;
  int block_;
  std::size_t padded_size_ = 0;
  std::array<DeviceBuffer<float>, 9> diag_;
  DeviceBuffer<float> f_;
  std::array<DeviceBuffer<float>, 2> x_;
  std::array<float*, 2> xb_{};  ///< where each padded iterate starts inside x_ (aligned)
  std::array<cuda::TextureObject, 2> tex_;
};

}  // namespace

TextureLimits texture_limits() {
  int device = 0, alignment = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&alignment, cudaDevAttrTextureAlignment, device));
  const cudaChannelFormatDesc format = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  std::size_t max_floats = 0;
  GPGPU_CUDA_CHECK(cudaDeviceGetTexture1DLinearMaxWidth(&max_floats, &format, device));
  return {static_cast<std::size_t>(alignment), max_floats};
}

std::size_t linear_padded_floats(const Grid& grid) {
  // The largest offset of the three layouts (aligned to 32), the unknowns, nx+1 behind, rounded to 32.
  return static_cast<std::size_t>(ghost_padded_length(grid, aligned_offset(grid, 32), 32));
}

std::unique_ptr<Solver> make_linear_solver(const VariantInfo& info, const LinearSystem& sys,
                                           const LaunchConfig& config, LinearKind kind) {
  return std::make_unique<LinearSolver>(info, sys, config, kind);
}

}  // namespace gpgpu::cuda_jacobi
