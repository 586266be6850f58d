// Chapter 10b: Hopper's tensor cores, from chapter 10's WMMA step towards cuBLAS's speed, in TF32
// and BF16. Each step is a kernel file of kernels/blas/cuda; the variants below run in this order,
// each list in the file named beside it. The run (gpgpu::blas::GemmChapter, as chapter 10) checks
// every variant against an FP64 reference within the bound of its inputs' rounding and a k-term
// FP32 sum, (2u + u² + γ_k)|A||B| with u = 2^-11 for TF32 (rounded to nearest) and 2^-8 for BF16, and
// judges it against cuBLAS on the same inputs. CUDA only: without a GPU it says why and exits 77.
#include "gpgpu/blas/chapter.hpp"
#include "gpgpu/errors.hpp"
#include "variants.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"10b", "ch10b_tensor_cores",
                               "Hopper's tensor cores: from WMMA to wgmma, TMA, warp specialisation and clusters, TF32 and BF16, against cuBLAS",
                               "past paper 003 (sec. 6.6 ends at FP32 CUDA cores): chapter 10's TF32 step taken further"};

}  // namespace

//! [main]
int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::blas::GemmChapter chapter(kInfo);
    chapter.add(ch10b::kernel_variants());  // kernels/blas/cuda/10*_*.cu, step by step: cuda_variants.cpp
    chapter.add(ch10b::wgmma_variants());   // 10b_03_wgmma.cu, Hopper (sm_90a) only: cuda_variants.cpp
    chapter.add(ch10b::tma_variants());     // 10b_04_tma.cu ... 10b_11_tma_store.cu, steps 4-11, sm_90a: cuda_tma_variants.cpp
    chapter.add(ch10b::cublas_variants());  // cublasGemmEx in TF32 and BF16, on B and on Bᵀ: cublas_variants.cpp
    chapter.add(ch10b::cublaslt_variants());  // cublasLtMatmul, heuristic and workspace: cublaslt_variants.cpp
    chapter.add(ch10b::fastcu_variants());    // fast.cu's kernel, only where CMake was given its source: fastcu_variant.cpp
    return chapter.run(argc, argv);
  });
}
//! [main]
