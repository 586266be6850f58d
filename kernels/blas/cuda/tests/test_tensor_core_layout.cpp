// Chapter 10b's index arithmetic (tensor_core_layout.hpp) on the CPU, each function against an
// independent statement of what it must compute: the swizzle against the row XOR formula of the
// TMA swizzle patterns, the descriptor against the PTX ISA's bit table, the ldmatrix addresses
// against a simulation of ldmatrix and the mma fragment tables of the PTX ISA (through a swizzled
// tile, as the kernel reads it), the tile order and the TMA boxes by counting what they cover.
// No GPU needed (label cpu): what it cannot say is whether the hardware agrees with the PTX ISA as
// read here; the GPU tests of the chapter say that.
#include "blas/cuda/tensor_core_layout.hpp"
#include "blas/cuda/tma_map.hpp"

#include <cuda.h>  // CUtensorMapSwizzle (the enum only: nothing is linked)

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gpgpu::blas::cuda::tc {
namespace {

constexpr Swizzle kModes[] = {Swizzle::b32, Swizzle::b64, Swizzle::b128};

// The TMA swizzle patterns stated per row: a `span`-byte row r keeps its bytes within 16-byte
// chunks, and chunk c moves to c XOR (the row's line index within the pattern): r % 8 for 128-byte
// rows, (r / 2) % 4 for 64-byte rows (two rows per 128-byte line), (r / 4) % 2 for 32-byte rows.
unsigned by_rows(unsigned row, unsigned byte, Swizzle s) {
  const unsigned span = static_cast<unsigned>(s);
  const unsigned line = row * span / 128;
  const unsigned chunks = span / 16;
  return row * span + ((byte / 16) ^ (line % chunks)) * 16 + byte % 16;
}

TEST(Swizzle, MatchesTheRowXorFormula) {
  for (Swizzle s : kModes)
    for (unsigned row = 0; row < 64; ++row)
      for (unsigned byte = 0; byte < static_cast<unsigned>(s); ++byte)
        ASSERT_EQ(swizzled_offset(row, byte, static_cast<unsigned>(s), s), by_rows(row, byte, s))
            << static_cast<int>(s) << "B, row " << row << ", byte " << byte;
}

// Within each atom (8 lines of 128 bytes for 128B, 512 bytes for 64B, 256 for 32B) the swizzle is a
// permutation of whole 16-byte chunks that stays in the atom, and applying it twice undoes it.
TEST(Swizzle, PermutesChunksWithinEachAtom) {
  for (Swizzle s : kModes) {
    const unsigned atom = 16u << (swizzle_bits(s) + 3);
    ASSERT_EQ(atom, 8 * static_cast<unsigned>(s));
    for (unsigned base = 0; base < 4 * atom; base += atom) {
      std::set<unsigned> seen;
      for (unsigned offset = base; offset < base + atom; ++offset) {
        const unsigned to = swizzle(offset, s);
        ASSERT_GE(to, base);
        ASSERT_LT(to, base + atom);
        ASSERT_EQ(to % 16, offset % 16);
        ASSERT_EQ(swizzle(to, s), offset);
        seen.insert(to);
      }
      ASSERT_EQ(seen.size(), atom);
    }
  }
  EXPECT_EQ(swizzle(12345, Swizzle::none), 12345u);
}

// Why the kernels swizzle: the same logical chunk of 8 consecutive 128-byte rows (what ldmatrix
// reads as one matrix) falls on 8 different 16-byte bank groups, so the 32 banks serve it at once.
TEST(Swizzle, EightRowsOfAChunkHitEightBankGroups) {
  for (unsigned row0 = 0; row0 < 64; row0 += 8)
    for (unsigned chunk = 0; chunk < 8; ++chunk) {
      std::set<unsigned> groups;
      for (unsigned r = row0; r < row0 + 8; ++r) groups.insert(swizzled_offset(r, chunk * 16, 128, Swizzle::b128) / 16 % 8);
      ASSERT_EQ(groups.size(), 8u) << "rows " << row0 << "+, chunk " << chunk;
    }
}

TEST(Swizzle, TensorMapEnumIsTheDriversOne) {
  EXPECT_EQ(tensor_map_swizzle(Swizzle::none), CU_TENSOR_MAP_SWIZZLE_NONE);
  EXPECT_EQ(tensor_map_swizzle(Swizzle::b32), CU_TENSOR_MAP_SWIZZLE_32B);
  EXPECT_EQ(tensor_map_swizzle(Swizzle::b64), CU_TENSOR_MAP_SWIZZLE_64B);
  EXPECT_EQ(tensor_map_swizzle(Swizzle::b128), CU_TENSOR_MAP_SWIZZLE_128B);
}

// Each field at the bits the PTX ISA's descriptor table gives it, one field at a time.
TEST(Descriptor, FieldsAtTheDocumentedBits) {
  EXPECT_EQ(matrix_descriptor({16, 0, 0, 0, Swizzle::none}), 1u);
  EXPECT_EQ(matrix_descriptor({0x3FFF0, 0, 0, 0, Swizzle::none}), 0x3FFFu);
  EXPECT_EQ(matrix_descriptor({0, 16, 0, 0, Swizzle::none}), std::uint64_t{1} << 16);
  EXPECT_EQ(matrix_descriptor({0, 0x3FFF0, 0, 0, Swizzle::none}), std::uint64_t{0x3FFF} << 16);
  EXPECT_EQ(matrix_descriptor({0, 0, 16, 0, Swizzle::none}), std::uint64_t{1} << 32);
  EXPECT_EQ(matrix_descriptor({0, 0, 0x3FFF0, 0, Swizzle::none}), std::uint64_t{0x3FFF} << 32);
  EXPECT_EQ(matrix_descriptor({0, 0, 0, 7, Swizzle::none}), std::uint64_t{7} << 49);
  EXPECT_EQ(matrix_descriptor({0, 0, 0, 0, Swizzle::b128}), std::uint64_t{1} << 62);
  EXPECT_EQ(matrix_descriptor({0, 0, 0, 0, Swizzle::b64}), std::uint64_t{2} << 62);
  EXPECT_EQ(matrix_descriptor({0, 0, 0, 0, Swizzle::b32}), std::uint64_t{3} << 62);
  // The 4 low bits of addresses and offsets are dropped (they must be zero), not carried.
  EXPECT_EQ(matrix_descriptor({15, 15, 15, 0, Swizzle::none}), 0u);
}

// Valid fields (multiples of 16 below 2^18) decode back; the reserved bits stay zero.
TEST(Descriptor, DecodesBack) {
  constexpr std::uint64_t kReserved = (std::uint64_t{3} << 14) | (std::uint64_t{3} << 30) | (std::uint64_t{7} << 46) |
                                      (std::uint64_t{0x3FF} << 52);
  for (unsigned start = 0; start < (1u << 18); start += 16 * 37)
    for (unsigned leading : {0u, 16u, 128u, 1024u, 0x3FFF0u})
      for (unsigned stride : {16u, 1024u, 8192u, 0x3FFF0u})
        for (Swizzle s : {Swizzle::none, Swizzle::b32, Swizzle::b64, Swizzle::b128}) {
          const std::uint64_t d = matrix_descriptor({start, leading, stride, 0, s});
          ASSERT_EQ(d & kReserved, 0u);
          const DescriptorFields f = decode_descriptor(d);
          ASSERT_EQ(f.start, start);
          ASSERT_EQ(f.leading, leading);
          ASSERT_EQ(f.stride, stride);
          ASSERT_EQ(f.base_offset, 0u);
          ASSERT_EQ(f.swizzle, s);
        }
}

// The K-major descriptor of a 64-row tile at a 1024-byte boundary, read as the hardware is modelled
// (tensor_core_layout.hpp): element byte b of row r of the k-slice is at start + (r / 8) * stride +
// (r % 8) * 128 + b, then swizzled on the address bits. That must be where the staging put it
// (swizzled_offset of byte k_byte + b of row r), for every k-slice; and moving k by 32 bytes adds 2 to
// the start field and changes nothing else.
TEST(Descriptor, KMajorSliceReadsWhatTheStagingWrote) {
  for (unsigned tile : {0u, 1024u, 0x3F000u})
    for (unsigned k_byte : {0u, 32u, 64u, 96u}) {
      const std::uint64_t d = kmajor_sw128_descriptor(tile, k_byte);
      const DescriptorFields f = decode_descriptor(d);
      ASSERT_EQ(f.swizzle, Swizzle::b128);
      if (k_byte > 0) {
        ASSERT_EQ(d, kmajor_sw128_descriptor(tile, k_byte - 32) + 2);
      }
      for (unsigned r = 0; r < 64; ++r)
        for (unsigned b = 0; b < 32; ++b) {
          const unsigned address = f.start + (r / 8) * f.stride + (r % 8) * 128 + b;
          ASSERT_EQ(swizzle(address, Swizzle::b128) - tile, swizzled_offset(r, k_byte + b, 128, Swizzle::b128))
              << "row " << r << ", k byte " << k_byte + b;
        }
    }
}

// wgmma's m64nN accumulator: every element of 64 x N once, warp w on rows 16w.., the same lanes as
// the mma.sync accumulator in each 8-column slice (PTX ISA's figure for the D fragment).
TEST(Fragments, WgmmaAccumulatorCoversOnce) {
  for (int n : {8, 64, 128, 256}) {
    std::vector<int> d(64 * static_cast<std::size_t>(n), 0);
    for (int thread = 0; thread < 128; ++thread)
      for (int reg = 0; reg < n / 2; ++reg) {
        const RowCol e = wgmma_d_element(thread, reg);
        const int lane = thread % 32, g = lane / 4, t = lane % 4, i = reg % 4;
        ASSERT_EQ(e.row, 16 * (thread / 32) + g + 8 * (i / 2));
        ASSERT_EQ(e.col, 8 * (reg / 4) + 2 * t + i % 2);
        ASSERT_LT(e.col, n);
        ++d[static_cast<std::size_t>(e.row * n + e.col)];
      }
    for (int h : d) ASSERT_EQ(h, 1) << "n = " << n;
  }
}

// The accumulator and TF32 B fragments cover their matrices once, as the PTX ISA's tables state them.
TEST(Fragments, AccumulatorAndTf32BCoverOnce) {
  std::vector<int> c(16 * 8, 0), b(8 * 8, 0);
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane >> 2, t = lane % 4;
    for (int i = 0; i < 4; ++i) {
      const RowCol e = mma_c_element(lane, i);
      ASSERT_EQ(e.row, i < 2 ? g : g + 8);
      ASSERT_EQ(e.col, t * 2 + (i & 1));
      ++c[e.row * 8 + e.col];
    }
    for (int i = 0; i < 2; ++i) {
      const RowCol e = mma_tf32_b_element(lane, i);
      ASSERT_EQ(e.row, i == 0 ? t : t + 4);
      ASSERT_EQ(e.col, g);
      ++b[e.row * 8 + e.col];
    }
  }
  for (int h : c) ASSERT_EQ(h, 1);
  for (int h : b) ASSERT_EQ(h, 1);
}

// ldmatrix as the PTX ISA describes it, on a byte array standing for shared memory: lane 8j + r
// gives the address of row r of matrix j; without .trans, lane l's register j is the 32-bit word
// 4 * (l % 4) bytes into row l / 4 of matrix j; with .trans, it is the two 16-bit elements of
// column l / 4 in rows 2 (l % 4) and 2 (l % 4) + 1, the lower row in the lower half.
struct Ldmatrix {
  std::uint32_t reg[32][4];
};
Ldmatrix ldmatrix_x4(const std::vector<unsigned char>& smem, const unsigned (&address)[32], bool trans) {
  Ldmatrix out{};
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < 4; ++j) {
      if (!trans) {
        std::memcpy(&out.reg[lane][j], &smem[address[8 * j + lane / 4] + 4 * (lane % 4)], 4);
      } else {
        std::uint16_t lo, hi;
        std::memcpy(&lo, &smem[address[8 * j + 2 * (lane % 4)] + 2 * (lane / 4)], 2);
        std::memcpy(&hi, &smem[address[8 * j + 2 * (lane % 4) + 1] + 2 * (lane / 4)], 2);
        out.reg[lane][j] = lo | std::uint32_t{hi} << 16;
      }
    }
  return out;
}

