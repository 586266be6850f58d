// Chapter 09, past the paper: step 13's idea, a block that keeps its next tiles in flight while it
// moves the current one, without the registers that made step 13 lose. Hopper (compute capability
// 9.0) only: compiled for sm_90a alone (kernels/matrix/cuda/CMakeLists.txt), like chapter 10b's TMA
// steps, whose load and mbarrier helpers it uses.
//
// What step 13 showed (Nsight Compute at 8192² float on the H200): its next tile waited in
// registers, 48 per thread, so five blocks fit an SM instead of eight; the schedulers issued in a
// fifth of their cycles and the warps waited on their loads (long scoreboard) and at the two
// barriers per tile, at which every warp of a block stops until the slowest load of the block has
// come back. The bytes in flight are bought with threads and registers, and every barrier drains
// them.
//
// The design: the tensor memory accelerator (TMA) moves the tiles between global and shared memory,
// and the threads only transpose inside shared memory.
// - Loads: one thread asks TMA for a whole 64 x 64 tile (two boxes of 64 rows x 128 bytes for floats)
//   into one of kTmaStages shared input tiles (64 KiB: four float tiles), and TMA counts the bytes
//   in on that stage's mbarrier. A block keeps every stage in flight: it asks for tile i + stages
//   as soon as it has read tile i. No registers hold the loads and no thread waits for them until it
//   needs the tile.
// - The transpose: the 128 threads read the input tile down its columns and write the output tile
//   along its rows, both swizzled (tma_tile.hpp: no bank conflicts either way), then fence their
//   writes for the async proxy; one barrier per tile.
// - Stores: the same thread asks TMA to store the output tile (two boxes) and does not wait for it;
//   the block fills a second output tile meanwhile (kTmaOutBuffers = 2) and, before the barrier that
//   lets the threads overwrite a tile, waits only until TMA has read it (wait_group.read).
// - Edges: TMA reads zeros outside the matrix and writes nothing outside it, so a tile the matrix cuts
//   takes the same path. What TMA cannot serve is a row that is no multiple of 16 bytes (its global
//   strides): such shapes run step 12's kernel (the host code says so in the launch line).
// - The grid: as many blocks as stay resident (two per SM for floats: 97 KiB of shared memory each),
//   each taking tiles b, b + G, b + 2G, ... in step 12's panel order, as step 13 did.
#include "launchers.hpp"
#include "tile_vec4.hpp"  // panel_tile
#include "tma_tile.hpp"

#include <algorithm>
#include <cstdint>

#include "blas/cuda/mma_sync.hpp"  // shared_address
#include "blas/cuda/tma.hpp"
#include "blas/cuda/tma_store.hpp"
#include "blas/cuda/wgmma.hpp"  // fence_proxy_async_shared
#include "gpgpu/cuda/check.hpp"
#include "gpgpu/cuda/tensor_map.hpp"

