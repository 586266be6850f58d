// Chapter 10c: FP8 (E4M3) on Hopper's tensor cores, chapter 10b's clusters on one-byte inputs,
// with a scale per tensor and then per block. Each step is a kernel file of kernels/blas/cuda; the
// variants below run in this order, each list in the file named beside it. The run
// (gpgpu::blas::GemmChapter, as chapters 10 and 10b) checks every variant against the FP64 product
// of its dequantised inputs within the bound of its quantisation and its accumulator
// (problems/blas gemm.cpp, fp8.cpp), and judges it against cuBLASLt on the same inputs. CUDA only:
// without a GPU it says why and exits 77.
#include "gpgpu/blas/chapter.hpp"
#include "gpgpu/errors.hpp"
#include "variants.hpp"

namespace {

const gpgpu::ChapterInfo kInfo{"10c", "ch10c_fp8_tensor_cores",
                               "FP8 on Hopper's tensor cores: E4M3 with a scale per tensor and per block, against cuBLASLt",
                               "past paper 003: chapter 10b's BF16 kernel on one-byte inputs"};

}  // namespace

//! [main]
int main(int argc, char** argv) {
  return gpgpu::run_main(kInfo.program, [&] {
    gpgpu::blas::GemmChapter chapter(kInfo);
    chapter.add(ch10c::fp8_variants());      // 10c_01_fp8.cu, 10c_02_fp8_block_scaled.cu, sm_90a: cuda_variants.cpp
    chapter.add(ch10c::cublaslt_variants());  // cublasLtMatmul in BF16 and FP8, heuristic and workspace: cublaslt_variants.cpp
    return chapter.run(argc, argv);
  });
}
//! [main]
