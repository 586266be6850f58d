// Chapter 03: CUDA weighted Jacobi, simple: the CPU layout on the GPU.
// The variant this chapter runs, in order:
//   simple  kernels/jacobi/cuda/03_simple.cu: the paper's first CUDA kernel, one thread per unknown,
//           nine diagonal arrays and the nx+1 ghosts of chapter 01, a 1D grid of 64-thread blocks;
//           its host code (cudaMalloc, upload, the launch loop timed by CUDA events, download) is
//           problems/jacobi/cuda/src/linear_solver.cpp.
// The run (gpgpu::jacobi::Chapter) verifies it against the CPU double-precision reference and judges
// it against the GPU's bandwidth for the same read:write mix, measured now; --sweep runs the
// paper's width sweep instead.
#include "gpgpu/jacobi/cuda/chapter_kit.hpp"
#include "gpgpu/jacobi/cuda/linear_solver.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"03", "ch03_cuda_simple", "CUDA weighted Jacobi, simple: the CPU layout on the GPU",
                               "paper 000, section 6.1 (Figs. 10-12), Tables 1 and 3"};

}  // namespace

int main(int argc, char** argv) {
  namespace jc = gpgpu::jacobi::cuda;
  return jc::run_chapter(kInfo, argc, argv, {jc::simple_variant}, /*width_sweep=*/true);
}
