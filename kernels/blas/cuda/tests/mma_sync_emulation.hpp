/// @file mma_sync_emulation.hpp
/// @brief mma_sync.hpp's warp instructions on the CPU emulation of the thread model (fibers that
/// meet at __syncthreads(), matrix_emulation.hpp), so that 10b_02_mma_sync.cu runs unchanged in a test.
/// Written from the PTX ISA's descriptions, not from tensor_core_layout.hpp (whose functions the
/// kernel uses): a kernel that put an element in the wrong lane or register fails here.
///
/// A warp instruction needs the other lanes' operands. As level12_emulation.hpp's shuffle, each
/// thread writes its operands to a slot, the block meets at a barrier, each thread reads its warp's
/// slots and computes its own result, and the block meets again before the slots are reused. So it
/// is only right where the whole block executes the same warp instructions together, which the
/// kernel does (every warp runs the same loop); divergent use fails with the fibers' barrier error.
///
/// - ldmatrix .x4: lane 8j + r gives the address of row r of matrix j (16 bytes, 16-byte aligned,
///   else std::logic_error); lane l's register j is the 32-bit word 4 (l % 4) bytes into row l / 4
///   of matrix j, or with .trans the 16-bit elements of column l / 4 in rows 2 (l % 4) and
///   2 (l % 4) + 1, the first in the lower half.
/// - mma m16n8k8.tf32 / m16n8k16.bf16: the fragments of the PTX ISA's tables gathered into A and B;
///   each lane adds to its four accumulators their dot products, in FP32 (the products of TF32 or
///   BF16 inputs are exact in FP32; the hardware's order of the sums is unspecified). A TF32
///   operand with any of its low 13 bits set throws: the kernel forgot to round it.
/// - cvt.rna.tf32.f32: round to nearest, ties away from zero, the low 13 bits cleared.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "matrix/cuda/tests/matrix_emulation.hpp"

inline float __uint_as_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

namespace gpgpu::blas::cuda {
namespace mma_emulation {

/// The slots of a block's threads: each writes its own, reads its warp's after the barrier.
template <typename T>
std::vector<T>& slots() {
  static std::vector<T> s;
  const unsigned threads = ::emu::block_dim.x * ::emu::block_dim.y * ::emu::block_dim.z;
  if (s.size() < threads) s.resize(threads);
  return s;
}
inline unsigned thread_rank() { return threadIdx.x + ::emu::block_dim.x * (threadIdx.y + ::emu::block_dim.y * threadIdx.z); }

inline void ldmatrix(std::uint32_t (&r)[4], const void* row, bool trans) {
  if (reinterpret_cast<std::uintptr_t>(row) % 16 != 0) throw std::logic_error("ldmatrix: row address not 16-byte aligned");
  auto& rows = slots<const unsigned char*>();
  const unsigned t = thread_rank(), warp0 = t / 32 * 32, l = t % 32;
  rows[t] = static_cast<const unsigned char*>(row);
  ::emu::fibers::sync();
  for (unsigned j = 0; j < 4; ++j) {
    if (!trans) {
      std::memcpy(&r[j], rows[warp0 + 8 * j + l / 4] + 4 * (l % 4), 4);
    } else {
      std::uint16_t lo, hi;
      std::memcpy(&lo, rows[warp0 + 8 * j + 2 * (l % 4)] + 2 * (l / 4), 2);
      std::memcpy(&hi, rows[warp0 + 8 * j + 2 * (l % 4) + 1] + 2 * (l / 4), 2);
      r[j] = lo | std::uint32_t{hi} << 16;
    }
  }
  ::emu::fibers::sync();
}

struct Operands {
  std::uint32_t a[4];
  std::uint32_t b[2];
};

inline float bf16_value(std::uint16_t bits) { return __uint_as_float(std::uint32_t{bits} << 16); }

inline float tf32_value(std::uint32_t bits) {
  if ((bits & 0x1FFFu) != 0) throw std::logic_error("mma .tf32: operand not rounded to TF32 (low 13 bits set)");
  return __uint_as_float(bits);
}

/// d += A·B for the warp: A 16 x K and B K x 8 gathered from the lanes by `gather`, which writes
/// lane l's registers into the full matrices.
template <int K, typename Gather>
void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2], Gather gather) {
  auto& ops = slots<Operands>();
  const unsigned t = thread_rank(), warp0 = t / 32 * 32, l = t % 32;
  std::memcpy(ops[t].a, a, sizeof a);
  std::memcpy(ops[t].b, b, sizeof b);
  ::emu::fibers::sync();
  float am[16][K], bm[K][8];
  for (unsigned lane = 0; lane < 32; ++lane) gather(ops[warp0 + lane], lane / 4, lane % 4, am, bm);
  const unsigned g = l / 4, tg = l % 4;
  for (int i = 0; i < 4; ++i) {  // c_i: row g (i < 2) or g + 8, column 2 tg + i % 2
    const unsigned row = g + 8 * (i / 2), col = 2 * tg + i % 2;
    float sum = d[i];
    for (int p = 0; p < K; ++p) sum += am[row][p] * bm[p][col];
    d[i] = sum;
  }
  ::emu::fibers::sync();
}

}  // namespace mma_emulation

