/// @file tensor_core_layout.hpp
/// @brief The index arithmetic of chapter 10b's tensor-core kernels, as constexpr functions that
/// the host and the device share, so that the CPU tests check exactly what the kernels compute
/// (kernels/blas/cuda/tests/test_tensor_core_layout.cpp):
///
/// - the swizzle of a shared-memory tile (what TMA writes with CU_TENSOR_MAP_SWIZZLE_128B and what
///   wgmma reads with swizzle mode 128B; chapter 10b's mma.sync step lays its tiles out the same
///   way, so the later steps change who writes the tile, not where its elements are);
/// - the wgmma shared-memory matrix descriptor;
/// - the lanes' parts of mma.sync's fragments and of ldmatrix's addresses;
/// - the tiles of C in the order a persistent kernel visits them;
/// - the coordinates of the TMA boxes of a tile and k-step.
///
/// Facts from the PTX ISA (version 9.0) are cited by section name, since the numbering moves.
#pragma once
#include <cstdint>

#include <cuda_runtime_api.h>  // __host__ __device__

#include "grouped_order.hpp"

namespace gpgpu::blas::cuda::tc {

// ---------------------------------------------------------------------------------------------
// Swizzle. A tile whose rows are `span` bytes long (32, 64 or 128) is stored with its 16-byte
// chunks permuted within each row: the chunk index is XORed with bits 7 and up of the byte offset
// (for 128-byte rows, with row % 8). Eight consecutive rows then put a given logical chunk on eight
// different bank groups, so ldmatrix (8 rows x 16 bytes per matrix) and wgmma read without bank
// conflicts, while each 16-byte chunk stays contiguous (cp.async and TMA write whole chunks). The
// pattern repeats every 8 rows (the "atom": 1024 bytes for 128B, 512 for 64B, 256 for 32B), and the
// hardware applies it to the shared-memory address itself: a tile written by TMA or read by wgmma
// must start on an atom boundary (1024 bytes for 128B) for the two to agree with this function.
// ---------------------------------------------------------------------------------------------

/// The swizzle modes, named by their row span. The numeric values are not the hardware's (TMA's
/// CUtensorMapSwizzle and wgmma's descriptor number them differently): see the two functions below.
enum class Swizzle : int { none = 0, b32 = 32, b64 = 64, b128 = 128 };

/// How many chunk-index bits the mode permutes: 3 for 128B (8 chunks per row), 2 for 64B, 1 for 32B.
constexpr __host__ __device__ int swizzle_bits(Swizzle s) {
  return s == Swizzle::b128 ? 3 : s == Swizzle::b64 ? 2 : s == Swizzle::b32 ? 1 : 0;
}

/// The byte offset where logical byte offset `offset` of a swizzled tile is stored (an involution:
/// applying it twice gives `offset` back). Bits 4.. of the offset select the 16-byte chunk, bits 7..
/// the 128-byte line; the chunk bits are XORed with as many line bits.
//! [swizzle]
constexpr __host__ __device__ unsigned swizzle(unsigned offset, Swizzle s) {
  const unsigned mask = (1u << swizzle_bits(s)) - 1u;
  return offset ^ (((offset >> 7) & mask) << 4);
}
//! [swizzle]

/// The stored byte offset of byte `byte` (0 <= byte < span) of row `row` in a tile of `span`-byte
/// rows (span = the mode's span; Swizzle::none: 16-byte rows are not implied, rows of any span).
constexpr __host__ __device__ unsigned swizzled_offset(unsigned row, unsigned byte, unsigned span, Swizzle s) {
  return swizzle(row * span + byte, s);
}

/// CU_TENSOR_MAP_SWIZZLE_* of the CUDA driver API (cuda.h: NONE = 0, 32B = 1, 64B = 2, 128B = 3).
constexpr __host__ __device__ int tensor_map_swizzle(Swizzle s) { return swizzle_bits(s); }

// ---------------------------------------------------------------------------------------------
// The wgmma matrix descriptor (PTX ISA, "Asynchronous Warpgroup Level Matrix Shared Memory Layout:
// Matrix Descriptor"): a 64-bit value that tells wgmma.mma_async where a matrix lies in shared
// memory. Addresses and offsets are in bytes, stored divided by 16 in 14-bit fields:
//   bits  0-13  start address >> 4
//   bits 16-29  leading dimension byte offset >> 4
//   bits 32-45  stride dimension byte offset >> 4
//   bits 49-51  matrix base offset (0 when every swizzle atom starts on its own alignment)
//   bits 62-63  swizzle mode: 0 none, 1 128B, 2 64B, 3 32B (sm_90's numbering)
// ---------------------------------------------------------------------------------------------

struct DescriptorFields {
  unsigned start;    ///< shared-memory byte address (multiple of 16, below 2^18)
  unsigned leading;  ///< leading dimension byte offset (multiple of 16, below 2^18)
  unsigned stride;   ///< stride dimension byte offset (multiple of 16, below 2^18)
  unsigned base_offset;
  Swizzle swizzle;
};

/// wgmma's 2-bit swizzle mode of `s`.
constexpr __host__ __device__ unsigned descriptor_swizzle_mode(Swizzle s) {
  return s == Swizzle::b128 ? 1u : s == Swizzle::b64 ? 2u : s == Swizzle::b32 ? 3u : 0u;
}

//! [descriptor]
constexpr __host__ __device__ std::uint64_t matrix_descriptor(const DescriptorFields& f) {
  constexpr std::uint64_t k14 = 0x3FFF;
  return ((std::uint64_t{f.start} >> 4) & k14) | (((std::uint64_t{f.leading} >> 4) & k14) << 16) |
         (((std::uint64_t{f.stride} >> 4) & k14) << 32) | ((std::uint64_t{f.base_offset} & 0x7) << 49) |
         (std::uint64_t{descriptor_swizzle_mode(f.swizzle)} << 62);
}
//! [descriptor]

/// The descriptor of a K-major operand tile as chapter 10b stages it: rows (M of A, N of B) of 128
/// bytes of K each, with the 128-byte swizzle, from shared byte address `tile` (on a 1024-byte atom
/// boundary), for the k-slice that starts `k_byte` bytes into every row (0, 32, 64, 96: one k-step
/// of 8 TF32 or 16 BF16 elements). The stride byte offset is the distance between groups of 8 rows,
/// one swizzle atom: 1024. The leading byte offset is not used by swizzled K-major layouts (whose
/// K extent per instruction lies inside one 128-byte row); it is set to 16 (field value 1). A k-slice
/// inside the row is addressed by moving the start address alone, because the hardware applies the
/// swizzle to the address bits themselves (bits 4-6 XOR bits 7-9), as the staging did: the CPU test
/// checks that model against swizzled_offset, and the GPU tests of steps 3-10 on the hardware.
//! [kmajor_descriptor]
constexpr __host__ __device__ std::uint64_t kmajor_sw128_descriptor(unsigned tile, unsigned k_byte) {
  return matrix_descriptor({tile + k_byte, 16, 1024, 0, Swizzle::b128});
}
//! [kmajor_descriptor]

/// The fields of a descriptor (the inverse of matrix_descriptor for valid fields).
constexpr __host__ __device__ DescriptorFields decode_descriptor(std::uint64_t d) {
  constexpr Swizzle kModes[4] = {Swizzle::none, Swizzle::b128, Swizzle::b64, Swizzle::b32};
  return {static_cast<unsigned>(d & 0x3FFF) << 4, static_cast<unsigned>((d >> 16) & 0x3FFF) << 4,
          static_cast<unsigned>((d >> 32) & 0x3FFF) << 4, static_cast<unsigned>((d >> 49) & 0x7), kModes[d >> 62]};
}

// ---------------------------------------------------------------------------------------------
// mma.sync fragments (PTX ISA, "Matrix Fragments for mma.m16n8k8" and "... mma.m16n8k16 with
// floating point type"). A warp's 32 lanes each hold a few elements of A (16 x K), B (K x 8) and
// C (16 x 8); lane l is in group g = l / 4, with index t = l % 4 in its group. One 32-bit register
// holds one TF32 element or two BF16 elements (the lower k in the lower half).
// ---------------------------------------------------------------------------------------------

struct RowCol {
  int row;
  int col;
};

/// C and D of both shapes: element i (0..3) of lane l is at row g (i < 2) or g + 8, column 2t + i % 2.
constexpr __host__ __device__ RowCol mma_c_element(int lane, int i) {
  return {lane / 4 + (i / 2) * 8, (lane % 4) * 2 + i % 2};
}

/// B of m16n8k8.tf32 (8 x 8): element i (0, 1) of lane l is at row (k) t + 4i, column (n) g.
constexpr __host__ __device__ RowCol mma_tf32_b_element(int lane, int i) { return {lane % 4 + 4 * i, lane / 4}; }

/// wgmma's FP32 accumulator of m64nNk* (PTX ISA, "Asynchronous Warpgroup Level Matrix Register
/// Fragment", the D matrix): the 128 threads of a warpgroup hold D (64 x N); warp w = thread / 32
/// holds rows 16w .. 16w + 15, and holds each 8-column slice of them as mma.sync's 16 x 8
/// accumulator: register r (0 .. N/2 - 1) is element r % 4 of slice r / 4.
constexpr __host__ __device__ RowCol wgmma_d_element(int thread, int reg) {
  const RowCol e = mma_c_element(thread % 32, reg % 4);
  return {16 * (thread / 32) + e.row, 8 * (reg / 4) + e.col};
}

/// ldmatrix .x4 loads four 8 x 16-byte matrices; lanes 8j..8j+7 give the addresses of matrix j's
/// rows, and register j of every lane receives a part of matrix j (PTX ISA, "Warp-level matrix load
/// instruction: ldmatrix"). For a 16-row x 32-byte block, matrices 0..3 are the rows 0-7 and 8-15 of
/// chunk 0, then of chunk 1: the row and 16-byte chunk whose address lane `lane` gives. With that
/// order the four registers are exactly the A fragment of m16n8k8.tf32 (a0..a3: row g or g + 8,
/// column t or t + 4) and of m16n8k16.bf16 (rows g or g + 8, columns 2t.. or 2t + 8..); and, with
/// .trans on a 16 (k) x 16 (n) BF16 block of row-major B, the B fragments of two n8 tiles.
struct RowChunk {
  int row;
  int chunk;
};
//! [ldmatrix_lane]
constexpr __host__ __device__ RowChunk ldmatrix_x4_row(int lane) { return {lane % 8 + 8 * (lane / 8 % 2), lane / 16}; }
//! [ldmatrix_lane]

// stmatrix .x4 (PTX ISA, "Warp-level matrix store instruction: stmatrix") stores four 8 x 16-byte
// matrices and takes its row addresses as ldmatrix .x4 does: lanes 8j..8j+7 give matrix j's rows,
// so ldmatrix_x4_row(lane) names the row and 16-byte chunk lane `lane` points at. Register j of
// every lane holds two 16-bit elements of matrix j at row lane / 4, columns 2 (lane % 4) and + 1:
// mma_c_element's pattern, so a BF16-packed pair of accumulators goes in as it is.

// ---------------------------------------------------------------------------------------------
// C through shared memory (chapter 10b's step 11). A consumer warpgroup's 64-row slab of C is staged in shared
// memory as TMA boxes of 64 rows x 128 bytes (64 BF16 or 32 FP32 columns) side by side, each box
// 128B-swizzled as the tensor map of C says (CU_TENSOR_MAP_SWIZZLE_128B, box rows 64), so one
// cp.async.bulk.tensor store per box writes it out. The swizzle is what makes the accumulators'
// store conflict-free: the 8 rows of an 8-column slice (what a warp writes with one instruction)
// land in 8 different 16-byte bank groups, as for the operand tiles.
// ---------------------------------------------------------------------------------------------

/// Rows of one C box (and of a consumer warpgroup's slab).
constexpr int kCBoxRows = 64;

/// The byte offset of element (row, col) (row < kCBoxRows, col counted from the first box's first
/// column) in boxes of 128-byte rows of `element_bytes`-byte elements: box col·bytes / 128, then the
/// 128B swizzle of its offset within the box.
//! [c_staging_offset]
constexpr __host__ __device__ unsigned c_staging_offset(int row, int col, int element_bytes) {
  const unsigned byte = static_cast<unsigned>(col * element_bytes);
  return byte / 128 * (kCBoxRows * 128) + swizzled_offset(static_cast<unsigned>(row), byte % 128, 128, Swizzle::b128);
}
//! [c_staging_offset]

// ---------------------------------------------------------------------------------------------
// The tiles of C. A tile_m x tile_n tile per work item; tails (m or n not a multiple of the tile)
// are partial tiles, which the kernels bound-check. A persistent kernel launches one block per SM
// and walks the tile indices with a stride of the grid; the index order is grouped, as chapter 10's
// prefetch step: group_m tile rows form a group, walked column by column (down the group's rows
// first), so the blocks working at the same time share A's rows and B's columns in L2.
// ---------------------------------------------------------------------------------------------

struct TileGrid {
  int tiles_m;
  int tiles_n;
  int group_m;
};

constexpr __host__ __device__ int tiles_for(int extent, int tile) { return (extent + tile - 1) / tile; }

constexpr __host__ __device__ TileGrid tile_grid(int m, int n, int tile_m, int tile_n, int group_m) {
  return {tiles_for(m, tile_m), tiles_for(n, tile_n), group_m};
}

constexpr __host__ __device__ int tile_count(const TileGrid& g) { return g.tiles_m * g.tiles_n; }

/// The (tile row, tile column) of tile index `index` (0 <= index < tile_count): chapter 10's grouped
/// order (grouped_order.hpp), which its prefetch step applies to block numbers.
//! [tile_of]
constexpr __host__ __device__ RowCol tile_of(const TileGrid& g, int index) {
  RowCol t{};
  grouped_position(index, g.tiles_m, g.tiles_n, g.group_m, t.row, t.col);
  return t;
}
//! [tile_of]

// ---------------------------------------------------------------------------------------------
// Stream-K for the last waves (step 10). A persistent grid of W workers (clusters) over T tiles of
// S k-steps each runs ceil(T / W) rounds; the last holds T mod W tiles, and the other workers wait.
// Here the tiles of all rounds but the last two go whole, round robin, as in step 9; the k-steps of
// the remaining tiles (between W + 1 and 2W - 1 of them) are laid end to end, tile after tile, and
// cut into W equal ranges, one per worker, so every worker ends at nearly the same time. A range
// holds at least S k-steps (U / W >= (W + 1)·S / W), so a tile is cut at most once: a "head" (k-steps 0 .. x - 1, the last
// piece of one worker) and a "tail" (x .. S - 1, the first piece of the next range's worker). The
// ranges are dealt from the end, so the tail's worker has the lower number: it stores its partial
// sums to C first and raises a flag; the head's worker, whose piece comes last, waits for the flag
// and adds its sums to C. Where T <= W or W divides T, every tile goes whole.
// ---------------------------------------------------------------------------------------------

struct StreamK {
  int tiles;       ///< tiles of C (step 10: pairs of tiles, one per cluster)
  int workers;     ///< workers in the grid (step 10: clusters)
  int steps;       ///< k-steps per tile
  int whole;       ///< tiles 0 .. whole - 1 go whole, tile w + i·workers to worker w
  long long units; ///< the k-steps of the other tiles, dealt out in ranges
};

//! [stream_k_plan]
constexpr __host__ __device__ StreamK stream_k_plan(int tiles, int workers, int steps) {
  const int whole = tiles <= workers || tiles % workers == 0 ? tiles : (tiles / workers - 1) * workers;
  return {tiles, workers, steps, whole, static_cast<long long>(tiles - whole) * steps};
}
//! [stream_k_plan]

/// k-steps k_begin .. k_end - 1 of tile `tile`: whole (0 .. steps), a head (0 .. x) or a tail (x .. steps).
struct Piece {
  int tile;
  int k_begin;
  int k_end;
};

/// Where a worker is in its list: the next whole tile, then its range of units [unit, end).
struct WorkCursor {
  int next_whole;
  long long unit;
  long long end;
};

constexpr __host__ __device__ WorkCursor first_work(const StreamK& p, int worker) {
  const long long w = p.workers;  // range r of W is [r·U / W, (r + 1)·U / W); worker w gets range W - 1 - w
  return {worker, p.units * (w - 1 - worker) / w, p.units * (w - worker) / w};
}

/// The worker's next piece into `piece`; false when it has none left.
//! [next_piece]
constexpr __host__ __device__ bool next_piece(const StreamK& p, WorkCursor& c, Piece& piece) {
  if (c.next_whole < p.whole) {
    piece = {c.next_whole, 0, p.steps};
    c.next_whole += p.workers;
    return true;
  }
  if (c.unit >= c.end) return false;
  const int tile = static_cast<int>(c.unit / p.steps), k_begin = static_cast<int>(c.unit % p.steps);
  const long long left = c.end - c.unit;
  const int k_end = left < p.steps - k_begin ? k_begin + static_cast<int>(left) : p.steps;
  piece = {p.whole + tile, k_begin, k_end};
  c.unit += k_end - k_begin;
  return true;
}
//! [next_piece]

/// The number of a cut tile among the cut ones (0 .. tiles - whole - 1), which names its flag.
constexpr __host__ __device__ int cut_index(const StreamK& p, const Piece& piece) { return piece.tile - p.whole; }

// ---------------------------------------------------------------------------------------------
// TMA boxes (cp.async.bulk.tensor, PTX ISA "Tensor Access Modes: Tiled mode"). A tensor map lists
// dimensions innermost (contiguous) first, so a row-major rows x cols matrix is {cols, rows} and a
// box's coordinates are {column, row} of its first element. Elements of a box outside the tensor
// are filled with zeros, and the whole box counts towards the mbarrier's transaction bytes.
// ---------------------------------------------------------------------------------------------

struct BoxCoord {
  int inner;  ///< column of the box's first element (the contiguous dimension)
  int outer;  ///< its row
};

/// The box of A (row-major m x k, box box_k x box_m) for tile row `tile_m` and k-step `k_step`.
constexpr __host__ __device__ BoxCoord a_box(int tile_m, int k_step, int box_m, int box_k) {
  return {k_step * box_k, tile_m * box_m};
}

/// The box of B (row-major k x n, box box_n x box_k) for tile column `tile_n`, k-step `k_step` and
/// column panel `panel` (a tile of tile_n columns is tile_n / box_n boxes side by side, since a
/// swizzled box's row may be at most the swizzle span: 128 bytes).
constexpr __host__ __device__ BoxCoord b_box(int tile_n, int k_step, int panel, int tile_n_size, int box_n, int box_k) {
  return {tile_n * tile_n_size + panel * box_n, k_step * box_k};
}

/// The bytes a box of box_inner x box_outer elements of `element_bytes` brings: what the consumer's
/// mbarrier expects per box, partial boxes included.
constexpr __host__ __device__ unsigned box_bytes(int box_inner, int box_outer, int element_bytes) {
  return static_cast<unsigned>(box_inner * box_outer * element_bytes);
}

// ---------------------------------------------------------------------------------------------
// mbarrier phases (PTX ISA, "Parallel Synchronization and Communication Instructions: mbarrier").
// An mbarrier counts arrivals and transaction bytes of its current phase; when both are done, the
// phase completes and the next begins. mbarrier.try_wait.parity waits for the completion of the
// phase whose parity (0 for even, 1 for odd phases) it is given. A kernel with `stages` buffers,
// each with its own mbarrier, uses buffer k_step % stages for k-step k_step, and that buffer's
// barrier completes once per use: use u = k_step / stages waits for parity u % 2.
// ---------------------------------------------------------------------------------------------

struct StagePhase {
  int stage;          ///< the buffer (and its mbarrier)
  unsigned parity;    ///< the phase parity to wait for
};

//! [stage_phase]
constexpr __host__ __device__ StagePhase stage_phase(int k_step, int stages) {
  return {k_step % stages, static_cast<unsigned>(k_step / stages) & 1u};
}
//! [stage_phase]

}  // namespace gpgpu::blas::cuda::tc
