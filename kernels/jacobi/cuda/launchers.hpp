/// @file launchers.hpp
/// @brief One launch function per kernel file: grid and block from the sizes, launch, check. The
/// host code of the chapters calls these (problems/jacobi/cuda/src/linear_solver.cpp, ...).
#pragma once
#include <cstddef>

#include "jacobi_args.hpp"

namespace gpgpu::jacobi::cuda {

void launch_jacobi_simple(const LinearArgs& a, int block, cudaStream_t stream);     // 03_simple.cu
void launch_jacobi_aligned(const LinearArgs& a, int block, cudaStream_t stream);    // 04_aligned.cu
void launch_jacobi_pitched(const PitchedArgs& a, int block, cudaStream_t stream);   // 05_pitched.cu
void launch_jacobi_shared(const PitchedArgs& a, int block, cudaStream_t stream);    // 06_01_shared.cu
void launch_jacobi_shared_paper(const PitchedArgs& a, int block, cudaStream_t stream);  // 06_02_shared_paper.cu
void launch_jacobi_texture(const TextureArgs& a, int block, cudaStream_t stream);   // 07_texture.cu
void launch_jacobi_readonly(const PitchedArgs& a, int block, cudaStream_t stream);  // 07b_01_readonly.cu
void launch_jacobi_tiled2d(const PitchedArgs& a, int block_x, int block_y, cudaStream_t stream);  // 07b_02_tiled2d.cu
void launch_jacobi_multirow(const PitchedArgs& a, int block, int rows_per_thread, cudaStream_t stream);     // 07b_03_multirow.cu
void launch_jacobi_symmetric(const SymmetricArgs& a, int block, int rows_per_thread, cudaStream_t stream);  // 07b_04_symmetric.cu
void launch_jacobi_symmetric_prefetch(const SymmetricArgs& a, int block, int rows_per_thread, cudaStream_t stream);  // 07b_05_prefetch.cu
void launch_jacobi_symmetric_ring(const SymmetricArgs& a, int block, int rows_per_thread, cudaStream_t stream);  // 07b_06_ring.cu
void launch_jacobi_overlapped(const SymmetricArgs& a, int sweeps, TemporalTile tile, cudaStream_t stream);  // 07c_01_overlapped.cu
void launch_jacobi_overlapped_columns(const SymmetricArgs& a, int sweeps, TemporalTile tile, cudaStream_t stream);  // 07c_02_overlapped_columns.cu
void launch_jacobi_overlapped_unrolled(const SymmetricArgs& a, int sweeps, TemporalTile tile, int rows_per_step,
                                       cudaStream_t stream);  // 07c_03_overlapped_unrolled.cu
void launch_jacobi_wavefront(const SymmetricArgs& a, int sweeps, TemporalTile tile, cudaStream_t stream);   // 07c_04_wavefront.cu
void launch_jacobi_persistent(const PersistentArgs& a, int blocks, cudaStream_t stream);                    // 07c_05_persistent.cu
void launch_jacobi_overlapped_persistent(const TripArgs& a, int sweeps, TemporalTile tile, int rows_per_step, int blocks,
                                         cudaStream_t stream);  // 07c_06_overlapped_persistent.cu
void launch_jacobi_overlapped_scaled(const SymmetricArgs& a, int sweeps, TemporalTile tile, int rows_per_step,
                                     cudaStream_t stream);  // 07c_07_overlapped_scaled.cu
void launch_jacobi_peer_store(const PeerStoreArgs& a, int block, int rows_per_thread, cudaStream_t stream);  // 13_peer_store.cu
void launch_publish_norm(const NormPublication& publish, cudaStream_t stream);  // 13_peer_store.cu: one thread

/// Resident blocks per SM of the multirow and symmetric kernels for a block size (sets the default
/// rows per thread).
int multirow_blocks_per_sm(int block);
int symmetric_blocks_per_sm(int block);
int symmetric_prefetch_blocks_per_sm(int block);
int symmetric_ring_blocks_per_sm(int block);
/// The largest block of 07b_05_prefetch.cu: its __launch_bounds__, which keeps two blocks per SM.
inline constexpr int kPrefetchMaxBlock = 256;
/// The largest block of 07b_06_ring.cu (its __launch_bounds__), and the dynamic shared memory of its
/// ring for a block of `block` threads (3 rows of 7 arrays of 4 * block + 8 floats: 84.7 KiB at 256).
inline constexpr int kRingMaxBlock = 256;
std::size_t symmetric_ring_shared_bytes(int block);

/// Dynamic shared memory of one block of the chapter 07c kernels (pure arithmetic, no device needed):
/// the overlapped tile and the wavefront's rings for `sweeps` sweeps per launch, and the persistent
/// kernel's on-chip rows.
std::size_t overlapped_shared_bytes(int sweeps, TemporalTile tile);
std::size_t wavefront_shared_bytes(int sweeps, TemporalTile tile);
std::size_t persistent_shared_bytes(int nx, int rows_per_block);
/// Resident blocks per SM of the overlapped kernel for a launch, and of the persistent kernel with
/// `shared_bytes` of shared memory (0: the launch cannot run at all).
int overlapped_blocks_per_sm(int sweeps, TemporalTile tile);
/// The block of 07c_02_overlapped_columns.cu: one thread per loaded column (whole warps), row runs
/// up to about 256 threads. Its shared memory is overlapped_shared_bytes (the same tile).
dim3 overlapped_columns_block(int sweeps, TemporalTile tile);
/// Whether 07c_03_overlapped_unrolled.cu is built for a loaded width (tile.x + 2*4*ceil(s/4)): 64,
/// 128 or 256 columns, a thread each, in blocks of 256 threads. Its shared memory is
/// overlapped_shared_bytes (the same tile); tile.y must be even. And whether it is built for a
/// count of rows per step (a thread's rows per step of a sweep): 2 or 4, any even tile.y. The same
/// for 07c_07_overlapped_scaled.cu, which runs the same tiles.
bool overlapped_unrolled_width(int width);
bool overlapped_unrolled_rows(int rows_per_step);
int persistent_blocks_per_sm(std::size_t shared_bytes);
/// 07c_06_overlapped_persistent.cu: the resident blocks per SM of its launch for a tile at `sweeps`
/// sweeps per trip and `rows_per_step` (a loaded width and rows per step that
/// 07c_03_overlapped_unrolled.cu is built for), and the blocks of its grid for `tiles` tiles per
/// trip (pure arithmetic): no more than are resident at once, which a cooperative launch needs,
/// nor than the tiles, and the fewest, on whole SMs, that give no block more tiles per trip than
/// every resident block would (the file says why).
int overlapped_persistent_blocks_per_sm(int sweeps, TemporalTile tile, int rows_per_step);
int overlapped_persistent_blocks(long long tiles, int blocks_per_sm, int sm_count);
/// Seconds per grid-wide barrier, launched as the persistent kernel is (`blocks` blocks with
/// `shared_bytes` each, so the same blocks share an SM) but doing nothing else: the price the
/// persistent kernel pays per sweep on top of the sweep's work. Times `barriers` barriers in one launch
/// after a warm-up launch.
double grid_barrier_seconds(int blocks, std::size_t shared_bytes, int barriers);

}  // namespace gpgpu::jacobi::cuda

