// Chapter 12's CPU variants. Each is a function of the case's own copy of the operands; HostRoutine
// holds that copy (the CPU's "device memory") and times `calls` calls on the host's clock.
#include "variants.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/timing.hpp"

#if GPGPU_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace ch12 {
namespace {

using gpgpu::blas::Case;
using gpgpu::blas::Routine;
using Body = void (*)(Case& c, std::vector<float>& out, int threads);

//! [cpu_loops]
void loop_saxpy(Case& c, std::vector<float>&, int threads) {
  const float a = c.alpha, *x = c.x.data();
  float* y = c.y.data();
#pragma omp parallel for simd num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < c.n; ++i) y[i] = a * x[i] + y[i];
}

void loop_sscal(Case& c, std::vector<float>&, int threads) {
  const float a = c.alpha;
  float* x = c.x.data();
#pragma omp parallel for simd num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < c.n; ++i) x[i] = a * x[i];
}

// y = A x: a dot product per row, rows shared among the threads.
void loop_sgemv(Case& c, std::vector<float>& y, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < c.m; ++i) {
    const float* row = c.a.data() + i * c.n;
    float sum = 0;
#pragma omp simd reduction(+ : sum)
    for (std::int64_t j = 0; j < c.n; ++j) sum += row[j] * c.x[static_cast<std::size_t>(j)];
    y[static_cast<std::size_t>(i)] = sum;
  }
}

// y = Aᵀ x: a dot product per column would stride through A; instead each thread owns a block of
// y and adds x_i times row i of A to it, row after row, reading A along its rows.
void loop_sgemv_t(Case& c, std::vector<float>& y, int threads) {
  constexpr std::int64_t kBlock = 2048;  // 8 KiB of y per thread stays in L1
#pragma omp parallel for num_threads(threads) schedule(dynamic)
  for (std::int64_t j0 = 0; j0 < c.n; j0 += kBlock) {
    const std::int64_t j1 = std::min(j0 + kBlock, c.n);
    float* yb = y.data();
    std::fill(yb + j0, yb + j1, 0.0f);
    for (std::int64_t i = 0; i < c.m; ++i) {
      const float xi = c.x[static_cast<std::size_t>(i)], *row = c.a.data() + i * c.n;
#pragma omp simd
      for (std::int64_t j = j0; j < j1; ++j) yb[j] += xi * row[j];
    }
  }
}
//! [cpu_loops]

void openmp_conv2d(Case& c, std::vector<float>& out, int threads) {
  gpgpu::conv::convolve_openmp(c.a, c.b, out, c.image_shape(), threads);
}

#if GPGPU_HAVE_OPENBLAS
// Row-major, α = 1, β = 0: y (and C) are written without being read, so their poison cannot leak.
void openblas_saxpy(Case& c, std::vector<float>&, int) { cblas_saxpy(static_cast<blasint>(c.n), c.alpha, c.x.data(), 1, c.y.data(), 1); }
void openblas_sscal(Case& c, std::vector<float>&, int) { cblas_sscal(static_cast<blasint>(c.n), c.alpha, c.x.data(), 1); }
void openblas_gemv(Case& c, std::vector<float>& y, CBLAS_TRANSPOSE t) {
  const auto m = static_cast<blasint>(c.m), n = static_cast<blasint>(c.n);
  cblas_sgemv(CblasRowMajor, t, m, n, 1.0f, c.a.data(), n, c.x.data(), 1, 0.0f, y.data(), 1);
}
void openblas_sgemv(Case& c, std::vector<float>& y, int) { openblas_gemv(c, y, CblasNoTrans); }
void openblas_sgemv_t(Case& c, std::vector<float>& y, int) { openblas_gemv(c, y, CblasTrans); }
void openblas_sgemm(Case& c, std::vector<float>& out, int) {
  const auto m = static_cast<blasint>(c.m), n = static_cast<blasint>(c.n), k = static_cast<blasint>(c.k);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, c.a.data(), k, c.b.data(), n, 0.0f, out.data(), n);
}
#endif