// A 16-row tile of 128-byte rows stored with the 128B swizzle, element (r, c) holding a label of
// (r, c); and the addresses ldmatrix_x4_row gives for the 16 x 32-byte block at column chunk `chunk0`.
template <typename Label>
std::vector<unsigned char> labelled_tile(int rows) {
  constexpr int per_row = 128 / static_cast<int>(sizeof(Label));
  std::vector<unsigned char> smem(static_cast<std::size_t>(rows) * 128);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < per_row; ++c) {
      const Label label = static_cast<Label>(r * per_row + c);
      std::memcpy(&smem[swizzled_offset(r, c * sizeof(Label), 128, Swizzle::b128)], &label, sizeof(Label));
    }
  return smem;
}
void block_addresses(int row0, int chunk0, unsigned (&address)[32]) {
  for (int lane = 0; lane < 32; ++lane) {
    const RowChunk rc = ldmatrix_x4_row(lane);
    address[lane] = swizzled_offset(row0 + rc.row, (chunk0 + rc.chunk) * 16, 128, Swizzle::b128);
  }
}

// Every 16 x 32-byte block of a labelled 32-row tile through ldmatrix .x4 (`trans` or not): register
// j of each lane must hold want(lane, j, row0, chunk0), the block's first row and 16-byte chunk.
template <typename Label, typename Want>
void every_block_loads(bool trans, Want want) {
  const auto smem = labelled_tile<Label>(32);
  for (int row0 : {0, 16})
    for (int chunk0 = 0; chunk0 < 8; chunk0 += 2) {
      unsigned address[32];
      block_addresses(row0, chunk0, address);
      const Ldmatrix got = ldmatrix_x4(smem, address, trans);
      for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < 4; ++j)
          ASSERT_EQ(got.reg[lane][j], want(lane, j, row0, chunk0)) << "rows " << row0 << "+, chunk " << chunk0 << ", lane " << lane << ", register " << j;
    }
}