namespace gpgpu::jacobi::cuda {

/// Blocks of `block` threads that cover `count` items (64-bit arithmetic: count may be near 2^31).
inline unsigned blocks_for(long long count, int block) { return static_cast<unsigned>((count + block - 1) / block); }

/// gridDim.y for `rows` rows: one block row per grid row, at most kMaxGridY (kernels loop beyond).
inline unsigned grid_rows(long long rows) { return static_cast<unsigned>(rows < kMaxGridY ? rows : kMaxGridY); }

/// The grid of a 13_peer_store.cu launch on `rows` rows of `nx` columns.
inline dim3 peer_store_grid(int nx, int rows, int block, int rows_per_thread) {
  return {blocks_for((nx + 3) / 4, block), grid_rows(blocks_for(rows, rows_per_thread))};
}

/// Rows per thread of the row-walking kernels (07b_03_multirow, 07b_04_symmetric, 07b_05_prefetch, 07b_06_ring, 13_peer_store) on `rows`
/// rows of `nx` columns: as many (up to 16) as keep at least eight waves of resident threads
/// (`blocks_per_sm` blocks of `block` threads on each of `sm_count` SMs). More rows save loads (each
/// x and coefficient row is loaded once per thread, plus one row per strip), but a block then lives
/// longer, and at the end of every iteration the last blocks run with the rest of the GPU idle: at
/// 4096² on an H100 this picks 4 rows (blocks of ~6 µs), at 1024² 1 row; one boundary row, 1.
inline int rows_per_thread_for(int nx, int rows, int block, int blocks_per_sm, int sm_count) {
  const double resident = static_cast<double>(blocks_per_sm) * block * sm_count;
  const double threads_per_row = static_cast<double>(blocks_for((nx + 3) / 4, block)) * block;
  int r = 16;
  while (r > 1 && threads_per_row * static_cast<double>(blocks_for(rows, r)) < 8 * resident) r /= 2;
  return r;
}

}  // namespace gpgpu::jacobi::cuda
