// Chapter 10b's TMA steps as variants: tma_tf32 and tma_bf16 (step 4, kernels/blas/cuda/10b_tma.cu),
// pipeline_tf32 and pipeline_bf16 (step 5, 10b_pipeline.cu), ws_tf32 and ws_bf16 (step 6,
// 10b_warp_specialized.cu); all take the same operands (Bᵀ and two maps). Before
// the timed calls, the host makes Bᵀ, a transposed copy of B (chapter 09's padded-tile transpose;
// bfloat16 moved as its 16-bit patterns), so that both operands are K-major as wgmma needs them
// (TF32 has no transposed B), and encodes one tensor map per operand (tensor_maps.cpp): the copy
// is timed and printed in the launch line, as the BF16 rounding is. Refused, with the reason,
// where k does not give rows of a multiple of 16 bytes (TMA's row pitch: tc::tma_refusal), and on
// any GPU but compute capability 9.0 (sm_90a code).
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "blas/cuda/tensor_core_launchers.hpp"
#include "blas/cuda/tma_map.hpp"
#include "cuda_gemm.hpp"  // chapter 10's launch_line
#include "gpgpu/cuda/buffers.hpp"
#include "matrix/cuda/launchers.hpp"  // chapter 09's transpose
#include "tensor_core_gemm.hpp"
#include "tensor_core_variants.hpp"
#include "tensor_maps.hpp"

