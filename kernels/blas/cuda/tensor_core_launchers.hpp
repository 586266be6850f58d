/// @file tensor_core_launchers.hpp
/// @brief What chapter 10b's tensor-core kernels receive, and one launch function per kernel file
/// and input type. The inputs are TF32 (float, rounded to TF32 inside the kernel, as chapter 10's
/// WMMA step) or BF16 (rounded to bfloat16 once, before the product, by the caller, as cuBLAS's
/// BF16 GEMM receives them); C and every sum are FP32. Row-major A (m x k), B (k x n), C (m x n),
/// any m, n, k >= 1 (tails are zero-filled tiles), every index an int (the option group keeps the
/// matrices below matrix::kMaxElements).
#pragma once
#include <cuda.h>  // CUtensorMap (the type only: nothing of the driver is linked)
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime_api.h>

#include "gemm_args.hpp"
#include "launchers.hpp"  // GemmShape

namespace gpgpu::blas::cuda {

template <typename In>
using TensorCoreArgs = GemmArgs<In, float>;

using Bf16 = __nv_bfloat16;
/// An FP8 E4M3 value as the tensor cores read it: one byte.
using Fp8 = __nv_fp8_storage_t;

// 10b_02_mma_sync.cu: mma.sync with ldmatrix from swizzled shared tiles (step 2).
void launch_mma_sync(const TensorCoreArgs<float>& g, cudaStream_t stream);
void launch_mma_sync(const TensorCoreArgs<Bf16>& g, cudaStream_t stream);
GemmShape mma_sync_shape();

// 10b_03_wgmma.cu: wgmma.mma_async from 128B-swizzled shared tiles through descriptors (step 3),
// built for sm_90a only: declared where CMake built it (GPGPU_HAVE_WGMMA, else GPGPU_WHY_NO_WGMMA
// says why not), and to be launched on compute capability 9.0 only.
#if GPGPU_HAVE_WGMMA
void launch_wgmma(const TensorCoreArgs<float>& g, cudaStream_t stream);
void launch_wgmma(const TensorCoreArgs<Bf16>& g, cudaStream_t stream);
GemmShape wgmma_shape();

// 10b_04_tma.cu: step 3's products on tiles that TMA fills (step 4), sm_90a only as step 3. The
// operands arrive as tensor maps the host encodes (problems/blas/cuda/src/tensor_maps.cpp) from
// tc::kmajor_sw128_map (tma_map.hpp) with tma_box_rows() rows per box: A (m x k) and Bᵀ (n x k, a
// transposed copy of B), both row-major with k contiguous, of float (TF32) or bfloat16 (BF16).
struct TmaArgs {
  CUtensorMap a;
  CUtensorMap bt;
  float* c;
  int m, n, k;
};
void launch_tma_tf32(const TmaArgs& g, cudaStream_t stream);
void launch_tma_bf16(const TmaArgs& g, cudaStream_t stream);
GemmShape tma_shape();
int tma_box_rows();

// 10b_05_pipeline.cu: step 4 with a ring of pipeline_stages() stages, TMA loading ahead while wgmma
// multiplies (step 5); 10b_06_warp_specialized.cu: a producer warpgroup loads, a consumer warpgroup
// multiplies, "full" and "empty" mbarriers per stage, setmaxnreg (step 6). Both take step 4's
// arguments and maps (boxes of tma_box_rows() rows), sm_90a only.
void launch_pipeline_tf32(const TmaArgs& g, cudaStream_t stream);
void launch_pipeline_bf16(const TmaArgs& g, cudaStream_t stream);
GemmShape pipeline_shape();
int pipeline_stages();
void launch_ws_tf32(const TmaArgs& g, cudaStream_t stream);
void launch_ws_bf16(const TmaArgs& g, cudaStream_t stream);
GemmShape ws_shape();
int ws_stages();
void launch_wide_tile_tf32(const TmaArgs& g, cudaStream_t stream);
void launch_wide_tile_bf16(const TmaArgs& g, cudaStream_t stream);
GemmShape wide_tile_shape();
int wide_tile_stages();
void launch_persistent_tf32(const TmaArgs& g, cudaStream_t stream);
void launch_persistent_bf16(const TmaArgs& g, cudaStream_t stream);
GemmShape persistent_shape();
int persistent_stages();
void launch_cluster_tf32(const TmaArgs& g, cudaStream_t stream);
void launch_cluster_bf16(const TmaArgs& g, cudaStream_t stream);
GemmShape cluster_shape();
int cluster_stages();
// 10b_10_stream_k.cu: step 9 with the last two rounds' k-steps dealt out evenly (step 10).
void launch_stream_k_tf32(const TmaArgs& g, cudaStream_t stream);
void launch_stream_k_bf16(const TmaArgs& g, cudaStream_t stream);
GemmShape stream_k_shape();
int stream_k_stages();

// 10b_11_tma_store.cu: step 9 on BF16 inputs with C written through shared memory by TMA stores
// (step 11), overlapped with the next tile's products: C (m x n, rows of ldc = tc::tma_pitch(n)
// elements) in FP32 (_bf16) or rounded to BF16 (_bf16_bf16c), through the map `c_map`
// (tc::c_sw128_map); TmaArgs's c is not used.
void launch_tma_store_bf16(const TmaArgs& g, const CUtensorMap& c_map, cudaStream_t stream);
void launch_tma_store_bf16_bf16c(const TmaArgs& g, const CUtensorMap& c_map, cudaStream_t stream);
// The same on the fewest clusters that take as many rounds of tiles (launch()'s comment; the chapter measures both).
void launch_tma_store_bf16_bf16c_even(const TmaArgs& g, const CUtensorMap& c_map, cudaStream_t stream);
GemmShape tma_store_shape();
int tma_store_stages();

// 10c_01_fp8.cu: chapter 10b's step 9 clusters on E4M3 inputs with one scale per tensor (10c's step 1): A (m x k)
// and Bᵀ (n x k) as bytes, K-major, in the same maps as 10b's step 4's with one-byte elements (128 of k
// per box row); m64n256k32 wgmma into FP32 sums; C = scale_a · scale_b · the sums, in FP32 or
// BF16. TmaArgs's c is not used: C, its row pitch and the scales are the epilogue's.
template <typename Out>
struct Fp8Epilogue {
  Out* c;                // m rows of ldc elements
  int ldc;               // a multiple of 16 (Fp8Gemm's), so that neighbouring pairs are aligned
  const float* scale_a;  // device scalars of the quantisation: A ≈ scale_a · e4m3(A / scale_a)
  const float* scale_b;
};
void launch_fp8_tensor(const TmaArgs& g, const Fp8Epilogue<float>& e, cudaStream_t stream);
void launch_fp8_tensor(const TmaArgs& g, const Fp8Epilogue<Bf16>& e, cudaStream_t stream);
GemmShape fp8_tensor_shape();
int fp8_tensor_stages();

// 10c_02_fp8_block_scaled.cu: 10c's step 1 with a scale per block (its step 2): A quantised with one scale
// per 1 x 128 block (a row's 128 values of k), B with one per 128 x 128 block, both powers of two
// (gpgpu::blas::e4m3_block_scale). The Fp8Epilogue's scale pointers then point at the blocks'
// scales: scale_a at ⌈k/128⌉ rows of m floats (k-block by k-block, so that the rows a warp holds
// are neighbours), scale_b at ⌈k/128⌉ rows of ⌈n/128⌉. Every 128 of k (one k-step) the wgmma sums
// start from 0 and, once done, are multiplied by scale_a · scale_b and added into FP32 registers;
// step 1's 128 x 256 of C per block, each consumer's 64 x 256 in two halves of m64n128k32 wgmma (one
// column block of B's scales each). C in FP32 or BF16.
void launch_fp8_block(const TmaArgs& g, const Fp8Epilogue<float>& e, cudaStream_t stream);
void launch_fp8_block(const TmaArgs& g, const Fp8Epilogue<Bf16>& e, cudaStream_t stream);
GemmShape fp8_block_shape();
int fp8_block_stages();
#endif

// 10b_round_inputs.cu: `count` floats rounded to bfloat16 (to nearest even), the BF16 inputs' one
// rounding; or to nearest TF32 (cvt.rna), still stored as floats, in == out allowed.
void launch_round_to_bf16(const float* in, Bf16* out, long long count, cudaStream_t stream);
void launch_round_to_tf32(const float* in, float* out, long long count, cudaStream_t stream);

// 10c_quantise_inputs.cu, FP8 with one scale per tensor: *scale (device) = the largest |x| of `count`
// floats over 448 (1 if all are 0); then a rows x cols float matrix as e4m3(x / *scale) into
// rows of `pitch` bytes (the columns past it zeroed), transposed (cols rows of rows) if asked.
void launch_e4m3_scale(const float* in, long long count, float* scale, cudaStream_t stream);
/// Which scale an element of `in` is quantised with: element (r, c) uses
/// scale[(r / rows) · row_stride + (c / cols) · col_stride]. The default: one scale, scale[0].
struct E4m3ScaleBlocks {
  long long rows = 1, cols = 1;              // of a block (the last ones partial)
  long long row_stride = 0, col_stride = 0;  // between the scales of neighbouring blocks
};
struct E4m3Quantise {
  const float* in;
  Fp8* out;
  long long rows, cols;  // of `in`, row-major
  long long pitch;       // bytes per row of `out`, >= its columns
  bool transpose;
  const float* scale;  // device
  E4m3ScaleBlocks blocks{};
};
void launch_quantise_e4m3(const E4m3Quantise& q, cudaStream_t stream);

// 10c_quantise_inputs.cu, FP8 with a scale per block (chapter 10c's step 2): the scale of every block of a rows x
// cols float matrix, gpgpu::blas::e4m3_block_scale of its largest |x| (a power of two), written
// where `blocks` says the quantiser reads it (scale[(r / blocks.rows) · row_stride + ...] for the
// block's first element (r, c)).
struct E4m3BlockScales {
  const float* in;
  long long rows, cols;  // of `in`, row-major
  E4m3ScaleBlocks blocks;
  float* scale;  // device
};
void launch_e4m3_block_scales(const E4m3BlockScales& q, cudaStream_t stream);

}  // namespace gpgpu::blas::cuda
