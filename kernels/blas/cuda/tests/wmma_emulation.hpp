/// @file wmma_emulation.hpp
/// @brief Just enough of CUDA's WMMA API (nvcuda::wmma, TF32 16 x 16 x 8) on the CPU to run
/// 10_08_tf32_wmma.cu unchanged on the fiber emulation of the thread model. A fragment, which on the
/// GPU is spread over the 32 lanes of a warp, is here a whole matrix held by every thread: each
/// thread loads, multiplies and stores all of it (the same values, so the redundant stores agree),
/// and __syncwarp() has nothing to wait for. The loads and stores check what the hardware demands:
/// a 256-bit aligned address and a leading dimension that is a multiple of 16 bytes.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace nvcuda::wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
namespace precision {
struct tf32 {};
}  // namespace precision
enum layout_t { mem_row_major, mem_col_major };

template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment {
  static constexpr int rows = std::is_same_v<Use, matrix_b> ? K : M;
  static constexpr int cols = std::is_same_v<Use, matrix_a> ? K : N;
  static constexpr int num_elements = rows * cols;
  float x[num_elements];
};

inline void check_address(const void* p, unsigned ldm, const char* what) {
  if (reinterpret_cast<std::uintptr_t>(p) % 32 != 0) throw std::logic_error(std::string(what) + ": pointer not 256-bit aligned");
  if (ldm % 4 != 0) throw std::logic_error(std::string(what) + ": ldm not a multiple of 4 floats");
}

template <class Use, int M, int N, int K, class T, class Layout>
void load_matrix_sync(fragment<Use, M, N, K, T, Layout>& f, const float* p, unsigned ldm) {
  check_address(p, ldm, "load_matrix_sync");
  using F = fragment<Use, M, N, K, T, Layout>;
  for (int r = 0; r < F::rows; ++r)
    for (int c = 0; c < F::cols; ++c) f.x[r * F::cols + c] = p[r * ldm + c];
}

template <int M, int N, int K>
void fill_fragment(fragment<accumulator, M, N, K, float>& f, float v) {
  for (float& e : f.x) e = v;
}

template <int M, int N, int K, class T, class LA, class LB>
void mma_sync(fragment<accumulator, M, N, K, float>& d, const fragment<matrix_a, M, N, K, T, LA>& a,
              const fragment<matrix_b, M, N, K, T, LB>& b, const fragment<accumulator, M, N, K, float>& c) {
  fragment<accumulator, M, N, K, float> out;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float sum = c.x[i * N + j];
      for (int p = 0; p < K; ++p) sum += a.x[i * K + p] * b.x[p * N + j];
      out.x[i * N + j] = sum;
    }
  d = out;
}

template <int M, int N, int K>
void store_matrix_sync(float* p, const fragment<accumulator, M, N, K, float>& f, unsigned ldm, layout_t layout) {
  check_address(p, ldm, "store_matrix_sync");
  if (layout != mem_row_major) throw std::logic_error("store_matrix_sync: only mem_row_major is emulated");
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) p[r * ldm + c] = f.x[r * N + c];
}

/// Rounds to TF32 (10 explicit mantissa bits), to nearest, ties away from zero, as cvt.rna.tf32.f32.
inline float __float_to_tf32(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  bits = (bits + 0x1000u) & ~0x1FFFu;
  std::memcpy(&v, &bits, 4);
  return v;
}

}  // namespace nvcuda::wmma

#define __syncwarp()
