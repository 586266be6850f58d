/// @file tensor_core_gemm.hpp
/// @brief The tensor-core chapters' host code (10b, and 10c's FP8), shared by their kernels and
/// their library peers: the BF16 product on the device (A and B rounded to bfloat16 once, C in FP32
/// or BF16), and the part of a variant every tensor-core row has (its input rounding, the float run
/// only, the compute capability it needs, TMA's sizes). The TF32 rows use DeviceGemm<float>
/// (device_gemm.hpp) where they need no preparation.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <cuda_bf16.h>

#include "blas/cuda/launchers.hpp"  // GemmShape
#include "gpgpu/blas/operation.hpp"
#include "gpgpu/cuda/buffers.hpp"

namespace gpgpu::blas::cuda {

using Bf16 = __nv_bfloat16;

/// How a variant's inputs reach the tensor cores: float rounded to TF32 inside the product,
/// rounded to bfloat16 once before it (Bf16DeviceGemm), or quantised to E4M3 once before it
/// (chapter 10c's Fp8Gemm) with a scale per tensor (fp8) or per block (fp8_blocks).
enum class Input { tf32, bf16, fp8, fp8_blocks };

/// A, B and C of one tensor-core product in device memory (In: float for TF32, Bf16 for BF16; C
/// in FP32, or, for step 13, Out: BF16, in rows of `ldc` elements, ldc >= n; 0: n). upload() puts A and B on the device: floats as they are, or, for Bf16, through one
/// float staging buffer rounded to bfloat16 on the GPU (kernels/blas/cuda/10b_round_inputs.cu), as cuBLAS's BF16 GEMM
/// receives them. Then the optional preparation runs on them once (a transposed copy of B for TMA),
/// timed by CUDA events on its own like the rounding: both are done once, outside run(), and
/// launch() says how long each took. run() enqueues the call `calls` times between two CUDA events.
template <typename In, typename Out = float>
class TensorCoreGemm final : public gpgpu::blas::GemmOperation {
 public:
  using Call = std::function<void(const In* a, const In* b, Out* c)>;
  /// Work on the uploaded A and B before the timed calls, and what the launch line calls it.
  struct Preparation {
    std::string what;
    std::function<void(const In* a, const In* b)> run;
  };
  /// When BF16 inputs are rounded: once, in upload() (every BF16 row), or inside every timed call
  /// (the row that times the conversion: float A and B stay on the device and each call rounds them
  /// before the product).
  enum class Rounding { once, every_call };
  TensorCoreGemm(gpgpu::blas::Dims dims, Call call, std::string launch, Preparation prepare = {},
                 Rounding rounding = Rounding::once, long long ldc = 0);

  void upload(const gpgpu::blas::Operands& in) override;
  double run(int calls) override;
  /// C as floats (m x n; BF16 widened exactly).
  [[nodiscard]] gpgpu::blas::HostMatrix download() override;
  [[nodiscard]] std::string launch() const override;

 private:
  gpgpu::blas::Dims dims_;
  Call call_;
  std::string launch_;
  Preparation prepare_;
  Rounding rounding_;
  double rounding_s_ = -1;   // the last upload's rounding of A and B (BF16); < 0 before it or for TF32
  double preparing_s_ = -1;  // the last upload's preparation; < 0 before it or without one
  gpgpu::cuda::DeviceBuffer<float> staging_;  // BF16: A, then B, as floats; TF32: empty
  gpgpu::cuda::DeviceBuffer<float> a_float_, b_float_;  // Rounding::every_call: the float inputs it rounds
  gpgpu::cuda::DeviceBuffer<In> a_, b_;
  long long ldc_;
  gpgpu::cuda::DeviceBuffer<Out> c_;  // m rows of ldc_
  gpgpu::cuda::EventTimer timer_;
};

/// C (m x n of `dims`) as floats from its device copy `rows`: m rows of `ldc` elements of
/// `element_bytes` bytes, FP32 (4) as they are or BF16 (2) widened exactly, a BF16 NaN (such as the
/// poison 0xFFFF) as a float whose every byte is 0xFF, as an FP32 C's poison reads: the tests check
/// that upload() poisons C byte by byte. The download of every row with C in FP32 or BF16 (this
/// file's TensorCoreGemm and chapter 10c's Fp8Gemm).
gpgpu::blas::HostMatrix dense_c(const unsigned char* rows, int element_bytes, gpgpu::blas::Dims dims, long long ldc);

extern template class TensorCoreGemm<float>;
extern template class TensorCoreGemm<Bf16>;
extern template class TensorCoreGemm<Bf16, Bf16>;
/// The BF16 rows' operation (the TF32 rows without a preparation use the problem's DeviceGemm<float>).
using Bf16DeviceGemm = TensorCoreGemm<Bf16>;

/// Bᵀ (n x k, row-major) from B (k x n, row-major) on the GPU, on the default stream: chapter 09's
/// padded-tile transpose, bfloat16 moved as its 16-bit patterns. The TMA steps read B this way
/// (K-major, as wgmma needs it for TF32), and so do the cuBLAS rows given the same copy.
template <typename In>
void transpose_on_gpu(const In* b, In* bt, int k, int n);

/// The GPUs a variant's instructions run on: compute capability cc_major or later (only_major: that
/// one alone, as sm_90a code), and what it says on any other.
struct Requires {
  int cc_major;
  bool only_major;
  std::string needs;
};

/// What a row cannot multiply, beyond the GPUs it runs on: why, or nullopt where it can.
using SizeLimit = std::function<std::optional<std::string>(const gpgpu::blas::Dims&)>;

/// The part of a tensor-core variant that every row of the chapter shares: the CUDA part of every GEMM
/// variant (gpgpu::blas::cuda::cuda_variant: opener, timer, FMA peak, device memory check), the
/// bound of its input rounding (TF32 or BF16, problems/blas gemm.cpp), and a limitation that refuses
/// the double run (the tensor cores' inputs here are floats), the GPUs `gpus` excludes and, on the
/// others, the sizes `fits` refuses. The caller adds make.
gpgpu::blas::GemmVariant tensor_core_variant(std::string name, std::string description, std::string source, Input input,
                                             Requires gpus, SizeLimit fits = {});

/// A library peer (cuBLAS, cuBLASLt): tensor_core_variant on compute capability 8.0 or later,
/// marked as a library, timed on the default stream where `library` enqueues its calls, made by
/// `make` for its input type and dimensions.
using LibraryMake = std::unique_ptr<gpgpu::blas::GemmOperation> (*)(Input, const gpgpu::blas::Dims&);
gpgpu::blas::GemmVariant library_variant(std::string name, std::string description, std::string source, Input input,
                                         const std::string& library, LibraryMake make);

/// What TMA and the grid refuse for a kernel of tile `shape`: a k that gives no 16-byte rows
/// (tc::tma_refusal), or more tile rows than a grid holds where a block takes one tile.
std::optional<std::string> tma_limitation(const gpgpu::blas::Dims& d, GemmShape shape);

/// A row of the TMA steps (chapter 10b's 4-11, chapter 10c's): the variant of a kernel in
/// kernels/blas/cuda/`file`, refused on any GPU but compute capability 9.0 (sm_90a code) and where
/// TMA or the grid cannot take the size (tma_limitation for the kernel's tile `shape`). The caller
/// sets make (and bf16_c).
gpgpu::blas::GemmVariant tma_step_variant(std::string name, std::string description, const std::string& file, Input input,
                                          GemmShape (*shape)());

}  // namespace gpgpu::blas::cuda