// Two 16-bit labels as one register, the first in the lower half.
std::uint32_t pair(int lo, int hi) { return static_cast<std::uint32_t>(lo) | static_cast<std::uint32_t>(hi) << 16; }

// TF32 A (m16n8k8): register j of lane l is a_j: row g (j even) or g + 8, column t (j < 2) or t + 4.
TEST(Fragments, LdmatrixGivesTheTf32AFragment) {
  every_block_loads<std::uint32_t>(false, [](int lane, int j, int row0, int chunk0) {
    const int row = row0 + lane / 4 + (j % 2) * 8, col = chunk0 * 4 + lane % 4 + (j / 2) * 4;
    return static_cast<std::uint32_t>(row * 32 + col);
  });
}

// BF16 A (m16n8k16): register j of lane l holds a_{2j}, a_{2j+1}: row g (j even) or g + 8, columns
// 2t, 2t + 1 (j < 2) or 2t + 8, 2t + 9.
TEST(Fragments, LdmatrixGivesTheBf16AFragment) {
  every_block_loads<std::uint16_t>(false, [](int lane, int j, int row0, int chunk0) {
    const int row = row0 + lane / 4 + (j % 2) * 8, col = chunk0 * 8 + (lane % 4) * 2 + (j / 2) * 8;
    return pair(row * 64 + col, row * 64 + col + 1);
  });
}

