/// @file texture_solver.hpp
/// @brief Chapter 07's host code and its variant `texture`: x read through the texture path. Chapter 04's layout (chapter 03's
/// LinearSolver with the offset aligned to 32 floats), each iterate starting at a multiple of the
/// device's textureAlignment, and one texture object (RAII) over each of the two iterates, made once:
/// the ping-pong swaps objects, never data. (The paper bound a texture reference to the new input
/// every iteration with cudaBindTexture; texture references were removed in CUDA 12.)
#pragma once
#include <array>
#include <string>

#include "gpgpu/cuda/buffers.hpp"
#include "gpgpu/cuda/device.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"

namespace gpgpu::jacobi::cuda {

class TextureSolver final : public LinearSolver {
 public:
  /// Uploads the matrix and f (untimed), makes the two texture objects, and launches 07_texture.cu in
  /// blocks of `block` threads. Throws UsageError when a padded iterate is wider than the device's
  /// widest 1D linear texture.
  TextureSolver(const LinearSystem& sys, int block, const gpgpu::cuda::DeviceInfo& device);
  [[nodiscard]] std::string launch() const override;

 private:
  void step(int in, float omega) override;
  std::array<gpgpu::cuda::TextureObject, 2> tex_;  ///< tex_[b] reads iterate b
};

/// `texture` (chapter 07): kernels/jacobi/cuda/07_texture.cu on a TextureSolver, in blocks of 64
/// threads unless --block says otherwise. Its check_fits refuses a grid whose padded x is wider than
/// the device's widest 1D linear texture, or that does not fit into device memory. `launch` must
/// outlive the variant.
Variant texture_variant(const LaunchOptions& launch);

}  // namespace gpgpu::jacobi::cuda
