// Chapter 12: what makes an algorithm GPU-friendly (paper 001, Igual, Mayo, Quintana-Ortí, secs.
// 3-5, Tables 1-3). SAXPY, SSCAL, SGEMV both ways, SGEMM and a 2D convolution on the CPU (our loops
// and OpenBLAS) and the GPU (our kernels and cuBLAS), each verified against an FP64 reference within
// its error bound, placed on a roofline whose two ceilings are measured in the same run, with and
// without the copies over the bus. The CPU variants are added here; the CUDA, cuBLAS and OpenGL
// variants (the paper's own fragment-shader convolution) register themselves from files CMake
// compiles when those are built (register_*.cpp).
#include "cpu_variants.hpp"
#include "gpgpu/blas/routine_chapter.hpp"
#include "gpgpu/errors.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"12", "ch12_gpu_friendly",
                               "What makes an algorithm GPU-friendly: BLAS 1-3 and a convolution on a measured roofline",
                               "paper 001 (Igual, Mayo, Quintana-Ortí), secs. 3-5, Tables 1-3"};

}  // namespace

int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::blas::RoutineChapter chapter(kInfo);
    for (gpgpu::blas::RoutineVariant& v : ch12::cpu_variants()) chapter.add(std::move(v));
    return chapter.run(argc, argv);
  });
}