// BF16 B (m16n8k16) from row-major B (rows k, columns n) with .trans: registers 0, 1 of lane l hold
// b0, b1 and b2, b3 of the n8 tile at the block's first column (b_i: row 2t + i or 2t + 8 + i - 2,
// column g), registers 2, 3 the same for the n8 tile 8 columns on.
TEST(Fragments, LdmatrixTransGivesTwoBf16BFragments) {
  every_block_loads<std::uint16_t>(true, [](int lane, int j, int row0, int chunk0) {
    const int k = row0 + (lane % 4) * 2 + (j % 2) * 8, n = chunk0 * 8 + lane / 4 + (j / 2) * 8;
    return pair(k * 64 + n, (k + 1) * 64 + n);
  });
}

// Every index of the grouped order is a different tile inside the grid, and the persistent loop of
// a grid of `blocks` visits each tile once: at awkward sizes, one tile and fewer, group sizes that
// do and do not divide the tile rows.
TEST(TileOrder, EveryTileOnceAtAwkwardSizes) {
  for (int m : {1, 17, 128, 1023, 4097})
    for (int n : {1, 17, 256, 1023, 4097})
      for (const auto& [tm, tn] : {std::pair{128, 128}, std::pair{128, 256}, std::pair{256, 128}})
        for (int group : {1, 3, 8}) {
          const TileGrid g = tile_grid(m, n, tm, tn, group);
          ASSERT_EQ(g.tiles_m, (m + tm - 1) / tm);
          ASSERT_EQ(g.tiles_n, (n + tn - 1) / tn);
          std::vector<int> hits(static_cast<std::size_t>(tile_count(g)), 0);
          for (int blocks : {1, 7, 132}) {
            std::fill(hits.begin(), hits.end(), 0);
            for (int b = 0; b < blocks; ++b)
              for (int index = b; index < tile_count(g); index += blocks) {
                const RowCol t = tile_of(g, index);
                ASSERT_TRUE(t.row >= 0 && t.row < g.tiles_m && t.col >= 0 && t.col < g.tiles_n) << m << " x " << n << ": " << index;
                ++hits[static_cast<std::size_t>(t.row * g.tiles_n + t.col)];
              }
            for (int h : hits) ASSERT_EQ(h, 1) << m << " x " << n << ", tiles " << tm << " x " << tn << ", group " << group;
          }
        }
}

