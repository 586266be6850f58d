// Chapter 03: CUDA weighted Jacobi, simple: the CPU layout on the GPU.
// New in this chapter: kernels/jacobi/cuda/03_simple.cu (the paper's first CUDA kernel: one thread
// per unknown, nine diagonal arrays and the nx+1 ghost elements of chapter 01, a 1D grid of 64-thread
// blocks) and its host code, linear_solver.cpp (cudaMalloc, upload, the ping-pong launch loop timed
// by CUDA events, download). The run (gpgpu::jacobi::Chapter) verifies the kernel against the CPU
// double-precision reference and judges it against the GPU's bandwidth for the same read:write mix,
// measured now; --sweep runs the paper's width sweep instead.
#include "cuda_chapter.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/jacobi/chapter.hpp"
#include "simple_variant.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"03", "ch03_cuda_simple", "CUDA weighted Jacobi, simple: the CPU layout on the GPU",
                               "paper 000, section 6.1 (Figs. 10-12), Tables 1 and 3"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    ch03::CudaOptions options;
    gpgpu::jacobi::Chapter chapter(kInfo, ch03::chapter_settings(options, /*width_sweep=*/true));
    ch03::add_options(chapter.cli(), options);
    chapter.add(ch03::simple_variant(options.launch));
    return chapter.run(argc, argv);
  });
}
