// The BF16 peer of chapter 10b: the last kernel of pranjalssh/fast.cu (MIT licence), the best public
// from-scratch BF16 GEMM for Hopper we know of, timed beside cuBLAS BF16 with BF16 C in one process.
// Its source is not part of this repository: scripts/device/ch10b.sh builds this file against a copy
// of it (FASTCU_DIR, default .peers/fast.cu; the ignored folder a device call carries), and this
// program only includes its header and calls its host entry, runKernel12, as its own benchmark does.
//
// What the kernel computes, in its benchmark's convention (square sizes only: its tile schedule and
// tensor maps assume M = N = K, multiples of 256, and at most 128 tiles per cluster): A is M x K and
// B is N x K, both row-major (K-major), and C, BF16, is stored column-major, C[i + j·M] = Σ_k
// A[i][k]·B[j][k]. cuBLAS computes the same product through cublasGemmEx(T, N) with BF16 C and FP32
// sums.
//
// Verification, before any timing, of both outputs (the kernel's and cuBLAS's):
//   - every element against the other product: |x - y| <= 2^-8 (|x| + |y|) + 2 γ_K ‖a_i‖ ‖b_j‖, the
//     two outputs' BF16 rounding (u = 2^-8 each) and both FP32 sums' error (γ_K = K u / (1 - K u),
//     u = 2^-24, with Σ_k |a_ik b_jk| <= ‖a_i‖ ‖b_j‖ by Cauchy-Schwarz, so that the bound costs one
//     norm per row of A and of B);
//   - 4096 elements at random positions against an FP64 sum of the same BF16 inputs:
//     |x - c| <= 2^-8 |c| (1 + γ_K) + γ_K Σ_k |a_ik b_jk|.
// A FAIL prints the worst element and exits 1.
//
// Usage: fastcu_peer [--n N] [--repeat R] [--calls C] [--json FILE]
#include <cuda.h>
#include <cuda_bf16.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

// What fast.cu's header expects its includer to define (its benchmark defines the same three).
typedef __nv_bfloat16 bf16;
#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))
static void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, cudaGetErrorName(status), cudaGetErrorString(status));
  std::exit(1);
}
#define cudaCheck(call) check_cuda((call), #call, __FILE__, __LINE__)

#include "examples/matmul/matmul_12.cuh"

namespace {

void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, cublasGetStatusString(status));
  std::exit(1);
}
#define CUBLAS_CHECK(call) check_cublas((call), #call, __FILE__, __LINE__)

struct DeviceBuffer {  // one cudaMalloc, freed once
  void* p = nullptr;
  explicit DeviceBuffer(std::size_t bytes) { cudaCheck(cudaMalloc(&p, bytes)); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T> T* as() const { return static_cast<T*>(p); }
};

struct Events {
  cudaEvent_t start{}, stop{};
  Events() { cudaCheck(cudaEventCreate(&start)); cudaCheck(cudaEventCreate(&stop)); }
  ~Events() { cudaEventDestroy(start); cudaEventDestroy(stop); }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
};

struct Check {
  bool pass = true;
  double worst = 0;  // the largest error over its bound
  std::string where;
};

void judge(Check& c, double err, double bound, const std::string& where) {
  const double ratio = bound > 0 ? err / bound : (err > 0 ? INFINITY : 0);
  if (!(ratio <= c.worst)) { c.worst = ratio; c.where = where; }  // NaN counts as worst
  if (!(err <= bound)) c.pass = false;
}

int parse(const char* flag, const char* text, long lo, long hi) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) {
    std::fprintf(stderr, "%s must be an integer in [%ld, %ld], got '%s'\n", flag, lo, hi, text);
    std::exit(2);
  }
  return static_cast<int>(v);
}

}  // namespace

