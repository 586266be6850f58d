/// @file operation.hpp
/// @brief What a multiply variant is, on any backend: the host object that owns its device copies
/// of A, B and C and calls the product (GemmOperation), and the variant that builds it.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpgpu/blas/gemm.hpp"
#include "gpgpu/blas/peak.hpp"
#include "gpgpu/variant.hpp"

namespace gpgpu::blas {

/// What a multiply variant is built for and judged at: the sizes and the element type.
struct GemmSize {
  Dims dims;
  ElementType type = ElementType::f32;
};

/// C = A·B for one size and element type on one device: the buffers and the call (a kernel's
/// launch, a library's call) that computes it.
class GemmOperation {
 public:
  virtual ~GemmOperation() = default;
  /// Copies A and B to the device (synchronously) and fills C with the poison (every byte 0xFF:
  /// NaN in float and double), so an element the kernel fails to write cannot pass.
  virtual void upload(const Operands& in) = 0;
  /// `calls` products back to back; their time in seconds on the device's own clock.
  virtual double run(int calls) = 0;
  /// C back to the host (synchronously).
  [[nodiscard]] virtual HostMatrix download() = 0;
  /// Grid, block, tile, library call (may be empty).
  [[nodiscard]] virtual std::string launch() const { return {}; }
  /// The compiled configurations it can run (tile shapes, thread tiles, stages), named; it starts
  /// with the first. Empty for a kernel with one launch. --tune verifies and times each.
  [[nodiscard]] virtual std::vector<std::string> configurations() const { return {}; }
  /// Runs configuration `index` of configurations() from now on (std::out_of_range if none).
  virtual void configure(std::size_t index) {
    throw std::out_of_range("configuration " + std::to_string(index) + " of a kernel with one launch");
  }
};

/// A multiply variant: gpgpu::Variant (name, backend, make, limitation, ...) and what the
/// multiply chapter judges it by.
struct GemmVariant : gpgpu::Variant<GemmSize, GemmSize, GemmOperation> {
  bool tf32 = false;     ///< rounds its inputs to TF32 (tensor cores): judged by that bound
  bool bf16 = false;     ///< rounds its float inputs to bfloat16 once (tensor cores): judged by that bound
  bool fp8 = false;      ///< quantises its float inputs to E4M3 with a scale per tensor (fp8.hpp): judged by that bound
  bool bf16_c = false;   ///< with fp8 or bf16: writes C in bfloat16 (its rounding is in the bound)
  bool fp8_blocks = false;  ///< with fp8: a scale per block instead (fp8.hpp), partial sums promoted to FP32
  bool library = false;  ///< a vendor library (cuBLAS, OpenBLAS): what "% of library" divides by
  /// Multiplies on tensor cores without TF32 inputs: cuBLAS DGEMM, which on sm_80 and sm_90 runs on
  /// the FP64 tensor cores (DMMA) at twice the FP64 FMA rate. (TF32 variants use them by definition.)
  bool fp64_tensor_cores = false;
  /// The variant of another backend this one ports ("cuda_tile16" for "cl_tile16"), or "".
  std::string ports;
  /// How its backend's FMA peak is measured (the roof of "% FMA peak"), or nullptr: none.
  MeasurePeak peak = nullptr;

  [[nodiscard]] Arithmetic arithmetic(ElementType t) const {
    if (fp8 && fp8_blocks) return bf16_c ? Arithmetic::fp8_blocks_bf16_c : Arithmetic::fp8_blocks;
    if (fp8) return bf16_c ? Arithmetic::fp8_bf16_c : Arithmetic::fp8;
    if (bf16) return bf16_c ? Arithmetic::bf16_bf16_c : Arithmetic::bf16;
    return tf32 ? Arithmetic::tf32 : native_arithmetic(t);
  }
  /// Whether the tensor cores, not the FMA units, do its multiply-adds: then the FMA kernel's rate
  /// is no limit for it (an H100 does TF32, BF16 and FP64 MMA several times faster), and it shows no share.
  [[nodiscard]] bool tensor_cores(ElementType t) const {
    return tf32 || bf16 || fp8 || (fp64_tensor_cores && t == ElementType::f64);
  }
};

}  // namespace gpgpu::blas