namespace ch10b {
namespace {

namespace bc = gpgpu::blas::cuda;
using gpgpu::blas::Dims;

/// Bᵀ and the two maps of one product, made by the preparation and read by every call.
template <typename In>
struct TmaOperands {
  gpgpu::cuda::DeviceBuffer<In> bt;
  bc::TmaArgs args{};
};

//! [tma_prepare]
template <typename In>
void prepare(TmaOperands<In>& t, const Dims& d, const In* a, const In* b) {
  using Bits = std::conditional_t<std::is_same_v<In, float>, float, std::uint16_t>;  // what the transpose moves
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
  gpgpu::matrix::cuda::launch_transpose_tile_padded<Bits>(
      {reinterpret_cast<const Bits*>(b), reinterpret_cast<Bits*>(t.bt.get()), k, n}, nullptr);  // B (k x n) to Bᵀ (n x k)
  constexpr CUtensorMapDataType kType = std::is_same_v<In, float> ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  constexpr int kBytes = static_cast<int>(sizeof(In));
  t.args.a = encode_tensor_map(a, kType, bc::tc::kmajor_sw128_map(m, k, kBytes, bc::tma_box_rows()));
  t.args.bt = encode_tensor_map(t.bt.get(), kType, bc::tc::kmajor_sw128_map(n, k, kBytes, bc::tma_box_rows()));
  t.args.m = m;
  t.args.n = n;
  t.args.k = k;
}
//! [tma_prepare]

using TmaLaunch = void (*)(const bc::TmaArgs&, cudaStream_t);

/// One TMA kernel in one input type: its launch and what the launch line says about it.
struct TmaKernel {
  const char* name;
  const char* file;  // in kernels/blas/cuda/
  const char* description;
  TmaLaunch launch;
  bc::GemmShape (*shape)();
  int (*stages)();
};

int one_stage() { return 1; }

template <typename In>
std::unique_ptr<gpgpu::blas::GemmOperation> make(const TmaKernel& kernel, const Dims& d) {
  auto t = std::make_shared<TmaOperands<In>>();
  t->bt = gpgpu::cuda::DeviceBuffer<In>(static_cast<std::size_t>(d.k * d.n));
  auto call = [t, f = kernel.launch](const In*, const In*, float* c) {  // A and Bᵀ are in the maps
    bc::TmaArgs g = t->args;
    g.c = c;
    f(g, nullptr);
  };
  typename TensorCoreGemm<In>::Preparation p{"B transposed on the GPU (tensor maps of A and B^T encoded)",
                                             [t, d](const In* a, const In* b) { prepare(*t, d, a, b); }};
  return std::make_unique<TensorCoreGemm<In>>(
      d, call,
      ch10::launch_line(d, kernel.shape()) + ", TMA boxes 64 x 128 bytes, " + std::to_string(kernel.stages()) + " stage(s)",
      std::move(p));
}

template <typename In>
gpgpu::blas::GemmVariant variant(const TmaKernel& kernel) {
  gpgpu::blas::GemmVariant v =
      tensor_core_variant(kernel.name, kernel.description, std::string("kernels/blas/cuda/") + kernel.file,
                          std::is_same_v<In, float> ? Input::tf32 : Input::bf16,
                          {9, true, "TMA with wgmma is Hopper's alone: compiled for sm_90a, it runs on compute capability 9.0 only"});
  v.make = [&kernel](const gpgpu::blas::GemmSize& s, gpgpu::Session&) { return make<In>(kernel, s.dims); };
  v.limitation = [&kernel, device = v.limitation](const gpgpu::blas::GemmSize& s,
                                                  gpgpu::Session& session) -> std::optional<std::string> {
    if (auto why = device(s, session)) return why;
    if (auto why = bc::tc::tma_refusal(s.dims.k, static_cast<int>(sizeof(In)))) return why;
    const long long rows = bc::blocks_for(s.dims.m, kernel.shape().tile_m);
    if (rows > bc::kMaxGridY) return "needs " + std::to_string(rows) + " block rows; a grid has at most 65535";
    return std::nullopt;
  };
  return v;
}

//! [tma_kernels]
constexpr TmaKernel kTf32[] = {
    {"tma_tf32", "10b_tma.cu", "step 3 with its tiles loaded by TMA (one stage, mbarrier), B transposed once, TF32",
     bc::launch_tma_tf32, bc::tma_shape, one_stage},
    {"pipeline_tf32", "10b_pipeline.cu", "step 4 with a ring of stages: TMA loads ahead while wgmma multiplies, TF32",
     bc::launch_pipeline_tf32, bc::pipeline_shape, bc::pipeline_stages},
    {"ws_tf32", "10b_warp_specialized.cu", "a producer warpgroup loads, a consumer multiplies, full/empty mbarriers, setmaxnreg, TF32",
     bc::launch_ws_tf32, bc::ws_shape, bc::ws_stages},
    {"wide_tf32", "10b_wide_tile.cu", "a 128 x 256 tile, two consumer warpgroups of m64n256 wgmma, FP32 operands read as TF32",
     bc::launch_wide_tile_tf32, bc::wide_tile_shape, bc::wide_tile_stages},
    {"persistent_tf32", "10b_persistent.cu", "one block per SM walks the tiles in a grouped order, loading ahead across tiles, TF32",
     bc::launch_persistent_tf32, bc::persistent_shape, bc::persistent_stages},
};
constexpr TmaKernel kBf16[] = {
    {"tma_bf16", "10b_tma.cu", "the same on BF16 inputs (rounded once), FP32 sums", bc::launch_tma_bf16, bc::tma_shape, one_stage},
    {"pipeline_bf16", "10b_pipeline.cu", "the pipeline on BF16 inputs (rounded once), FP32 sums", bc::launch_pipeline_bf16,
     bc::pipeline_shape, bc::pipeline_stages},
    {"ws_bf16", "10b_warp_specialized.cu", "producer and consumer on BF16 inputs (rounded once), FP32 sums", bc::launch_ws_bf16,
     bc::ws_shape, bc::ws_stages},
    {"wide_bf16", "10b_wide_tile.cu", "the 128 x 256 tile on BF16 inputs (rounded once), FP32 sums", bc::launch_wide_tile_bf16,
     bc::wide_tile_shape, bc::wide_tile_stages},
    {"persistent_bf16", "10b_persistent.cu", "the persistent kernel on BF16 inputs (rounded once), FP32 sums",
     bc::launch_persistent_bf16, bc::persistent_shape, bc::persistent_stages},
};
//! [tma_kernels]

}  // namespace

std::vector<gpgpu::blas::GemmVariant> tma_variants() {
  std::vector<gpgpu::blas::GemmVariant> v;
  for (std::size_t i = 0; i < std::size(kTf32); ++i) {  // in step order, each step in TF32 then BF16
    v.push_back(variant<float>(kTf32[i]));
    v.push_back(variant<Bf16>(kBf16[i]));
  }
  return v;
}

}  // namespace ch10b
