// The tensor-core chapters' BF16 product on the device and the part every tensor-core variant
// shares (tensor_core_gemm.hpp).
#include "gpgpu/blas/cuda/tensor_core_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "blas/cuda/gemm_args.hpp"
#include "blas/cuda/tensor_core_launchers.hpp"
#include "blas/cuda/tma_map.hpp"
#include "gpgpu/blas/cuda/device_gemm.hpp"
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/opener.hpp"
#include "gpgpu/table.hpp"
#include "matrix/cuda/launchers.hpp"  // chapter 09's transpose

namespace gpgpu::blas::cuda {

using gpgpu::blas::Dims;
using gpgpu::blas::ElementType;
using gpgpu::blas::HostMatrix;

HostMatrix dense_c(const unsigned char* rows, int element_bytes, Dims dims, long long ldc) {
  if (element_bytes != 4 && element_bytes != 2) throw std::logic_error("dense_c: C is FP32 or BF16");
  std::vector<float> c(static_cast<std::size_t>(dims.m * dims.n));
  for (long long i = 0; i < dims.m; ++i)
    for (long long j = 0; j < dims.n; ++j) {
      const unsigned char* at = rows + static_cast<std::size_t>((i * ldc + j) * element_bytes);
      float x;
      if (element_bytes == 4) {
        std::memcpy(&x, at, sizeof x);
      } else {
        Bf16 h;
        std::memcpy(&h, at, sizeof h);
        x = __bfloat162float(h);  // exact
        if (std::isnan(x)) {
          const std::uint32_t all = 0xFFFFFFFFu;
          std::memcpy(&x, &all, sizeof x);
        }
      }
      c[static_cast<std::size_t>(i * dims.n + j)] = x;
    }
  return HostMatrix(dims.c(), std::move(c));
}

template <typename In, typename Out>
TensorCoreGemm<In, Out>::TensorCoreGemm(Dims dims, Call call, std::string launch, Preparation prepare, Rounding rounding, long long ldc)
    : dims_(dims), call_(std::move(call)), launch_(std::move(launch)), prepare_(std::move(prepare)), rounding_(rounding),
      staging_(std::is_same_v<In, Bf16> && rounding == Rounding::once
                   ? static_cast<std::size_t>(std::max(dims.m * dims.k, dims.k * dims.n))
                   : 0),
      a_float_(rounding == Rounding::every_call ? static_cast<std::size_t>(dims.m * dims.k) : 0),
      b_float_(rounding == Rounding::every_call ? static_cast<std::size_t>(dims.k * dims.n) : 0),
      a_(static_cast<std::size_t>(dims.m * dims.k)), b_(static_cast<std::size_t>(dims.k * dims.n)),
      ldc_(ldc == 0 ? dims.n : ldc), c_(static_cast<std::size_t>(dims.m * ldc_)) {
  if (ldc_ < dims.n) throw std::logic_error("TensorCoreGemm: C's rows must hold n elements");
  if (rounding == Rounding::every_call && !std::is_same_v<In, Bf16>)
    throw std::logic_error("TensorCoreGemm: rounding in every call is for BF16 inputs");
  if (rounding == Rounding::every_call && prepare_.run)
    throw std::logic_error("TensorCoreGemm: a preparation runs on rounded inputs, which every-call rounding does not have before the calls");
}

//! [bf16_upload]
template <typename In, typename Out>
void TensorCoreGemm<In, Out>::upload(const gpgpu::blas::Operands& in) {
  gpgpu::cuda::EventTimer once;
  if (rounding_ == Rounding::every_call) {  // run() rounds them
    a_float_.upload(in.a.as<float>());
    b_float_.upload(in.b.as<float>());
  } else if constexpr (std::is_same_v<In, Bf16>) {
    double seconds = 0;
    for (auto [host, device] : {std::pair{in.a.as<float>(), &a_}, std::pair{in.b.as<float>(), &b_}}) {
      staging_.upload(host);
      once.start();
      launch_round_to_bf16(staging_.get(), device->get(), static_cast<long long>(host.size()), nullptr);
      once.stop();
      seconds += once.seconds();
    }
    rounding_s_ = seconds;
  } else {
    a_.upload(in.a.as<float>());
    b_.upload(in.b.as<float>());
  }
  if (prepare_.run) {
    once.start();
    prepare_.run(a_.get(), b_.get());
    once.stop();
    preparing_s_ = once.seconds();
  }
  c_.fill_bytes(0xFF);                        // NaN in every element until the product writes it
  GPGPU_CUDA_CHECK(cudaDeviceSynchronize());  // the inputs, their preparation and the poison are in place
}
//! [bf16_upload]

template <typename In, typename Out>
double TensorCoreGemm<In, Out>::run(int calls) {
  timer_.start();
  for (int c = 0; c < calls; ++c) {
    if constexpr (std::is_same_v<In, Bf16>) {
      if (rounding_ == Rounding::every_call) {
        launch_round_to_bf16(a_float_.get(), a_.get(), static_cast<long long>(a_float_.size()), nullptr);
        launch_round_to_bf16(b_float_.get(), b_.get(), static_cast<long long>(b_float_.size()), nullptr);
      }
    }
    call_(a_.get(), b_.get(), c_.get());
  }
  timer_.stop();
  return timer_.seconds();
}

template <typename In, typename Out>
HostMatrix TensorCoreGemm<In, Out>::download() {
  if constexpr (std::is_same_v<Out, float>) {
    if (ldc_ == dims_.n) return HostMatrix(dims_.c(), c_.download(0, c_.size()));
  }
  const std::vector<Out> rows = c_.download(0, c_.size());
  return dense_c(reinterpret_cast<const unsigned char*>(rows.data()), static_cast<int>(sizeof(Out)), dims_, ldc_);
}

template <typename In, typename Out>
std::string TensorCoreGemm<In, Out>::launch() const {
  std::string line = launch_ + (std::is_same_v<Out, Bf16> ? ", BF16 C" : "");
  if (rounding_ == Rounding::every_call) line += "; A and B rounded from FP32 to BF16 on the GPU inside every timed call";
  if (rounding_s_ >= 0)
    line += "; A and B rounded to BF16 on the GPU before the timed calls in " + gpgpu::format_cell("%.3f", rounding_s_ * 1e3) + " ms";
  if (preparing_s_ >= 0) line += "; " + prepare_.what + " before the timed calls in " + gpgpu::format_cell("%.3f", preparing_s_ * 1e3) + " ms";
  return line;
}

template <typename In>
void transpose_on_gpu(const In* b, In* bt, int k, int n) {
  using Bits = std::conditional_t<std::is_same_v<In, float>, float, std::uint16_t>;  // what the transpose moves
  gpgpu::matrix::cuda::launch_transpose_tile_padded<Bits>({reinterpret_cast<const Bits*>(b), reinterpret_cast<Bits*>(bt), k, n},
                                                          nullptr);
}
template void transpose_on_gpu<float>(const float*, float*, int, int);
template void transpose_on_gpu<Bf16>(const Bf16*, Bf16*, int, int);

template class TensorCoreGemm<float>;
template class TensorCoreGemm<Bf16>;
template class TensorCoreGemm<Bf16, Bf16>;

gpgpu::blas::GemmVariant tensor_core_variant(std::string name, std::string description, std::string source, Input input,
                                             Requires gpus, SizeLimit fits) {
  gpgpu::blas::GemmVariant v = cuda_variant(std::move(name), std::move(description), std::move(source));
  v.tf32 = input == Input::tf32;
  v.bf16 = input == Input::bf16;
  v.fp8 = input == Input::fp8 || input == Input::fp8_blocks;
  v.fp8_blocks = input == Input::fp8_blocks;
  v.limitation = [gpus = std::move(gpus), input, fits = std::move(fits)](const gpgpu::blas::GemmSize& s,
                                                                         gpgpu::Session& session) -> std::optional<std::string> {
    if (s.type == ElementType::f64) return "float only (the tensor cores' TF32, BF16 and FP8 inputs are rounded floats)";
    // Per tensor, the FP8 accumulator sums all of k: past max_k its bound means nothing. Block
    // scales promote every 128 of k, and the problem's own k limit holds for them.
    if (const std::int64_t most = gpgpu::blas::max_k(gpgpu::blas::Arithmetic::fp8); input == Input::fp8 && s.dims.k > most)
      return "k = " + std::to_string(s.dims.k) + ": the FP8 accumulator's error bound means nothing past k = " + std::to_string(most);
    const int major = gpgpu::cuda::device_info(session).cc_major;
    if (major < gpus.cc_major || (gpus.only_major && major != gpus.cc_major)) return gpus.needs;
    return fits ? fits(s.dims) : std::nullopt;
  };
  return v;
}

gpgpu::blas::GemmVariant library_variant(std::string name, std::string description, std::string source, Input input,
                                         const std::string& library, LibraryMake make) {
  gpgpu::blas::GemmVariant v = tensor_core_variant(std::move(name), std::move(description), std::move(source), input,
                                                   {8, false, "TF32 and BF16 tensor cores need compute capability 8.0"});
  v.info.timer = "CUDA events (" + library + " on the default stream)";
  v.library = true;
  v.make = [input, make](const gpgpu::blas::GemmSize& s, gpgpu::Session&) { return make(input, s.dims); };
  return v;
}

std::optional<std::string> tma_limitation(const gpgpu::blas::Dims& d, GemmShape shape) {
  if (auto why = tc::tma_refusal(d.k)) return why;
  return grid_rows_refusal(blocks_for(d.m, shape.tile_m));
}

gpgpu::blas::GemmVariant tma_step_variant(std::string name, std::string description, const std::string& file, Input input,
                                          GemmShape (*shape)()) {
  return tensor_core_variant(std::move(name), std::move(description), "kernels/blas/cuda/" + file, input,
                             {9, true, "TMA with wgmma is Hopper's alone: compiled for sm_90a, it runs on compute capability 9.0 only"},
                             [shape](const gpgpu::blas::Dims& d) { return tma_limitation(d, shape()); });
}

}  // namespace gpgpu::blas::cuda