class HostRoutine final : public gpgpu::blas::RoutineOperation {
 public:
  HostRoutine(Body body, bool library, int threads, std::string launch)
      : body_(body), library_(library), threads_(threads), launch_(std::move(launch)) {}
  void upload(const Case& c) override {
    case_ = c;
    const bool in_place = c.routine == Routine::saxpy || c.routine == Routine::sscal;
    out_.assign(in_place ? 0 : static_cast<std::size_t>(c.output_size()), std::nanf(""));
  }
  double run(int calls) override {
#if GPGPU_HAVE_OPENBLAS
    if (library_) openblas_set_num_threads(threads_);
#endif
    gpgpu::Stopwatch clock;
    for (int i = 0; i < calls; ++i) body_(case_, out_, threads_);
    return clock.seconds();
  }
  std::vector<float> download() override {
    if (case_.routine == Routine::saxpy) return case_.y;
    if (case_.routine == Routine::sscal) return case_.x;
    return out_;
  }
  [[nodiscard]] std::string launch() const override {
    return launch_ + ", " + std::to_string(threads_) + (threads_ == 1 ? " thread" : " threads");
  }

 private:
  Body body_;
  bool library_;
  int threads_;
  std::string launch_;
  Case case_;
  std::vector<float> out_;
};

gpgpu::blas::RoutineVariant cpu_variant(std::string name, Routine routine, Body body, bool library, std::string description,
                                        std::string launch, std::string source = "chapters/12_gpu_friendly/cpu_variants.cpp") {
  gpgpu::blas::RoutineVariant v;
  v.info = {.name = std::move(name), .backend = gpgpu::Backend::cpu, .description = std::move(description),
            .source = std::move(source), .timer = "steady_clock"};
  v.opener = gpgpu::cpu_opener;
  v.routine = routine;
  v.library = library;
  v.peak = gpgpu::blas::cpu_fma_peak;  // the roofline's flat roof: FP32 FMA chains on --threads threads
  v.make = [body, library, launch](const Case&, gpgpu::Session& cpu) {
    return std::make_unique<HostRoutine>(body, library, gpgpu::cpu_threads(cpu), launch);
  };
  return v;
}

}  // namespace

std::vector<gpgpu::blas::RoutineVariant> cpu_variants() {
  std::vector<gpgpu::blas::RoutineVariant> v;
  v.push_back(cpu_variant("cpu_saxpy", Routine::saxpy, loop_saxpy, false, "y = a x + y, OpenMP SIMD loop", "OpenMP loop"));
  v.push_back(cpu_variant("cpu_sscal", Routine::sscal, loop_sscal, false, "x = a x, OpenMP SIMD loop", "OpenMP loop"));
  v.push_back(cpu_variant("cpu_sgemv", Routine::sgemv, loop_sgemv, false, "y = A x, a dot product per row", "OpenMP rows"));
  v.push_back(cpu_variant("cpu_sgemv_t", Routine::sgemv_t, loop_sgemv_t, false, "y = Aᵀ x, rows of A added to blocks of y",
                          "OpenMP column blocks"));
  v.push_back(cpu_variant("cpu_conv2d", Routine::conv2d, openmp_conv2d, false, "zero-padded k x k convolution, OpenMP rows, SIMD taps",
                          "OpenMP rows", "problems/conv/src/conv2d.cpp"));
  v.back().info.paper_name = "CPU";
#if GPGPU_HAVE_OPENBLAS
  v.push_back(cpu_variant("openblas_saxpy", Routine::saxpy, openblas_saxpy, true, "OpenBLAS cblas_saxpy", "cblas_saxpy"));
  v.push_back(cpu_variant("openblas_sscal", Routine::sscal, openblas_sscal, true, "OpenBLAS cblas_sscal", "cblas_sscal"));
  v.push_back(cpu_variant("openblas_sgemv", Routine::sgemv, openblas_sgemv, true, "OpenBLAS cblas_sgemv, no transpose", "cblas_sgemv N"));
  v.push_back(cpu_variant("openblas_sgemv_t", Routine::sgemv_t, openblas_sgemv_t, true, "OpenBLAS cblas_sgemv, transposed", "cblas_sgemv T"));
  v.push_back(cpu_variant("openblas_sgemm", Routine::sgemm, openblas_sgemm, true, "OpenBLAS cblas_sgemm", "cblas_sgemm"));
  for (auto it = v.end() - 5; it != v.end(); ++it) it->info.paper_name = "CPU (Goto BLAS)";
#endif
  return v;
}

}  // namespace ch12
