// Chapter 10c's FP8 steps as variants: fp8_tensor* (step 1, kernels/blas/cuda/10c_01_fp8.cu: E4M3 A
// and B with a scale per tensor) and fp8_block* (step 2, 10c_02_fp8_block_scaled.cu: a scale per
// 1 x 128 block of A and 128 x 128 block of B, the sums promoted to FP32 every 128 of k), each with
// C in FP32 and in BF16. They take Fp8Gemm's operands (fp8_gemm.hpp: A and Bᵀ quantised to E4M3 on
// the GPU once with their scales, rows padded to 16 bytes), and their tensor maps are of bytes.
// Refused, with the reason, for k = 0 and on any GPU but compute capability 9.0 (sm_90a code).
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "blas/cuda/tensor_core_launchers.hpp"
#include "blas/cuda/tma_map.hpp"
#include "gpgpu/blas/cuda/device_gemm.hpp"
#include "gpgpu/blas/cuda/tensor_core_gemm.hpp"
#include "gpgpu/blas/cuda/tensor_maps.hpp"
#include "fp8_gemm.hpp"
#include "variants.hpp"

namespace ch10c {
namespace {

namespace bc = gpgpu::blas::cuda;
using bc::Bf16;
using bc::encode_tensor_map;
using bc::Input;
using bc::tma_step_variant;
using gpgpu::blas::Dims;

/// An FP8 step: step 1 (a scale per tensor) or step 2 (per block), by its scaling.
template <typename Out>
struct Fp8Step {
  void (*launch)(const bc::TmaArgs&, const bc::Fp8Epilogue<Out>&, cudaStream_t);
  bc::GemmShape (*shape)();
  int (*stages)();
  const char* file;  // in kernels/blas/cuda/
};
template <typename Out>
Fp8Step<Out> fp8_step(Fp8Scaling scaling) {
  if (scaling == Fp8Scaling::blocks)
    return {bc::launch_fp8_block, bc::fp8_block_shape, bc::fp8_block_stages, "10c_02_fp8_block_scaled.cu"};
  return {bc::launch_fp8_tensor, bc::fp8_tensor_shape, bc::fp8_tensor_stages, "10c_01_fp8.cu"};
}

//! [fp8_make]
/// Steps 1 and 2 on Fp8Gemm's operands: the preparation encodes the maps of the quantised A and Bᵀ
/// (bytes, rows of `pitch`; the map's k stays k, so TMA fills the padding and the tails with zeros,
/// which add nothing), and every call passes them with C, its pitch and the device scales.
template <typename Out>
std::unique_ptr<gpgpu::blas::GemmOperation> make_fp8(const Dims& d, Fp8Scaling scaling) {
  const Fp8Step<Out> step = fp8_step<Out>(scaling);
  auto maps = std::make_shared<bc::TmaArgs>();
  Fp8Gemm::Preparation encode{"tensor maps encoded", [maps, d](const Fp8Operands& o) {
                                const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
                                maps->a = encode_tensor_map(o.a, CU_TENSOR_MAP_DATA_TYPE_UINT8,
                                                            bc::tc::kmajor_sw128_map(m, k, 1, bc::tma_box_rows(), o.pitch));
                                maps->bt = encode_tensor_map(o.bt, CU_TENSOR_MAP_DATA_TYPE_UINT8,
                                                             bc::tc::kmajor_sw128_map(n, k, 1, bc::tma_box_rows(), o.pitch));
                                maps->c = nullptr;  // C is the epilogue's
                                maps->m = m;
                                maps->n = n;
                                maps->k = k;
                              }};
  auto call = [maps, launch = step.launch](const Fp8Operands& o) {
    launch(*maps, bc::Fp8Epilogue<Out>{static_cast<Out*>(o.c), static_cast<int>(o.ldc), o.scale_a, o.scale_b}, nullptr);
  };
  constexpr Fp8Out kOut = std::is_same_v<Out, float> ? Fp8Out::fp32 : Fp8Out::bf16;
  return std::make_unique<Fp8Gemm>(d, kOut, call,
                                   gpgpu::blas::cuda::launch_line(d, step.shape()) + ", TMA boxes 64 x 128 bytes, " +
                                       std::to_string(step.stages()) + " stages",
                                   Fp8Gemm::Quantising::once, std::move(encode), scaling);
}
//! [fp8_make]

template <typename Out>
gpgpu::blas::GemmVariant fp8_variant(const char* name, const char* description, Fp8Scaling scaling) {
  const Fp8Step<Out> step = fp8_step<Out>(scaling);
  gpgpu::blas::GemmVariant v =
      tma_step_variant(name, description, step.file, scaling == Fp8Scaling::blocks ? Input::fp8_blocks : Input::fp8, step.shape);
  v.bf16_c = std::is_same_v<Out, Bf16>;
  v.make = [scaling](const gpgpu::blas::GemmSize& s, gpgpu::Session&) { return make_fp8<Out>(s.dims, scaling); };
  return v;
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> fp8_variants() {
  std::vector<gpgpu::blas::GemmVariant> v;
  v.push_back(fp8_variant<float>("fp8_tensor", "the clusters on E4M3 inputs with a scale per tensor, m64n256k32, FP32 sums, FP32 C",
                                 Fp8Scaling::per_tensor));
  v.push_back(fp8_variant<Bf16>("fp8_tensor_bf16c", "the same with C rounded to BF16", Fp8Scaling::per_tensor));
  v.push_back(fp8_variant<float>("fp8_block",
                                 "E4M3 with a scale per 1 x 128 block of A and 128 x 128 of B, m64n128k32, sums promoted to FP32 "
                                 "every 128 of k, FP32 C",
                                 Fp8Scaling::blocks));
  v.push_back(fp8_variant<Bf16>("fp8_block_bf16c", "the same with C rounded to BF16", Fp8Scaling::blocks));
  return v;
}

}  // namespace ch10c