// The order walks down a group's rows before the next column: consecutive indices share a column
// (B's tile stays in L2) until the group's rows are done; the last, short group likewise.
TEST(TileOrder, WalksDownTheGroupFirst) {
  const TileGrid g = tile_grid(10 * 128, 5 * 128, 128, 128, 4);  // groups of 4, 4 and 2 rows
  EXPECT_EQ(tile_of(g, 0).row, 0);
  EXPECT_EQ(tile_of(g, 1).row, 1);
  EXPECT_EQ(tile_of(g, 1).col, 0);
  EXPECT_EQ(tile_of(g, 4).row, 0);
  EXPECT_EQ(tile_of(g, 4).col, 1);
  EXPECT_EQ(tile_of(g, 20).row, 4);  // the second group begins after 4 x 5 tiles
  EXPECT_EQ(tile_of(g, 40).row, 8);  // the short last group: rows 8, 9
  EXPECT_EQ(tile_of(g, 41).row, 9);
  EXPECT_EQ(tile_of(g, 42).row, 8);
  EXPECT_EQ(tile_of(g, 42).col, 1);
  EXPECT_EQ(tile_of(g, 49).row, 9);
  EXPECT_EQ(tile_of(g, 49).col, 4);
}

// Stream-K's plan (step 10) at awkward counts: every k-step of every tile goes to exactly one
// worker; a cut tile has one head (k-steps from 0) and one tail (to the last), the tail's worker
// numbered lower (so a GPU that started the workers in order would never leave a head waiting on a
// worker not yet started), the tail its worker's first cut piece and the head its worker's last
// piece (the wait comes after all else); the workers' k-steps differ by at most one where tiles are
// cut; the flags needed fit 2W - 1.
TEST(StreamK, EveryKStepOnceEachCutTileOneHeadThenOneTail) {
  for (int tiles : {1, 2, 5, 65, 66, 67, 100, 131, 132, 133, 289, 1024, 2048})
    for (int workers : {1, 2, 3, 7, 66})
      for (int steps : {1, 2, 3, 5, 64, 129}) {
        const StreamK p = stream_k_plan(tiles, workers, steps);
        const std::string at = std::to_string(tiles) + " tiles, " + std::to_string(workers) + " workers, " + std::to_string(steps) + " steps";
        ASSERT_TRUE(p.whole == tiles || (p.whole % workers == 0 && tiles - p.whole > workers && tiles - p.whole < 2 * workers)) << at;
        std::vector<int> hits(static_cast<std::size_t>(tiles) * steps, 0);
        std::vector<int> head_worker(static_cast<std::size_t>(tiles), -1), tail_worker(static_cast<std::size_t>(tiles), -1);
        long long least = -1, most = 0;
        for (int w = 0; w < workers; ++w) {
          WorkCursor c = first_work(p, w);
          std::vector<Piece> mine;
          for (Piece piece{}; next_piece(p, c, piece);) mine.push_back(piece);
          long long units = 0;
          for (std::size_t i = 0; i < mine.size(); ++i) {
            const Piece& q = mine[i];
            ASSERT_TRUE(q.tile >= 0 && q.tile < tiles && q.k_begin >= 0 && q.k_begin < q.k_end && q.k_end <= steps) << at;
            for (int s = q.k_begin; s < q.k_end; ++s) ++hits[static_cast<std::size_t>(q.tile) * steps + s];
            units += q.k_end - q.k_begin;
            if (q.k_begin == 0 && q.k_end == steps) continue;
            ASSERT_GE(q.tile, p.whole) << at;
            ASSERT_LT(cut_index(p, q), 2 * workers - 1) << at;
            if (q.k_begin > 0) {
              ASSERT_EQ(q.k_end, steps) << at;  // never a middle piece
              ASSERT_TRUE(i == 0 || mine[i - 1].tile < p.whole) << at << ": a tail after other cut pieces";
              tail_worker[static_cast<std::size_t>(q.tile)] = w;
            } else {
              ASSERT_EQ(i + 1, mine.size()) << at << ": a head before the worker's last piece";
              head_worker[static_cast<std::size_t>(q.tile)] = w;
            }
          }
          least = least < 0 ? units : std::min(least, units);
          most = std::max(most, units);
        }
        for (int h : hits) ASSERT_EQ(h, 1) << at;
        for (int t = 0; t < tiles; ++t) {
          const int head = head_worker[static_cast<std::size_t>(t)], tail = tail_worker[static_cast<std::size_t>(t)];
          ASSERT_EQ(head < 0, tail < 0) << at << ", tile " << t;
          if (head >= 0) {
            ASSERT_LT(tail, head) << at << ", tile " << t;
          }
        }
        if (p.whole < tiles) {
          ASSERT_LE(most - least, 1) << at;
        }
      }
}

