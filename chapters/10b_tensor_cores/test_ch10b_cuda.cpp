// Chapter 10b's variants on the GPU (label cuda; skipped without one): every kernel, cuBLAS and
// cuBLASLt peer through the tensor-core rows' checks (gpgpu/blas/tensor_core_tests.hpp): within its
// inputs' bound (TF32 or BF16) of the FP64 reference at awkward, aligned, large and sanitizer sizes,
// C poisoned before every run; several rounds of tiles; TF32's input error; a C written in BF16
// (step 11) rounded to nearest even; the double run refused.
// compute-sanitizer runs this binary with --gtest_filter=*AtSanitizerSizes*.
#include <algorithm>
#include <iterator>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/blas/tensor_core_tests.hpp"
#include "variants.hpp"

namespace {

std::vector<gpgpu::blas::GemmVariant> kernels_then_libraries() {
  std::vector<gpgpu::blas::GemmVariant> v = ch10b::kernel_variants();
#if GPGPU_HAVE_WGMMA
  std::ranges::move(ch10b::wgmma_variants(), std::back_inserter(v));
  std::ranges::move(ch10b::tma_variants(), std::back_inserter(v));
#endif
#if GPGPU_HAVE_CUBLAS
  std::ranges::move(ch10b::cublas_variants(), std::back_inserter(v));
#endif
#if GPGPU_HAVE_CUBLASLT
  std::ranges::move(ch10b::cublaslt_variants(), std::back_inserter(v));
#endif
  std::ranges::move(ch10b::fastcu_variants(), std::back_inserter(v));  // empty unless built
  return v;
}

}  // namespace

namespace gpgpu::blas::tensor_core_tests {
INSTANTIATE_TEST_SUITE_P(Ch10b, TensorCoreVariant, ::testing::ValuesIn(kernels_then_libraries()),
                         [](const auto& info) { return info.param.info.name; });
}  // namespace gpgpu::blas::tensor_core_tests