inline void ldmatrix_x4(std::uint32_t (&r)[4], const void* row) { mma_emulation::ldmatrix(r, row, false); }
inline void ldmatrix_x4_trans(std::uint32_t (&r)[4], const void* row) { mma_emulation::ldmatrix(r, row, true); }

inline std::uint32_t to_tf32(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  return (bits + 0x1000u) & ~0x1FFFu;
}

/// m16n8k8.tf32: a0 (g, t), a1 (g + 8, t), a2 (g, t + 4), a3 (g + 8, t + 4); b0 (t, g), b1 (t + 4, g).
inline void mma_m16n8k8_tf32(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  mma_emulation::mma<8>(d, a, b, [](const mma_emulation::Operands& o, unsigned g, unsigned t, float (&am)[16][8], float (&bm)[8][8]) {
    using mma_emulation::tf32_value;
    am[g][t] = tf32_value(o.a[0]);
    am[g + 8][t] = tf32_value(o.a[1]);
    am[g][t + 4] = tf32_value(o.a[2]);
    am[g + 8][t + 4] = tf32_value(o.a[3]);
    bm[t][g] = tf32_value(o.b[0]);
    bm[t + 4][g] = tf32_value(o.b[1]);
  });
}

/// m16n8k16.bf16, two elements per register (the first in the lower half): a0, a1 (g, 2t + i),
/// a2, a3 (g + 8, 2t + i), a4, a5 (g, 2t + 8 + i), a6, a7 (g + 8, 2t + 8 + i); b0, b1 (2t + i, g),
/// b2, b3 (2t + 8 + i, g).
inline void mma_m16n8k16_bf16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  mma_emulation::mma<16>(d, a, b, [](const mma_emulation::Operands& o, unsigned g, unsigned t, float (&am)[16][16], float (&bm)[16][8]) {
    using mma_emulation::bf16_value;
    for (unsigned i = 0; i < 2; ++i) {
      const unsigned shift = 16 * i;
      am[g][2 * t + i] = bf16_value(static_cast<std::uint16_t>(o.a[0] >> shift));
      am[g + 8][2 * t + i] = bf16_value(static_cast<std::uint16_t>(o.a[1] >> shift));
      am[g][2 * t + 8 + i] = bf16_value(static_cast<std::uint16_t>(o.a[2] >> shift));
      am[g + 8][2 * t + 8 + i] = bf16_value(static_cast<std::uint16_t>(o.a[3] >> shift));
      bm[2 * t + i][g] = bf16_value(static_cast<std::uint16_t>(o.b[0] >> shift));
      bm[2 * t + 8 + i][g] = bf16_value(static_cast<std::uint16_t>(o.b[1] >> shift));
    }
  });
}

}  // namespace gpgpu::blas::cuda