// 8192³ in BF16 on 66 clusters: 1024 pairs of tiles, 128 k-steps. Whole tiles for 14 rounds (924),
// the last 100 tiles' 12800 k-steps in ranges of 193 or 194: 15.5 rounds' time instead of 16.
TEST(StreamK, PlanOf8192OnAnH100) {
  const StreamK p = stream_k_plan(1024, 66, 128);
  EXPECT_EQ(p.whole, 924);
  EXPECT_EQ(p.units, 100 * 128);
  EXPECT_EQ(stream_k_plan(1056, 66, 128).whole, 1056);  // 16 full rounds: nothing to cut
  EXPECT_EQ(stream_k_plan(50, 66, 128).whole, 50);      // fewer tiles than workers
}

// The boxes of a tile's k-steps start inside the tensor and, together, cover exactly the tile's
// rows by [0, k) of A and [0, k) by the tile's columns of B (partial boxes are zero-filled by TMA);
// the bytes a box brings do not depend on where it is.
TEST(TmaBoxes, CoverTheTileAndK) {
  constexpr int BM = 128, BN = 128, BK = 64, kPanel = 64;  // BF16: 64 elements = one 128-byte swizzle row
  for (int m : {1, 17, 129})
    for (int n : {1, 65, 200})
      for (int k : {1, 63, 64, 1023}) {
        const TileGrid g = tile_grid(m, n, BM, BN, 1);
        const int k_steps = tiles_for(k, BK);
        for (int index = 0; index < tile_count(g); ++index) {
          const RowCol t = tile_of(g, index);
          std::vector<int> a_hits(static_cast<std::size_t>(BM) * k, 0), b_hits(static_cast<std::size_t>(k) * BN, 0);
          for (int s = 0; s < k_steps; ++s) {
            const BoxCoord a = a_box(t.row, s, BM, BK);
            ASSERT_LT(a.inner, k);
            ASSERT_LT(a.outer, m);
            for (int r = a.outer; r < a.outer + BM; ++r)
              for (int c = a.inner; c < a.inner + BK && c < k; ++c) ++a_hits[static_cast<std::size_t>((r - t.row * BM) * k + c)];
            for (int p = 0; p < BN / kPanel; ++p) {
              const BoxCoord b = b_box(t.col, s, p, BN, kPanel, BK);
              ASSERT_LT(b.outer, k);
              for (int r = b.outer; r < b.outer + BK && r < k; ++r)
                for (int c = b.inner; c < b.inner + kPanel; ++c) ++b_hits[static_cast<std::size_t>(r * BN + c - t.col * BN)];
            }
          }
          for (int h : a_hits) ASSERT_EQ(h, 1);
          for (int h : b_hits) ASSERT_EQ(h, 1);
        }
      }
  EXPECT_EQ(box_bytes(64, 128, 2), 16384u);
  EXPECT_EQ(box_bytes(32, 128, 4), 16384u);
}

