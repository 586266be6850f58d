// Chapter 10's CPU variants. The naive loop is the paper's: for each element of C, a dot product of
// a row of A and a column of B, summed in the element type. The column of B is read with a stride
// of n elements, a new cache line per term, which is what makes it slow long before the arithmetic
// does. OpenBLAS packs blocks of A and B into the cache and runs a hand-written micro-kernel on them:
// the same ideas the GPU kernels of this chapter rediscover step by step.
#include "variants.hpp"

#include <memory>
#include <optional>
#include <string>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/timing.hpp"

#if GPGPU_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace ch10 {
namespace {

using gpgpu::blas::Dims;
using gpgpu::blas::ElementType;
using gpgpu::blas::HostMatrix;

//! [cpu_naive]
template <typename T>
void gemm_naive(const T* a, const T* b, T* c, std::int64_t m, std::int64_t n, std::int64_t k) {
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      T sum = 0;
      for (std::int64_t p = 0; p < k; ++p) sum += a[i * k + p] * b[p * n + j];
      c[i * n + j] = sum;
    }
}
//! [cpu_naive]

#if GPGPU_HAVE_OPENBLAS
// Row-major C = A·B is what CblasRowMajor says; beta = 0 means C's old contents (the poison) are
// never read.
void gemm_openblas(const float* a, const float* b, float* c, blasint m, blasint n, blasint k) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}
void gemm_openblas(const double* a, const double* b, double* c, blasint m, blasint n, blasint k) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, k, b, n, 0.0, c, n);
}
#endif

// The operands as the variant's own copies (its "device" memory), C poisoned by upload().
class HostGemm final : public gpgpu::blas::GemmOperation {
 public:
  HostGemm(bool library, Dims dims, ElementType type, int threads)
      : library_(library), dims_(dims), type_(type), threads_(threads) {}
  void upload(const gpgpu::blas::Operands& in) override {
    a_ = in.a;
    b_ = in.b;
    c_ = gpgpu::matrix::poisoned(dims_.c(), type_);
  }
  double run(int calls) override {
#if GPGPU_HAVE_OPENBLAS
    if (library_) openblas_set_num_threads(threads_);
#endif
    gpgpu::Stopwatch clock;
    for (int i = 0; i < calls; ++i)
      gpgpu::matrix::dispatch(type_, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_floating_point_v<T>) {
          const T* a = a_.as<T>().data();
          const T* b = b_.as<T>().data();
          T* c = c_.as<T>().data();
#if GPGPU_HAVE_OPENBLAS
          if (library_) {
            gemm_openblas(a, b, c, static_cast<blasint>(dims_.m), static_cast<blasint>(dims_.n), static_cast<blasint>(dims_.k));
            return;
          }
#endif
          gemm_naive(a, b, c, dims_.m, dims_.n, dims_.k);
        }
      });
    return clock.seconds();
  }
  HostMatrix download() override { return c_; }
  [[nodiscard]] std::string launch() const override {
    return (library_ ? std::string("cblas_") + (type_ == ElementType::f64 ? "dgemm" : "sgemm") + ", " : std::string("i-j-p loop, ")) +
           std::to_string(threads_) + (threads_ == 1 ? " thread" : " threads");
  }

 private:
  bool library_;
  Dims dims_;
  ElementType type_;
  int threads_;
  HostMatrix a_, b_, c_;
};

gpgpu::blas::GemmVariant cpu_variant(std::string name, bool library, std::string description, std::string paper_name) {
  gpgpu::blas::GemmVariant v;
  v.info = {.name = std::move(name), .backend = gpgpu::Backend::cpu, .description = std::move(description),
            .source = "chapters/10_matrix_multiply/cpu_variants.cpp", .paper_name = std::move(paper_name),
            .timer = "steady_clock", .threads = library ? 0 : 1};
  v.opener = gpgpu::cpu_opener;
  v.library = library;
  v.make = [library](const gpgpu::blas::GemmSize& s, gpgpu::Session& cpu) {
    return std::make_unique<HostGemm>(library, s.dims, s.type, library ? gpgpu::cpu_threads(cpu) : 1);
  };
  return v;
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> cpu_variants() {
  std::vector<gpgpu::blas::GemmVariant> v;
  v.push_back(cpu_variant("cpu_naive", false, "textbook triple loop, one thread (the paper's CPU row)", "CPU"));
  v.back().limitation = [](const gpgpu::blas::GemmSize& s, gpgpu::Session&) -> std::optional<std::string> {
    const Dims& d = s.dims;
    if (static_cast<double>(d.m) * static_cast<double>(d.n) * static_cast<double>(d.k) <= static_cast<double>(kNaiveMaxMnk))
      return std::nullopt;
    return "m n k above 2^28: the cache-missing loop on one thread would take minutes";
  };
#if GPGPU_HAVE_OPENBLAS
  v.push_back(cpu_variant("cpu_openblas", true, "OpenBLAS sgemm/dgemm, every core", ""));
#endif
  return v;
}

}  // namespace ch10
