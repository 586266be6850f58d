/// @file fp8_gemm.hpp
/// @brief Chapter 10c's FP8 product on the device: A and B quantised to E4M3 with one scale per
/// tensor, or per block (step 2), on the GPU (10c_quantise_inputs.cu), A as it is and B transposed (both K-major, as the FP8
/// tensor cores and cuBLASLt's FP8 matmul need them), in rows of a multiple of 16 bytes; C in FP32
/// or BF16, in rows of a multiple of 16 elements. Every buffer has its row count rounded up to 16
/// as well, the extra rows zeros: cuBLASLt's FP8 kernels take only dimensions of 16-byte multiples,
/// so its rows multiply the zero-padded product (ours reads and writes the m x n x k one). The quantisation runs once in upload(), timed by
/// CUDA events on its own and printed in the launch line, or inside every timed call (the row that
/// times it). Judged against the FP64 product of the dequantised inputs (gpgpu/blas/fp8.hpp).
#pragma once
#include <functional>
#include <string>

#include "blas/cuda/tensor_core_launchers.hpp"
#include "gpgpu/blas/operation.hpp"
#include "gpgpu/cuda/buffers.hpp"

namespace ch10c {

using Fp8 = gpgpu::blas::cuda::Fp8;

/// C's element type in an FP8 product.
enum class Fp8Out { fp32, bf16 };

/// How A and B are scaled: one scale per tensor (amax / 448), or one per 1 x 128 block of A and
/// 128 x 128 block of B (powers of two: gpgpu::blas::e4m3_block_scale), laid out as
/// launch_fp8_block reads them (tensor_core_launchers.hpp).
enum class Fp8Scaling { per_tensor, blocks };

/// What an FP8 call receives: the quantised A (m rows) and Bᵀ (n rows), each row `pitch` bytes with
/// k used, their scales (device floats: s with x ≈ s · e4m3; with block scales, the arrays
/// launch_fp8_block describes), and C (m rows of `ldc` elements of the row's output type, FP32 or BF16).
/// Past them, to m16 rows of A and C and ldc rows of Bᵀ (m and n rounded up to 16), zeros.
struct Fp8Operands {
  const Fp8* a;
  const Fp8* bt;
  const float* scale_a;
  const float* scale_b;
  long long pitch;
  void* c;
  long long ldc;
};

class Fp8Gemm final : public gpgpu::blas::GemmOperation {
 public:
  using Call = std::function<void(const Fp8Operands&)>;
  /// When A and B are quantised: once, in upload(), or inside every timed call.
  enum class Quantising { once, every_call };
  /// Work on the quantised operands once in upload(), before the timed calls (a library's choice
  /// among its algorithms), timed on its own; `what` names it in the launch line.
  struct Preparation {
    std::string what;
    Call run;
  };
  Fp8Gemm(gpgpu::blas::Dims dims, Fp8Out out, Call call, std::string launch, Quantising quantising = Quantising::once,
          Preparation prepare = {}, Fp8Scaling scaling = Fp8Scaling::per_tensor);

  void upload(const gpgpu::blas::Operands& in) override;
  double run(int calls) override;
  /// C as floats (BF16 widened exactly; a NaN, such as the poison, as every bit set).
  [[nodiscard]] gpgpu::blas::HostMatrix download() override;
  [[nodiscard]] std::string launch() const override;

  /// Rows of a multiple of 16 bytes (TMA's and cuBLASLt FP8's alignment): k rounded up to 16. The
  /// same rounding gives the padded row counts.
  static long long pitch_for(long long k) { return (k + 15) / 16 * 16; }
  /// A's scale at the scales' buffer's first float, B's kScaleStride floats on: cuBLASLt's FP8 call refuses a scale
  /// pointer that is not 16-byte aligned (CUBLAS_STATUS_NOT_SUPPORTED, measured on the H200 with
  /// cuBLASLt 13.1; the heuristic accepts it).
  static constexpr long long kScaleStride = 4;
  /// The k (and, of B, the columns) of one scale block.
  static constexpr long long kBlock = 128;

 private:
  void quantise();
  void quantise_blocks();
  [[nodiscard]] Fp8Operands operands();
  /// Where B's scales start in scales_ (16-byte aligned, as kScaleStride).
  [[nodiscard]] long long b_scales_offset() const;

  gpgpu::blas::Dims dims_;
  Fp8Out out_;
  Call call_;
  Preparation prepare_;
  std::string launch_;
  Quantising quantising_;
  Fp8Scaling scaling_;
  long long pitch_, ldc_, m16_;
  double quantising_s_ = -1, preparing_s_ = -1;  // the last upload's; < 0 before it
  gpgpu::cuda::DeviceBuffer<float> a_float_, b_float_, scales_;
  gpgpu::cuda::DeviceBuffer<Fp8> a_, bt_;
  gpgpu::cuda::DeviceBuffer<unsigned char> c_;  // m16_ rows of ldc_ elements of out_
  gpgpu::cuda::EventTimer timer_;
};

}  // namespace ch10c