// The tensor maps of steps 4 to 8 (tma_map.hpp), with the pitch of every k from 1 to 300, against cuTensorMapEncodeTiled's documented limits (CUDA
// driver API): row stride a multiple of 16 bytes below 2^40, dimensions 1 .. 2^32 innermost first,
// box dimensions 1 .. 256, the box's inner bytes a multiple of 16 and exactly the 128-byte swizzle
// span (so that one box row is one swizzled tile row, as wgmma's descriptor reads it); and the box
// is the tile the kernel expects: box_bytes of it is box_rows rows of 128 bytes.
TEST(TmaMap, WithinTheDriversLimitsAtEveryK) {
  for (int bytes : {4, 2})
    for (long long rows : {1LL, 63LL, 64LL, 4097LL, 46340LL})
      for (long long k = 1; k <= 300; ++k) {
        ASSERT_FALSE(tma_refusal(k).has_value()) << "k " << k;
        const long long pitch = tma_pitch(k, bytes);
        ASSERT_GE(pitch, k);
        ASSERT_LT(pitch, k + 16 / bytes) << "the least pitch, not more";
        ASSERT_EQ(pitch * bytes % 16, 0) << "k " << k << ", " << bytes << "-byte elements";
        if ((k * bytes) % 16 == 0) {
          ASSERT_EQ(pitch, k) << "A is read in place where its rows allow it";
        }
        const TmaMapShape s = kmajor_sw128_map(rows, k, bytes, 64, pitch);
        EXPECT_EQ(s.dims[0], static_cast<std::uint64_t>(k));  // innermost first: k, then rows
        EXPECT_EQ(s.dims[1], static_cast<std::uint64_t>(rows));
        EXPECT_EQ(s.row_stride % 16, 0u);
        EXPECT_EQ(s.row_stride, static_cast<std::uint64_t>(pitch * bytes));
        EXPECT_LT(s.row_stride, std::uint64_t{1} << 40);
        for (std::uint32_t b : s.box) {
          EXPECT_GE(b, 1u);
          EXPECT_LE(b, 256u);
        }
        EXPECT_EQ(s.box[0] * static_cast<unsigned>(bytes), 128u);  // the swizzle's span, a multiple of 16
        EXPECT_EQ(s.swizzle, Swizzle::b128);
        EXPECT_EQ(tensor_map_swizzle(s.swizzle), static_cast<int>(CU_TENSOR_MAP_SWIZZLE_128B));
        EXPECT_EQ(box_bytes(static_cast<int>(s.box[0]), static_cast<int>(s.box[1]), bytes), 64u * 128u);
      }
  EXPECT_TRUE(tma_refusal(0).has_value());  // no k step at all
  EXPECT_TRUE(tma_refusal(-3).has_value());
  EXPECT_EQ(tma_pitch(130, 4), 132);  // chapter 10's awkward k: padded
  EXPECT_EQ(tma_pitch(132, 4), 132);
  EXPECT_EQ(tma_pitch(132, 2), 136);  // a multiple of 4 is enough for TF32, not for BF16
  EXPECT_EQ(tma_pitch(1, 2), 8);
}

// Step 13's staging of C. The buffer is C's tensor-map boxes side by side (64 rows x 128 bytes,
// 128B-swizzled: TMA reads box b from b x 8 KiB with the swizzle by_rows states), every element of
// a 32 KiB pass once.
TEST(CStaging, BoxesAsTheMapOfCLaysThemOut) {
  for (int bytes : {2, 4}) {
    const int cols = 32 * 1024 / (kCBoxRows * bytes);  // one pass: 256 BF16 or 128 FP32 columns
    std::set<unsigned> seen;
    for (int row = 0; row < kCBoxRows; ++row)
      for (int col = 0; col < cols; ++col) {
        const unsigned byte = static_cast<unsigned>(col * bytes);
        const unsigned at = c_staging_offset(row, col, bytes);
        ASSERT_EQ(at, byte / 128 * 8192 + by_rows(static_cast<unsigned>(row), byte % 128, Swizzle::b128)) << row << ", " << col;
        ASSERT_EQ(at % static_cast<unsigned>(bytes), 0u);
        seen.insert(at);
      }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(kCBoxRows * cols));
    EXPECT_EQ(*seen.rbegin(), 32u * 1024 - static_cast<unsigned>(bytes));
  }
}

// The BF16 store (tile_store.hpp, stage_columns): stmatrix .x4 with lane l pointing at row
// ldmatrix_x4_row(l) of slices j, j + 1, register i of each lane holding accumulators 4j + 2i and
// 4j + 2i + 1 as a pair. Simulated as the PTX ISA states stmatrix (register i of lane l: row l / 4
// of matrix i, columns 2 (l % 4) and + 1, at the address lane 8i + l / 4 gave), every accumulator of
// every thread lands where c_staging_offset puts its element (wgmma_d_element), for both passes'
// column offsets.
TEST(CStaging, StmatrixPutsEveryAccumulatorAtItsElement) {
  for (int first : {0, 128})
    for (int thread = 0; thread < 128; ++thread) {
      const int warp = thread / 32, lane = thread % 32;
      for (int j = first / 8; j < (first + 128) / 8; j += 2)
        for (int i = 0; i < 4; ++i)
          for (int h = 0; h < 2; ++h) {
            const RowChunk at = ldmatrix_x4_row(8 * i + lane / 4);  // the lane that gave this matrix row's address
            const unsigned row_address = c_staging_offset(16 * warp + at.row, 8 * (j + at.chunk) - first, 2);
            const unsigned written = row_address + static_cast<unsigned>(2 * (2 * (lane % 4) + h));
            const RowCol e = wgmma_d_element(thread, 4 * j + 2 * i + h);
            ASSERT_EQ(written, c_staging_offset(e.row, e.col - first, 2)) << "thread " << thread << ", j " << j << ", i " << i;
          }
    }
}

