// cuBLAS geam (C = alpha op(A) + beta op(B)) beside the chapter's kernels: the library a user would
// pick instead, as a transpose (alpha 1, op(A) = Aᵀ, beta 0) and as an add (alpha = beta = 1). It has
// geam for float and double (cublasSgeam, cublasDgeam) but not for int: with --type int these
// variants are skipped under "all" and refused when named. Built only when CMake finds CUDA::cublas.
//
// On chapter 09's row-major matrices: cuBLAS stores matrices column by column, and a row-major
// rows x cols matrix is the same bytes as a column-major cols x rows one with leading dimension
// cols. So the add is geam(N, N) on that cols x rows matrix, and the transpose, whose row-major
// result is cols x rows (column-major rows x cols, leading dimension rows), is geam(T, N,
// m = rows, n = cols, A with lda = cols). With beta = 0 the second operand is not read; it is
// passed as the result itself (geam's documented in-place form for B), the idiom for a transpose
// with geam.
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include <cublas_v2.h>

#include "gpgpu/cuda/cublas.hpp"

#include "cuda_variants.hpp"
#include "gpgpu/errors.hpp"

namespace ch09 {
namespace {

using gpgpu::matrix::ElementType;
using gpgpu::matrix::Op;
using gpgpu::matrix::Shape;

// The chapter's name for the shared checked call (the README quotes it).
#define CH09_CUBLAS_CHECK(call) GPGPU_CUBLAS(call)
using gpgpu::cuda::CublasHandle;

//! [cublas_geam]
template <typename T>
void geam(cublasHandle_t h, cublasOperation_t ta, int m, int n, const T* alpha, const T* a, int lda, const T* beta,
          const T* b, T* c, int ldc) {
  if constexpr (std::is_same_v<T, float>)
    CH09_CUBLAS_CHECK(cublasSgeam(h, ta, CUBLAS_OP_N, m, n, alpha, a, lda, beta, b, ldc, c, ldc));
  else
    CH09_CUBLAS_CHECK(cublasDgeam(h, ta, CUBLAS_OP_N, m, n, alpha, a, lda, beta, b, ldc, c, ldc));
}

template <typename T>
typename DeviceMatrices<T>::Call geam_call(Op op, const Shape& s, std::shared_ptr<CublasHandle> handle) {
  const int rows = static_cast<int>(s.rows), cols = static_cast<int>(s.cols);
  if (op == Op::add)  // column-major cols x rows: C = 1 A + 1 B
    return [=](const T* a, const T* b, T* out) {
      const T one = 1;
      geam<T>(handle->get(), CUBLAS_OP_N, cols, rows, &one, a, cols, &one, b, out, cols);
    };
  return [=](const T* a, const T*, T* out) {  // column-major rows x cols: out = 1 Aᵀ + 0 out
    const T one = 1, zero = 0;
    geam<T>(handle->get(), CUBLAS_OP_T, rows, cols, &one, a, cols, &zero, out, out, rows);
  };
}
//! [cublas_geam]

gpgpu::matrix::Variant geam_variant(std::string name, Op op, std::string description) {
  gpgpu::matrix::Variant v =
      cuda_variant(std::move(name), op, std::move(description), "chapters/09_matrix_add_transpose/cublas_variants.cpp");
  v.info.timer = "CUDA events (cuBLAS on the default stream)";
  v.make = [op](const gpgpu::matrix::Inputs& in, gpgpu::Session&) -> std::unique_ptr<gpgpu::matrix::Operation> {
    const Shape& shape = in.a.shape();
    auto handle = std::make_shared<CublasHandle>();
    const std::string launch = std::string(op == Op::add ? "geam(N, N)" : "geam(T, N)") + ", column-major view";
    if (in.a.type() == ElementType::f64)
      return std::make_unique<DeviceMatrices<double>>(op, shape, geam_call<double>(op, shape, handle), "cublasD" + launch);
    return std::make_unique<DeviceMatrices<float>>(op, shape, geam_call<float>(op, shape, handle), "cublasS" + launch);
  };
  v.limitation = [](const gpgpu::matrix::Size& size, gpgpu::Session&) -> std::optional<std::string> {
    if (size.type == ElementType::i32) return "cuBLAS has geam for float and double only (no int)";
    return std::nullopt;
  };
  return v;
}

}  // namespace

std::vector<gpgpu::matrix::Variant> cublas_variants() {
  return {geam_variant("cuda_geam_add", Op::add, "cuBLAS geam, C = 1 A + 1 B: the library's add"),
          geam_variant("cuda_geam_transpose", Op::transpose, "cuBLAS geam, C = 1 Aᵀ + 0: the library's transpose")};
}

}  // namespace ch09
