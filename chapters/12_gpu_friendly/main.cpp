// Chapter 12: what makes an algorithm GPU-friendly (paper 001, Igual, Mayo, Quintana-Ortí, secs.
// 3-5, Tables 1-3). SAXPY, SSCAL, SGEMV both ways, SGEMM and a 2D convolution on the CPU (our loops
// and OpenBLAS) and the GPU (our kernels, cuBLAS, NPP, and the paper's own fragment shaders), each
// verified against an FP64 reference within its error bound, placed on a roofline whose two
// ceilings are measured in the same run, with and without the copies over the bus. Each list below
// is in the file named beside it, with the host code that launches its kernels; the run
// (gpgpu::blas::RoutineChapter) takes the variants routine by routine.
#include "gpgpu/blas/routine_chapter.hpp"
#include "gpgpu/errors.hpp"
#include "variants.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"12", "ch12_gpu_friendly",
                               "What makes an algorithm GPU-friendly: BLAS 1-3 and a convolution on a measured roofline",
                               "paper 001 (Igual, Mayo, Quintana-Ortí), secs. 3-5, Tables 1-3"};

}  // namespace

//! [main]
int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::blas::RoutineChapter chapter(kInfo);
    chapter.add(ch12::cpu_variants());     // OpenMP loops, OpenBLAS: cpu_variants.cpp
    chapter.add(ch12::cuda_variants());    // kernels/blas/cuda/12_*.cu, kernels/conv/cuda/12_*.cu: cuda_variants.cpp
    chapter.add(ch12::cublas_variants());  // cuBLAS: cublas_variants.cpp
    chapter.add(ch12::npp_variants());     // NPP's 2D filter: npp_variants.cpp
    chapter.add(ch12::gl_variants());      // kernels/conv/gl/12_*.frag, the paper's shaders: gl_variants.cpp
    return chapter.run(argc, argv);
  });
}
//! [main]
