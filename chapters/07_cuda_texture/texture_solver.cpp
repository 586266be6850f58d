#include "texture_solver.hpp"

#include "aligned_variants.hpp"
#include "gpgpu/jacobi/layouts.hpp"
#include "jacobi/cuda/launchers.hpp"

namespace ch07 {

namespace jc = gpgpu::jacobi::cuda;

//! [textures]
TextureSolver::TextureSolver(const gpgpu::jacobi::LinearSystem& sys, int block, const gpgpu::cuda::DeviceInfo& device)
    : LinearSolver(sys, gpgpu::jacobi::aligned_offset(sys.grid, ch04::kLineAlignment), block, nullptr,
                   device.texture_alignment) {
  for (int b = 0; b < 2; ++b)
    tex_[static_cast<std::size_t>(b)] = gpgpu::cuda::TextureObject(padded(b), padded_floats(), device.texture_alignment,
                                                                   device.texture1d_linear_max_floats);
}

void TextureSolver::step(int in, float omega) {
  const jc::LinearArgs a = args(in, omega);  // the input is the texture object over iterate `in`
  jc::launch_jacobi_texture({a.A, a.f, tex_[static_cast<std::size_t>(in)].get(), a.x_new, a.nx, a.nodes, a.offset, a.omega},
                            block(), nullptr);
}
//! [textures]

std::string TextureSolver::launch() const { return LinearSolver::launch() + ", 2 texture objects"; }

}  // namespace ch07
