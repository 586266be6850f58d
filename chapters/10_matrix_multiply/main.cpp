// Chapter 10: matrix multiply from paper 003's 16 x 16 tile to the vendor library's speed, in CUDA
// and OpenCL, then past FP32 on tensor cores (paper 003, secs. 6.3 and 6.6, Obr. 8-10, Tabs. 4-7).
// The variants below run in this order; each list is in the file named beside it, with the host
// code that launches its kernels. The run (gpgpu::blas::GemmChapter) checks every variant against
// an FP64 reference within the error bound of a k-term dot product and judges it against the FMA
// peak measured in the same run and the vendor library; --sweep runs the paper's sizes 16 ... 4096
// (and 8192) instead.
#include "gpgpu/blas/chapter.hpp"
#include "gpgpu/errors.hpp"
#include "variants.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"10", "ch10_matrix_multiply",
                               "Matrix multiply in CUDA and OpenCL: from the paper's 16 x 16 tile to cuBLAS, then TF32",
                               "paper 003 (CUDA vs OpenCL), secs. 6.3 and 6.6, Obr. 8-10, Tabs. 4-7"};

}  // namespace

//! [main]
int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::blas::GemmChapter chapter(kInfo);
    chapter.add(ch10::cpu_variants());     // the paper's triple loop, OpenBLAS: cpu_variants.cpp
    chapter.add(ch10::cuda_variants());    // kernels/blas/cuda/10_*.cu, steps 1-10: cuda_variants.cpp
    chapter.add(ch10::cublas_variants());  // cuBLAS SGEMM, on TF32, DGEMM: cublas_variants.cpp
    chapter.add(ch10::opencl_variants());  // kernels/blas/opencl/10_*.cl, the ports: opencl_variants.cpp
    return chapter.run(argc, argv);
  });
}
//! [main]