int main(int argc, char** argv) {
  int n = 8192, repeat = 5, calls = 8;
  std::string json;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", a.c_str()); return 2; }
    if (a == "--n") n = parse("--n", argv[++i], 256, 16384);
    else if (a == "--repeat") repeat = parse("--repeat", argv[++i], 1, 100);
    else if (a == "--calls") calls = parse("--calls", argv[++i], 1, 1000);
    else if (a == "--json") json = argv[++i];
    else { std::fprintf(stderr, "unknown option %s (--n --repeat --calls --json)\n", a.c_str()); return 2; }
  }
  // The kernel's limits (its tiles 128 x 256 in clusters of 2 along M, its 128 persistent blocks
  // and 128 schedule entries per cluster): refused here, not left to its asserts, which NDEBUG removes.
  if (n % 256 != 0 || (n / 256) * (n / 256) > 64 * 128) {
    std::fprintf(stderr, "--n must be a multiple of 256 and at most 16384 for fast.cu's kernel, got %d\n", n);
    return 2;
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) { std::fprintf(stderr, "no CUDA device\n"); return 77; }
  cudaDeviceProp prop{};
  cudaCheck(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 9) { std::fprintf(stderr, "fast.cu's kernel needs compute capability 9.0, this GPU is %d.%d\n", prop.major, prop.minor); return 77; }

  const std::size_t elems = static_cast<std::size_t>(n) * n;
  std::vector<bf16> a(elems), b(elems);
  std::vector<double> a_norm(n), b_norm(n);
  std::mt19937_64 rng(20261129);
  std::normal_distribution<float> normal(0.0f, 1.0f);  // both signs
  for (std::size_t i = 0; i < elems; ++i) a[i] = __float2bfloat16(normal(rng));
  for (std::size_t i = 0; i < elems; ++i) b[i] = __float2bfloat16(normal(rng));
  for (int r = 0; r < n; ++r) {
    double sa = 0, sb = 0;
    for (int k = 0; k < n; ++k) {
      const double x = __bfloat162float(a[static_cast<std::size_t>(r) * n + k]), y = __bfloat162float(b[static_cast<std::size_t>(r) * n + k]);
      sa += x * x;
      sb += y * y;
    }
    a_norm[r] = std::sqrt(sa);
    b_norm[r] = std::sqrt(sb);
  }
  DeviceBuffer da(elems * sizeof(bf16)), db(elems * sizeof(bf16)), dc(elems * sizeof(bf16)), dref(elems * sizeof(bf16));
  cudaCheck(cudaMemcpy(da.p, a.data(), elems * sizeof(bf16), cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(db.p, b.data(), elems * sizeof(bf16), cudaMemcpyHostToDevice));
  cudaCheck(cudaMemset(dc.p, 0xff, elems * sizeof(bf16)));  // poisoned: NaN in BF16
  cudaCheck(cudaMemset(dref.p, 0xff, elems * sizeof(bf16)));

  cublasHandle_t handle{};
  CUBLAS_CHECK(cublasCreate(&handle));
  const float one = 1, zero = 0;
  auto run_cublas = [&] {
    CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, da.p, CUDA_R_16BF, n, db.p, CUDA_R_16BF, n,
                              &zero, dref.p, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  };
  auto run_kernel = [&] {
    runKernel12(n, n, n, da.as<bf16>(), db.as<bf16>(), dc.as<bf16>(), nullptr);
    cudaCheck(cudaGetLastError());
  };
  run_cublas();
  run_kernel();
  cudaCheck(cudaDeviceSynchronize());
  std::vector<bf16> c(elems), ref(elems);
  cudaCheck(cudaMemcpy(c.data(), dc.p, elems * sizeof(bf16), cudaMemcpyDeviceToHost));
  cudaCheck(cudaMemcpy(ref.data(), dref.p, elems * sizeof(bf16), cudaMemcpyDeviceToHost));

  const double u = std::ldexp(1.0, -24), gamma = n * u / (1 - n * u), u_out = std::ldexp(1.0, -8);
  Check pair;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const std::size_t at = static_cast<std::size_t>(j) * n + i;
      const double x = __bfloat162float(c[at]), y = __bfloat162float(ref[at]);
      judge(pair, std::abs(x - y), u_out * (std::abs(x) + std::abs(y)) + 2 * gamma * a_norm[i] * b_norm[j],
            "C(" + std::to_string(i) + ", " + std::to_string(j) + ")");
    }
  Check kernel64, cublas64;
  std::uniform_int_distribution<int> pick(0, n - 1);
  for (int s = 0; s < 4096; ++s) {
    const int i = pick(rng), j = pick(rng);
    double sum = 0, abs_sum = 0;
    for (int k = 0; k < n; ++k) {
      const double p = static_cast<double>(__bfloat162float(a[static_cast<std::size_t>(i) * n + k])) *
                       __bfloat162float(b[static_cast<std::size_t>(j) * n + k]);
      sum += p;
      abs_sum += std::abs(p);
    }
    const std::size_t at = static_cast<std::size_t>(j) * n + i;
    const double bound = u_out * std::abs(sum) * (1 + gamma) + gamma * abs_sum;
    const std::string where = "C(" + std::to_string(i) + ", " + std::to_string(j) + ")";
    judge(kernel64, std::abs(__bfloat162float(c[at]) - sum), bound, where);
    judge(cublas64, std::abs(__bfloat162float(ref[at]) - sum), bound, where);
  }
  const bool pass = pair.pass && kernel64.pass && cublas64.pass;
  std::printf("fast.cu matmulKernel12 (%s) at %d^3 on %s\n", "examples/matmul/matmul_12.cuh", n, prop.name);
  std::printf("verification: kernel vs cuBLAS, every element: worst error/bound %.3g at %s: %s\n", pair.worst, pair.where.c_str(), pair.pass ? "PASS" : "FAIL");
  std::printf("verification: kernel vs FP64, 4096 elements: worst error/bound %.3g at %s: %s\n", kernel64.worst, kernel64.where.c_str(), kernel64.pass ? "PASS" : "FAIL");
  std::printf("verification: cuBLAS vs FP64, 4096 elements: worst error/bound %.3g at %s: %s\n", cublas64.worst, cublas64.where.c_str(), cublas64.pass ? "PASS" : "FAIL");
  if (!pass) return 1;

  // Timing: `repeat` runs of `calls` back-to-back calls each, CUDA events around each run; the
  // median run. The two alternate run by run, so that the clock under the power limit treats both alike.
  Events ev;
  const double flops = 2.0 * n * static_cast<double>(n) * n;
  std::vector<double> t_kernel, t_cublas;
  for (int r = 0; r < repeat; ++r)
    for (int which = 0; which < 2; ++which) {
      cudaCheck(cudaEventRecord(ev.start));
      for (int i = 0; i < calls; ++i) which == 0 ? run_kernel() : run_cublas();
      cudaCheck(cudaEventRecord(ev.stop));
      cudaCheck(cudaEventSynchronize(ev.stop));
      float ms = 0;
      cudaCheck(cudaEventElapsedTime(&ms, ev.start, ev.stop));
      (which == 0 ? t_kernel : t_cublas).push_back(ms / 1000.0 / calls);
    }
  auto median = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  const double tk = median(t_kernel), tc = median(t_cublas);
  std::printf("%-28s %12s %10s\n", "variant (BF16 in, BF16 C)", "ms per call", "TFLOP/s");
  std::printf("%-28s %12.4f %10.1f\n", "fastcu_kernel12", tk * 1e3, flops / tk / 1e12);
  std::printf("%-28s %12.4f %10.1f\n", "cublas_bf16_bf16c", tc * 1e3, flops / tc / 1e12);
  if (!json.empty()) {
    std::ofstream out(json);
    out << "{\"n\": " << n << ", \"device\": \"" << prop.name << "\", \"calls\": " << calls << ", \"repeat\": " << repeat
        << ", \"check\": \"PASS\", \"worst_error_over_bound\": {\"kernel_vs_cublas\": " << pair.worst
        << ", \"kernel_vs_fp64\": " << kernel64.worst << ", \"cublas_vs_fp64\": " << cublas64.worst << "}"
        << ", \"results\": [{\"variant\": \"fastcu_kernel12\", \"seconds_median\": " << tk << ", \"tflops\": " << flops / tk / 1e12
        << "}, {\"variant\": \"cublas_bf16_bf16c\", \"seconds_median\": " << tc << ", \"tflops\": " << flops / tc / 1e12 << "}]}\n";
    if (!out) { std::fprintf(stderr, "cannot write %s\n", json.c_str()); return 1; }
  }
  CUBLAS_CHECK(cublasDestroy(handle));
  return 0;
}
