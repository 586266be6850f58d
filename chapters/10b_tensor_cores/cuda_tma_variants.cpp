// Chapter 10b's TMA steps as variants: tma_* (step 4, kernels/blas/cuda/10b_04_tma.cu), pipeline_* (step
// 5, 10b_05_pipeline.cu), ws_* (step 6, 10b_06_warp_specialized.cu), wide_* (step 7, 10b_07_wide_tile.cu),
// persistent_* (step 8, 10b_08_persistent.cu), cluster_* (step 9, 10b_09_cluster.cu) and stream_k_* (step
// 10, 10b_10_stream_k.cu), each in TF32 and BF16; all take the same operands (Bᵀ and two maps). Before
// the timed calls, the host makes Bᵀ, a transposed copy of B (chapter 09's padded-tile transpose;
// bfloat16 moved as its 16-bit patterns), so that both operands are K-major as wgmma needs them (TF32
// has no transposed B), copies A and Bᵀ into rows of a multiple of 16 bytes where k does not give such
// rows (TMA's row pitch: tc::tma_pitch), and encodes one tensor map per operand (tensor_maps.cpp): the
// preparation is timed and printed in the launch line, as the BF16 rounding is. Refused, with the
// reason, for k = 0 (tc::tma_refusal) and on any GPU but compute capability 9.0 (sm_90a code)
// (tma_step_variant, gpgpu/blas/cuda/tensor_core_gemm.hpp).
// Step 11's tma_store_bf16 and tma_store_bf16_bf16c (10b_11_tma_store.cu) take step 9's operands and
// write C through a tensor map of their own: FP32 or BF16, in rows of a 16-byte multiple.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "blas/cuda/tensor_core_launchers.hpp"
#include "blas/cuda/tma_map.hpp"
#include "gpgpu/blas/cuda/device_gemm.hpp"
#include "gpgpu/blas/cuda/tensor_core_gemm.hpp"
#include "gpgpu/blas/cuda/tensor_maps.hpp"
#include "gpgpu/cuda/buffers.hpp"
#include "variants.hpp"