namespace gpgpu::matrix::cuda {
namespace {

using blas::cuda::bulk_commit_group;
using blas::cuda::bulk_wait_group;
using blas::cuda::bulk_wait_group_read;
using blas::cuda::fence_mbarrier_init;
using blas::cuda::fence_proxy_async_shared;
using blas::cuda::mbarrier_arrive_expect_tx;
using blas::cuda::mbarrier_init;
using blas::cuda::mbarrier_wait_parity;
using blas::cuda::shared_address;
using blas::cuda::tma_load_2d;
using blas::cuda::tma_store_2d;

inline constexpr int kSwizzleAtom = 1024;  // the 128-byte swizzle repeats every 8 rows: tiles start there

template <typename T>
constexpr int shared_bytes() {
  return (kTmaStages<T> + kTmaOutBuffers) * kTmaTileElements * static_cast<int>(sizeof(T)) + kSwizzleAtom;
}

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <typename T>
__global__ void transpose_tma(const __grid_constant__ CUtensorMap, const __grid_constant__ CUtensorMap, int, int) {
  __trap();
}
#else
// The tile of input tile number `id`'s boxes into the shared tile at `dst`, counted on `bar`: only the
// boxes that start inside the matrix (those TMA fills in part with zeros count their whole box).
template <typename T>
__device__ __forceinline__ void load_tile(const CUtensorMap* in, std::uint32_t dst, std::uint32_t bar, TileAt t, int cols) {
  constexpr int span = kTmaSpan<T>, box_bytes = kTmaTile * 128;
  const int col0 = t.across * kTmaTile, inside = (cols - col0 + span - 1) / span;
  const int boxes = inside < kTmaBoxes<T> ? inside : kTmaBoxes<T>;
  mbarrier_arrive_expect_tx(bar, static_cast<unsigned>(boxes * box_bytes));
  for (int b = 0; b < boxes; ++b) tma_load_2d(dst + b * box_bytes, in, col0 + b * span, t.down * kTmaTile, bar);
}

// The output tile at `src` to where input tile `t` goes: output rows col0 ..., columns row0 ....
template <typename T>
__device__ __forceinline__ void store_tile(const CUtensorMap* out, std::uint32_t src, TileAt t, int rows) {
  constexpr int span = kTmaSpan<T>, box_bytes = kTmaTile * 128;
  const int row0 = t.down * kTmaTile, inside = (rows - row0 + span - 1) / span;
  const int boxes = inside < kTmaBoxes<T> ? inside : kTmaBoxes<T>;
  for (int b = 0; b < boxes; ++b) tma_store_2d(out, row0 + b * span, t.across * kTmaTile, src + b * box_bytes);
  bulk_commit_group();
}

// The thread's tasks of one tile (tma_tile.hpp): every read of the shared input issued before the
// first 16-byte write of the output.
template <typename T>
__device__ __forceinline__ void transpose_in_shared(const T* in, T* out) {
  constexpr int kChunk = kTmaChunk<T>, kTasks = kTmaTasksPerWarp<T>;
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  Pack16<T> v[kTasks];
#pragma unroll
  for (int j = 0; j < kTasks; ++j) {
    const TmaTask t = tma_task<T>(warp, lane, j);
#pragma unroll
    for (int k = 0; k < kChunk; ++k) v[j].e[k] = in[tma_tile_index<T>(t.out_col + k, t.out_row)];
  }
#pragma unroll
  for (int j = 0; j < kTasks; ++j) {
    const TmaTask t = tma_task<T>(warp, lane, j);
    *reinterpret_cast<Pack16<T>*>(&out[tma_tile_index<T>(t.out_row, t.out_col)]) = v[j];
  }
}

//! [transpose_tma]
template <typename T>
__global__ void __launch_bounds__(kTmaThreads) transpose_tma(const __grid_constant__ CUtensorMap in_map,
                                                            const __grid_constant__ CUtensorMap out_map, int rows, int cols) {
  constexpr int kStages = kTmaStages<T>;
  extern __shared__ unsigned char raw[];  // kStages input tiles, then kTmaOutBuffers output tiles
  T* tiles = reinterpret_cast<T*>((reinterpret_cast<std::uintptr_t>(raw) + kSwizzleAtom - 1) / kSwizzleAtom * kSwizzleAtom);
  __shared__ __align__(8) std::uint64_t full[kStages];  // stage s's tile has landed
  const int tiles_x = (cols + kTmaTile - 1) / kTmaTile, tiles_y = (rows + kTmaTile - 1) / kTmaTile;
  const int count = tiles_x * tiles_y, step = static_cast<int>(gridDim.x);
  const bool issuer = threadIdx.x == 0;
  const auto input = [&](int s) { return tiles + s * kTmaTileElements; };
  const auto output = [&](int i) { return tiles + (kStages + i % kTmaOutBuffers) * kTmaTileElements; };
  if (issuer) {
    for (int s = 0; s < kStages; ++s) mbarrier_init(shared_address(&full[s]), 1);  // the issuer's arrival
    fence_mbarrier_init();
    for (int s = 0; s < kStages; ++s) {  // the first tiles in flight
      const int id = static_cast<int>(blockIdx.x) + s * step;
      if (id < count) load_tile<T>(&in_map, shared_address(input(s)), shared_address(&full[s]), panel_tile(id, tiles_x, tiles_y), cols);
    }
  }
  __syncthreads();  // the barriers are initialised before anyone waits on them
  int i = 0;        // the block's tile count so far
  for (int id = static_cast<int>(blockIdx.x); id < count; id += step, ++i) {
    const int s = i % kStages;
    mbarrier_wait_parity(shared_address(&full[s]), static_cast<unsigned>((i / kStages) % 2));
    transpose_in_shared<T>(input(s), output(i));
    fence_proxy_async_shared();                            // the writes, visible to the TMA store
    if (issuer) bulk_wait_group_read<kTmaOutBuffers - 2>();  // the tile that i + 1 overwrites has been read
    __syncthreads();  // input(s) read and output(i) written by every thread
    if (issuer) {
      store_tile<T>(&out_map, shared_address(output(i)), panel_tile(id, tiles_x, tiles_y), rows);
      const int next = id + kStages * step;
      if (next < count) load_tile<T>(&in_map, shared_address(input(s)), shared_address(&full[s]), panel_tile(next, tiles_x, tiles_y), cols);
    }
  }
  if (issuer) bulk_wait_group<0>();  // every store written before the block's shared memory goes
}
//! [transpose_tma]
#endif

CUtensorMapDataType map_type(int element_bytes) {
  return element_bytes == 8 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT64 : CU_TENSOR_MAP_DATA_TYPE_UINT32;  // bits moved as they are
}

}  // namespace

template <typename T>
bool transpose_tma_serves(int rows, int cols) {
  return rows % kTmaChunk<T> == 0 && cols % kTmaChunk<T> == 0;  // rows of whole 16-byte chunks, both ways
}

template <typename T>
TmaTransposeShape transpose_tma_shape(int rows, int cols) {
  constexpr int kShared = shared_bytes<T>();
  GPGPU_CUDA_CHECK(cudaFuncSetAttribute(transpose_tma<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  int device = 0, sms = 0, per_sm = 0;
  GPGPU_CUDA_CHECK(cudaGetDevice(&device));
  GPGPU_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  GPGPU_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, transpose_tma<T>, kTmaThreads, kShared));
  const long long tiles = static_cast<long long>(blocks_for(rows, kTmaTile)) * blocks_for(cols, kTmaTile);
  const long long resident = static_cast<long long>(sms) * std::max(per_sm, 1);
  return {{dim3(static_cast<unsigned>(std::max(1LL, std::min(tiles, resident)))), dim3(kTmaThreads)}, kShared, kTmaStages<T>};
}

template <typename T>
TmaTransposePlan plan_transpose_tma(const TransposeArgs<T>& a, const TmaTransposeShape& launch) {
  constexpr int kBytes = static_cast<int>(sizeof(T));
  const std::uint32_t box[2] = {static_cast<std::uint32_t>(kTmaSpan<T>), static_cast<std::uint32_t>(kTmaTile)};
  const std::uint64_t in_dims[2] = {static_cast<std::uint64_t>(a.cols), static_cast<std::uint64_t>(a.rows)};
  const std::uint64_t out_dims[2] = {static_cast<std::uint64_t>(a.rows), static_cast<std::uint64_t>(a.cols)};
  TmaTransposePlan p;
  p.in = gpgpu::cuda::encode_tiled_2d(a.in, map_type(kBytes), in_dims, in_dims[0] * kBytes, box, CU_TENSOR_MAP_SWIZZLE_128B);
  p.out = gpgpu::cuda::encode_tiled_2d(a.out, map_type(kBytes), out_dims, out_dims[0] * kBytes, box, CU_TENSOR_MAP_SWIZZLE_128B);
  p.rows = a.rows;
  p.cols = a.cols;
  p.launch = launch;
  return p;
}

template <typename T>
void launch_transpose_tma(const TmaTransposePlan& p, cudaStream_t stream) {
  const TmaTransposeShape& l = p.launch;
  transpose_tma<T><<<l.shape.grid, l.shape.block, static_cast<std::size_t>(l.shared_bytes), stream>>>(p.in, p.out, p.rows, p.cols);
  GPGPU_CUDA_CHECK_LAUNCH("transpose_tma");
}

template bool transpose_tma_serves<float>(int, int);
template bool transpose_tma_serves<double>(int, int);
template bool transpose_tma_serves<std::int32_t>(int, int);
template TmaTransposeShape transpose_tma_shape<float>(int, int);
template TmaTransposeShape transpose_tma_shape<double>(int, int);
template TmaTransposeShape transpose_tma_shape<std::int32_t>(int, int);
template TmaTransposePlan plan_transpose_tma<float>(const TransposeArgs<float>&, const TmaTransposeShape&);
template TmaTransposePlan plan_transpose_tma<double>(const TransposeArgs<double>&, const TmaTransposeShape&);
template TmaTransposePlan plan_transpose_tma<std::int32_t>(const TransposeArgs<std::int32_t>&, const TmaTransposeShape&);
template void launch_transpose_tma<float>(const TmaTransposePlan&, cudaStream_t);
template void launch_transpose_tma<double>(const TmaTransposePlan&, cudaStream_t);
template void launch_transpose_tma<std::int32_t>(const TmaTransposePlan&, cudaStream_t);

}  // namespace gpgpu::matrix::cuda