// The fewest wavefronts: a warp's store instruction is served in as many wavefronts as the most
// distinct 4-byte words it puts in one bank; the least possible is its bytes / 128. FP32 (st.shared
// .v2 of accumulators r, r + 1: 256 bytes) takes 2, each 8 x 8 matrix of a BF16 stmatrix (128 bytes) 1.
int wavefronts(const std::vector<unsigned>& words) {
  std::vector<std::set<unsigned>> bank(32);
  for (unsigned w : words) bank[w % 32].insert(w);
  std::size_t most = 0;
  for (const auto& b : bank) most = std::max(most, b.size());
  return static_cast<int>(most);
}
TEST(CStaging, EveryWarpStoreTakesTheFewestWavefronts) {
  for (int warp = 0; warp < 4; ++warp) {
    for (int r = 0; r < 128; r += 2) {  // FP32, both passes
      const int first = r < 64 ? 0 : 128;
      std::vector<unsigned> words;
      for (int lane = 0; lane < 32; ++lane) {
        const RowCol e = wgmma_d_element(32 * warp + lane, r);
        const unsigned at = c_staging_offset(e.row, e.col - first, 4);
        words.push_back(at / 4);
        words.push_back(at / 4 + 1);
      }
      ASSERT_EQ(wavefronts(words), 2) << "warp " << warp << ", register " << r;
    }
    for (int j = 0; j < 32; j += 2)  // BF16: each matrix of the stmatrix
      for (int i = 0; i < 4; ++i) {
        std::vector<unsigned> words;
        for (int l = 8 * i; l < 8 * i + 8; ++l) {
          const RowChunk at = ldmatrix_x4_row(l);
          const unsigned row = c_staging_offset(16 * warp + at.row, 8 * (j + at.chunk), 2);
          for (unsigned w = 0; w < 4; ++w) words.push_back(row / 4 + w);
        }
        ASSERT_EQ(wavefronts(words), 1) << "warp " << warp << ", slice " << j << ", matrix " << i;
      }
  }
}

// C's map (step 13) at awkward n: rows of a 16-byte pitch, one staged box (64 rows x 128 bytes) per
// store, dimensions n then m, so that TMA clips a box at C's edges.
TEST(CStaging, MapOfCWithinTheDriversLimits) {
  for (int bytes : {2, 4})
    for (long long n : {1LL, 7LL, 8LL, 255LL, 4097LL, 5003LL}) {
      const long long ldc = tma_pitch(n, bytes);
      const TmaMapShape s = c_sw128_map(3001, n, bytes, ldc);
      EXPECT_EQ(s.dims[0], static_cast<std::uint64_t>(n));
      EXPECT_EQ(s.dims[1], 3001u);
      EXPECT_EQ(s.row_stride % 16, 0u);
      EXPECT_EQ(s.row_stride, static_cast<std::uint64_t>(ldc * bytes));
      EXPECT_EQ(s.box[0] * static_cast<unsigned>(bytes), 128u);
      EXPECT_EQ(s.box[1], static_cast<unsigned>(kCBoxRows));
      EXPECT_EQ(s.swizzle, Swizzle::b128);
    }
}

// The mbarrier bookkeeping: with `stages` buffers, k-step s uses buffer s % stages, and each
// buffer's successive uses wait for parities 0, 1, 0, 1, ... (its barrier completes one phase per
// use, starting from phase 0 after mbarrier.init). Simulated: a per-buffer phase counter that
// advances when its box lands must always show the parity the kernel waits for.
TEST(MbarrierPhase, EachStageAlternatesItsParity) {
  for (int stages : {1, 2, 3, 4, 7}) {
    std::vector<unsigned> completed(static_cast<std::size_t>(stages), 0);  // phases completed per barrier
    for (int s = 0; s < 100; ++s) {
      const StagePhase p = stage_phase(s, stages);
      ASSERT_EQ(p.stage, s % stages);
      unsigned& phase = completed[static_cast<std::size_t>(p.stage)];
      ASSERT_EQ(p.parity, phase % 2) << "stages " << stages << ", k-step " << s;  // the phase now completing
      ++phase;
    }
  }
  EXPECT_EQ(stage_phase(0, 1).parity, 0u);
  EXPECT_EQ(stage_phase(1, 1).parity, 1u);
  EXPECT_EQ(stage_phase(2, 1).parity, 0u);
}

}  // namespace
}  // namespace gpgpu::blas::cuda::tc