namespace ch10b {
namespace {

namespace bc = gpgpu::blas::cuda;
using bc::Bf16;
using bc::encode_tensor_map;
using bc::Input;
using bc::TensorCoreGemm;
using bc::tma_step_variant;
using bc::transpose_on_gpu;
using gpgpu::blas::Dims;

/// Bᵀ and the two maps of one product, made by the preparation and read by every call. Where k
/// gives rows that are no multiple of 16 bytes (TMA's row pitch), the operands are copied into rows
/// of tc::tma_pitch elements: A into a_copy, Bᵀ from its transpose (bt_dense) into bt. Where the
/// preparation rounds TF32, A is rounded into a_copy too (the caller's A stays as it is).
template <typename In>
struct TmaOperands {
  gpgpu::cuda::DeviceBuffer<In> bt;        // n rows of `pitch`
  gpgpu::cuda::DeviceBuffer<In> a_copy;    // m rows of `pitch`; empty where TMA reads the caller's A
  gpgpu::cuda::DeviceBuffer<In> bt_dense;  // n rows of k; empty where the transpose goes straight to bt
  long long pitch = 0;
  bool round_tf32 = false;  // TF32 operands rounded here (steps 7-10), not in the kernel (steps 4-6)
  bc::TmaArgs args{};
};

/// `rows` rows of k elements from `from` into rows of `pitch` elements at `to`, the columns from k
/// to the pitch zeroed (the maps' k is k, so TMA never reads them; zeroed so that every byte of the
/// copy is defined).
template <typename In>
void copy_into_pitch(In* to, const In* from, long long rows, long long k, long long pitch) {
  constexpr std::size_t kBytes = sizeof(In);
  GPGPU_CUDA_CHECK(cudaMemsetAsync(to, 0, static_cast<std::size_t>(rows * pitch) * kBytes, nullptr));
  GPGPU_CUDA_CHECK(cudaMemcpy2DAsync(to, static_cast<std::size_t>(pitch) * kBytes, from, static_cast<std::size_t>(k) * kBytes,
                                     static_cast<std::size_t>(k) * kBytes, static_cast<std::size_t>(rows), cudaMemcpyDeviceToDevice,
                                     nullptr));
}

//! [tma_prepare]
template <typename In>
void prepare(TmaOperands<In>& t, const Dims& d, const In* a, const In* b) {
  const int m = static_cast<int>(d.m), n = static_cast<int>(d.n), k = static_cast<int>(d.k);
  const bool padded = t.pitch != k;
  In* bt = padded ? t.bt_dense.get() : t.bt.get();
  transpose_on_gpu(b, bt, k, n);  // B (k x n) to Bᵀ (n x k)
  const In* a_rows = a;
  if (padded) {  // rows of 16-byte multiples for TMA
    copy_into_pitch(t.a_copy.get(), a, m, k, t.pitch);
    copy_into_pitch(t.bt.get(), t.bt_dense.get(), n, k, t.pitch);
    a_rows = t.a_copy.get();
  }
  if constexpr (std::is_same_v<In, float>) {
    if (t.round_tf32) {  // the tensor cores would cut these floats: round them to nearest once, here
      bc::launch_round_to_tf32(a_rows, t.a_copy.get(), static_cast<long long>(m) * t.pitch, nullptr);  // in place if padded
      bc::launch_round_to_tf32(t.bt.get(), t.bt.get(), static_cast<long long>(n) * t.pitch, nullptr);
      a_rows = t.a_copy.get();
    }
  }
  constexpr CUtensorMapDataType kType = std::is_same_v<In, float> ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  constexpr int kBytes = static_cast<int>(sizeof(In));
  t.args.a = encode_tensor_map(a_rows, kType, bc::tc::kmajor_sw128_map(m, k, kBytes, bc::tma_box_rows(), t.pitch));
  t.args.bt = encode_tensor_map(t.bt.get(), kType, bc::tc::kmajor_sw128_map(n, k, kBytes, bc::tma_box_rows(), t.pitch));
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
  bool rounds_tf32 = true;  // the kernel rounds TF32 tiles in shared memory; false: the preparation must
};

int one_stage() { return 1; }

/// The buffers of a product's operands (prepare fills them), TF32 rounded by the preparation or not.
template <typename In>
std::shared_ptr<TmaOperands<In>> tma_operands(const Dims& d, bool round_tf32) {
  auto t = std::make_shared<TmaOperands<In>>();
  t->pitch = bc::tc::tma_pitch(d.k, static_cast<int>(sizeof(In)));
  t->bt = gpgpu::cuda::DeviceBuffer<In>(static_cast<std::size_t>(t->pitch * d.n));
  t->round_tf32 = std::is_same_v<In, float> && round_tf32;
  if (t->pitch != d.k) t->bt_dense = gpgpu::cuda::DeviceBuffer<In>(static_cast<std::size_t>(d.k * d.n));
  if (t->pitch != d.k || t->round_tf32) t->a_copy = gpgpu::cuda::DeviceBuffer<In>(static_cast<std::size_t>(t->pitch * d.m));
  return t;
}

/// What the launch line says the preparation did.
template <typename In>
std::string preparation_done(const TmaOperands<In>& t, const Dims& d) {
  std::string what = "B transposed on the GPU";
  if (t.pitch != d.k) what += ", A and B^T copied into rows of 16-byte multiples";
  if (t.round_tf32) what += ", A and B^T rounded to TF32";
  return what + " (tensor maps encoded)";
}

template <typename In>
std::unique_ptr<gpgpu::blas::GemmOperation> make(const TmaKernel& kernel, const Dims& d) {
  auto t = tma_operands<In>(d, !kernel.rounds_tf32);
  auto call = [t, f = kernel.launch](const In*, const In*, float* c) {  // A and Bᵀ are in the maps
    bc::TmaArgs g = t->args;
    g.c = c;
    f(g, nullptr);
  };
  typename TensorCoreGemm<In>::Preparation p{preparation_done(*t, d), [t, d](const In* a, const In* b) { prepare(*t, d, a, b); }};
  return std::make_unique<TensorCoreGemm<In>>(
      d, call,
      gpgpu::blas::cuda::launch_line(d, kernel.shape()) + ", TMA boxes 64 x 128 bytes, " + std::to_string(kernel.stages()) + " stage(s)",
      std::move(p));
}

template <typename In>
gpgpu::blas::GemmVariant variant(const TmaKernel& kernel) {
  gpgpu::blas::GemmVariant v = tma_step_variant(kernel.name, kernel.description, kernel.file,
                                                std::is_same_v<In, float> ? Input::tf32 : Input::bf16, kernel.shape);
  v.make = [&kernel](const gpgpu::blas::GemmSize& s, gpgpu::Session&) { return make<In>(kernel, s.dims); };
  return v;
}

//! [tma_kernels]
constexpr TmaKernel kTf32[] = {
    {"tma_tf32", "10b_04_tma.cu", "step 3 with its tiles loaded by TMA (one stage, mbarrier), B transposed once, TF32",
     bc::launch_tma_tf32, bc::tma_shape, one_stage},
    {"pipeline_tf32", "10b_05_pipeline.cu", "step 4 with a ring of stages: TMA loads ahead while wgmma multiplies, TF32",
     bc::launch_pipeline_tf32, bc::pipeline_shape, bc::pipeline_stages},
    {"ws_tf32", "10b_06_warp_specialized.cu", "a producer warpgroup loads, a consumer multiplies, full/empty mbarriers, setmaxnreg, TF32",
     bc::launch_ws_tf32, bc::ws_shape, bc::ws_stages},
    {"wide_tf32", "10b_07_wide_tile.cu", "a 128 x 256 tile, two consumer warpgroups of m64n256 wgmma, FP32 operands read as TF32",
     bc::launch_wide_tile_tf32, bc::wide_tile_shape, bc::wide_tile_stages, false},
    {"persistent_tf32", "10b_08_persistent.cu", "one block per SM walks the tiles in a grouped order, loading ahead across tiles, TF32",
     bc::launch_persistent_tf32, bc::persistent_shape, bc::persistent_stages, false},
    {"cluster_tf32", "10b_09_cluster.cu", "clusters of two blocks, one above the other, share their B tile by TMA multicast, TF32",
     bc::launch_cluster_tf32, bc::cluster_shape, bc::cluster_stages, false},
    {"stream_k_tf32", "10b_10_stream_k.cu", "the clusters with the last two rounds' k-steps dealt out evenly (stream-K), TF32",
     bc::launch_stream_k_tf32, bc::stream_k_shape, bc::stream_k_stages, false},
};
constexpr TmaKernel kBf16[] = {
    {"tma_bf16", "10b_04_tma.cu", "the same on BF16 inputs (rounded once), FP32 sums", bc::launch_tma_bf16, bc::tma_shape, one_stage},
    {"pipeline_bf16", "10b_05_pipeline.cu", "the pipeline on BF16 inputs (rounded once), FP32 sums", bc::launch_pipeline_bf16,
     bc::pipeline_shape, bc::pipeline_stages},
    {"ws_bf16", "10b_06_warp_specialized.cu", "producer and consumer on BF16 inputs (rounded once), FP32 sums", bc::launch_ws_bf16,
     bc::ws_shape, bc::ws_stages},
    {"wide_bf16", "10b_07_wide_tile.cu", "the 128 x 256 tile on BF16 inputs (rounded once), FP32 sums", bc::launch_wide_tile_bf16,
     bc::wide_tile_shape, bc::wide_tile_stages},
    {"persistent_bf16", "10b_08_persistent.cu", "the persistent kernel on BF16 inputs (rounded once), FP32 sums",
     bc::launch_persistent_bf16, bc::persistent_shape, bc::persistent_stages},
    {"cluster_bf16", "10b_09_cluster.cu", "the clusters on BF16 inputs (rounded once), FP32 sums", bc::launch_cluster_bf16,
     bc::cluster_shape, bc::cluster_stages},
    {"stream_k_bf16", "10b_10_stream_k.cu", "stream-K on BF16 inputs (rounded once), FP32 sums", bc::launch_stream_k_bf16,
     bc::stream_k_shape, bc::stream_k_stages},
};
//! [tma_kernels]

/// Step 11 on step 9's operands (BF16), with C of Out (FP32 or BF16) in rows of tma_pitch(n)
/// elements (a tensor map's row pitch) and a map of C that the kernel stores through: encoded at
/// the first call, as C's buffer belongs to the operation and keeps its address, and again only if
/// a call passes another C.
//! [tma_store_make]
template <typename Out>
std::unique_ptr<gpgpu::blas::GemmOperation> make_tma_store(const Dims& d, bool even_rounds) {
  constexpr int kBytes = static_cast<int>(sizeof(Out));
  constexpr CUtensorMapDataType kType = std::is_same_v<Out, float> ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  struct CMap {
    const Out* c = nullptr;
    CUtensorMap map{};
  };
  auto t = tma_operands<Bf16>(d, false);
  auto c_map = std::make_shared<CMap>();
  const long long ldc = bc::tc::tma_pitch(d.n, kBytes);
  auto call = [t, c_map, d, ldc, even_rounds](const Bf16*, const Bf16*, Out* c) {
    if (c != c_map->c) {
      c_map->map = encode_tensor_map(c, kType, bc::tc::c_sw128_map(d.m, d.n, kBytes, ldc));
      c_map->c = c;
    }
    if constexpr (std::is_same_v<Out, float>)
      bc::launch_tma_store_bf16(t->args, c_map->map, nullptr);
    else if (even_rounds)
      bc::launch_tma_store_bf16_bf16c_even(t->args, c_map->map, nullptr);
    else
      bc::launch_tma_store_bf16_bf16c(t->args, c_map->map, nullptr);
  };
  typename TensorCoreGemm<Bf16, Out>::Preparation p{preparation_done(*t, d), [t, d](const Bf16* a, const Bf16* b) { prepare(*t, d, a, b); }};
  return std::make_unique<TensorCoreGemm<Bf16, Out>>(
      d, call,
      gpgpu::blas::cuda::launch_line(d, bc::tma_store_shape()) + ", TMA boxes 64 x 128 bytes, " + std::to_string(bc::tma_store_stages()) +
          " stages, C by TMA stores (rows of " + std::to_string(ldc) + ")" + (even_rounds ? ", the fewest clusters for its rounds" : ""),
      std::move(p), TensorCoreGemm<Bf16, Out>::Rounding::once, ldc);
}
//! [tma_store_make]

template <typename Out>
gpgpu::blas::GemmVariant tma_store_variant(const char* name, const char* description, bool even_rounds = false) {
  gpgpu::blas::GemmVariant v = tma_step_variant(name, description, "10b_11_tma_store.cu", Input::bf16, bc::tma_store_shape);
  v.bf16_c = std::is_same_v<Out, Bf16>;
  v.make = [even_rounds](const gpgpu::blas::GemmSize& s, gpgpu::Session&) { return make_tma_store<Out>(s.dims, even_rounds); };
  return v;
}

}  // namespace

std::vector<gpgpu::blas::GemmVariant> tma_variants() {
  std::vector<gpgpu::blas::GemmVariant> v;
  for (std::size_t i = 0; i < std::size(kTf32); ++i) {  // in step order, each step in TF32 then BF16
    v.push_back(variant<float>(kTf32[i]));
    v.push_back(variant<Bf16>(kBf16[i]));
  }
  v.push_back(tma_store_variant<float>("tma_store_bf16",
                                       "the clusters on BF16 inputs with C staged in shared memory and written by TMA stores while the "
                                       "next tile multiplies, FP32 C"));
  v.push_back(tma_store_variant<Bf16>("tma_store_bf16_bf16c", "the same with C rounded to BF16 (stmatrix)"));
  v.push_back(tma_store_variant<Bf16>("tma_store_bf16_bf16c_even",
                                      "the same on the fewest clusters that take as many rounds of tiles (whole groups per round)", true));
  return v;
}

}  // namespace ch10b
