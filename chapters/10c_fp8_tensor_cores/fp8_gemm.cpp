// Chapter 10c's FP8 product on the device (fp8_gemm.hpp).
#include "fp8_gemm.hpp"

#include <utility>
#include <vector>

#include <cuda_bf16.h>

#include "gpgpu/cuda/check.hpp"
#include "gpgpu/table.hpp"
#include "gpgpu/blas/cuda/tensor_core_gemm.hpp"

namespace ch10c {

using gpgpu::blas::cuda::dense_c;

namespace bc = gpgpu::blas::cuda;
using gpgpu::blas::Dims;

namespace {
std::size_t out_bytes(Fp8Out out) { return out == Fp8Out::fp32 ? sizeof(float) : sizeof(__nv_bfloat16); }
long long blocks_of(long long extent) { return (extent + Fp8Gemm::kBlock - 1) / Fp8Gemm::kBlock; }
}  // namespace

long long Fp8Gemm::b_scales_offset() const {
  if (scaling_ == Fp8Scaling::per_tensor) return kScaleStride;
  return (blocks_of(dims_.k) * dims_.m + kScaleStride - 1) / kScaleStride * kScaleStride;  // after A's
}

Fp8Gemm::Fp8Gemm(Dims dims, Fp8Out out, Call call, std::string launch, Quantising quantising, Preparation prepare, Fp8Scaling scaling)
    : dims_(dims), out_(out), call_(std::move(call)), prepare_(std::move(prepare)), launch_(std::move(launch)),
      quantising_(quantising), scaling_(scaling), pitch_(pitch_for(dims.k)), ldc_(pitch_for(dims.n)), m16_(pitch_for(dims.m)),
      a_float_(static_cast<std::size_t>(dims.m * dims.k)), b_float_(static_cast<std::size_t>(dims.k * dims.n)),
      scales_(static_cast<std::size_t>(b_scales_offset() +
                                       (scaling == Fp8Scaling::per_tensor ? kScaleStride : blocks_of(dims.k) * blocks_of(dims.n)))),
      a_(static_cast<std::size_t>(m16_ * pitch_)), bt_(static_cast<std::size_t>(ldc_ * pitch_)),
      c_(static_cast<std::size_t>(m16_ * ldc_) * out_bytes(out)) {
  // The padding rows stay zeros: the quantiser writes the first m (n) rows only.
  a_.fill_bytes(0);
  bt_.fill_bytes(0);
}

//! [fp8_quantise]
void Fp8Gemm::quantise() {
  if (scaling_ == Fp8Scaling::blocks) return quantise_blocks();
  float* scale_a = scales_.get();
  float* scale_b = scales_.get() + kScaleStride;
  bc::launch_e4m3_scale(a_float_.get(), static_cast<long long>(a_float_.size()), scale_a, nullptr);
  bc::launch_e4m3_scale(b_float_.get(), static_cast<long long>(b_float_.size()), scale_b, nullptr);
  bc::launch_quantise_e4m3({a_float_.get(), a_.get(), dims_.m, dims_.k, pitch_, false, scale_a}, nullptr);
  bc::launch_quantise_e4m3({b_float_.get(), bt_.get(), dims_.k, dims_.n, pitch_, true, scale_b}, nullptr);  // Bᵀ: K-major
}
//! [fp8_quantise]

// A's scales: ⌈k/128⌉ rows of m (the scale of A's block (i, kb) at kb · m + i), B's: ⌈k/128⌉ rows
// of ⌈n/128⌉ (block (kb, jb) at kb · ⌈n/128⌉ + jb), each found and then used by element (r, c) of
// the input as E4m3ScaleBlocks says.
//! [fp8_quantise_blocks]
void Fp8Gemm::quantise_blocks() {
  float* scale_a = scales_.get();
  float* scale_b = scales_.get() + b_scales_offset();
  const bc::E4m3ScaleBlocks a_blocks{1, kBlock, 1, dims_.m}, b_blocks{kBlock, kBlock, blocks_of(dims_.n), 1};
  bc::launch_e4m3_block_scales({a_float_.get(), dims_.m, dims_.k, a_blocks, scale_a}, nullptr);
  bc::launch_e4m3_block_scales({b_float_.get(), dims_.k, dims_.n, b_blocks, scale_b}, nullptr);
  bc::launch_quantise_e4m3({a_float_.get(), a_.get(), dims_.m, dims_.k, pitch_, false, scale_a, a_blocks}, nullptr);
  bc::launch_quantise_e4m3({b_float_.get(), bt_.get(), dims_.k, dims_.n, pitch_, true, scale_b, b_blocks}, nullptr);
}
//! [fp8_quantise_blocks]

Fp8Operands Fp8Gemm::operands() {
  return {a_.get(), bt_.get(), scales_.get(), scales_.get() + b_scales_offset(), pitch_, c_.get(), ldc_};
}

void Fp8Gemm::upload(const gpgpu::blas::Operands& in) {
  a_float_.upload(in.a.as<float>());
  b_float_.upload(in.b.as<float>());
  gpgpu::cuda::EventTimer once;
  if (quantising_ == Quantising::once) {
    once.start();
    quantise();
    once.stop();
    quantising_s_ = once.seconds();
  } else {
    quantise();  // the preparation needs quantised operands; every call quantises again
  }
  if (prepare_.run) {
    once.start();
    prepare_.run(operands());
    once.stop();
    preparing_s_ = once.seconds();
  }
  c_.fill_bytes(0xFF);                        // NaN in FP32 and in BF16 until the product writes it
  GPGPU_CUDA_CHECK(cudaDeviceSynchronize());  // the inputs, the preparation and the poison are in place
}

double Fp8Gemm::run(int calls) {
  timer_.start();
  for (int c = 0; c < calls; ++c) {
    if (quantising_ == Quantising::every_call) quantise();
    call_(operands());
  }
  timer_.stop();
  return timer_.seconds();
}

gpgpu::blas::HostMatrix Fp8Gemm::download() {
  const std::vector<unsigned char> bytes = c_.download(0, c_.size());
  return dense_c(bytes.data(), static_cast<int>(out_bytes(out_)), dims_, ldc_);
}

std::string Fp8Gemm::launch() const {
  std::string line = launch_ + (out_ == Fp8Out::bf16 ? ", BF16 C" : ", FP32 C");
  const std::string scales = scaling_ == Fp8Scaling::per_tensor ? "scale per tensor" : "power-of-two scale per 1 x 128 block of A, 128 x 128 of B";
  if (quantising_ == Quantising::every_call)
    line += "; A and B quantised from FP32 to E4M3 (" + scales + ", B transposed) on the GPU inside every timed call";
  if (quantising_s_ >= 0)
    line += "; A and B quantised to E4M3 (" + scales + ", B transposed) on the GPU before the timed calls in " +
            gpgpu::format_cell("%.3f", quantising_s_ * 1e3) + " ms";
  if (preparing_s_ >= 0) line += "; " + prepare_.what + " before the timed calls in " + gpgpu::format_cell("%.3f", preparing_s_ * 1e3) + " ms";
  return line;
}

}  // namespace ch10c
