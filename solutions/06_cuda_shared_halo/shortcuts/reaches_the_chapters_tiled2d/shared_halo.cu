// Exercise 06, a shortcut the check must catch (its grading test proves it fails): no halo load of
// its own, but chapter 07b's tiled2d kernel, which does the same, called through its launcher
// wherever the include path reaches it. The student's file is compiled against the exercise's
// interface and a copy of gpgpu/cuda/check.hpp alone, so here the chapter's header is not found and
// what is left is the skeleton's unwritten tile; were it found, this would pass on the GPU.
#include "gpgpu/cuda/check.hpp"
#include "shared_halo.hpp"

#if __has_include("jacobi/cuda/launchers.hpp")
#include "jacobi/cuda/launchers.hpp"
#define EX06_CHAPTERS_KERNEL 1
#endif

namespace ex06 {
namespace {

__global__ void jacobi_shared_2d(SharedArgs a) {
  extern __shared__ float tile[];  // (blockDim.y + 2) rows of (blockDim.x + 2) values
  const int width = blockDim.x + 2;
  const int i0 = blockIdx.x * blockDim.x, j0 = blockIdx.y * blockDim.y;
  const int i = i0 + threadIdx.x, j = j0 + threadIdx.y;

  if (i >= a.nx || j >= a.ny) return;
  const int k = j * a.pitch + i;
  const float* mid = tile + (threadIdx.y + 1) * width + threadIdx.x + 1;
  const float* below = mid - width;
  const float* above = mid + width;
  const float* const* d = a.diag;
  const float sum = d[0][k] * below[-1] + d[1][k] * below[0] + d[2][k] * below[1] + d[3][k] * mid[-1] +
                    d[5][k] * mid[1] + d[6][k] * above[-1] + d[7][k] * above[0] + d[8][k] * above[1];
  a.x_new[k] = (1.0f - a.omega) * mid[0] + a.omega * (a.f[k] - sum) / d[4][k];
}

}  // namespace

#ifndef GPGPU_CUDA_EMULATION
void launch_jacobi_shared_2d(const SharedArgs& a, int block_x, int block_y) {
#ifdef EX06_CHAPTERS_KERNEL
  namespace jc = gpgpu::jacobi::cuda;
  const float* const* d = a.diag;
  const jc::PitchedArgs chapter{{d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8]}, a.f, a.x, a.x_new,
                                a.nx, a.ny, a.pitch, a.omega};
  jc::launch_jacobi_tiled2d(chapter, block_x, block_y, nullptr);
#else
  const dim3 block(block_x, block_y);
  const dim3 grid((a.nx + block_x - 1) / block_x, (a.ny + block_y - 1) / block_y);
  const std::size_t shared = static_cast<std::size_t>(block_x + 2) * (block_y + 2) * sizeof(float);
  jacobi_shared_2d<<<grid, block, shared>>>(a);
  GPGPU_CUDA_CHECK_LAUNCH("jacobi_shared_2d");
#endif
}
#endif

}  // namespace ex06
