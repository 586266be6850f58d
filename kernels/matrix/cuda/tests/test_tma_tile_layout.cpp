// Step 14's shared-memory arithmetic (tma_tile.hpp) on the CPU, in every element size, against
// independent statements of what it must be: the tile where TMA puts it (boxes of 128-byte rows,
// chunk j of row r at j XOR r % 8), every output element written by exactly one task of one
// thread, and no bank conflicts in the kernel's shared reads and writes (32 banks of 4 bytes; an
// access of w bytes per lane is served 128 bytes at a time, so the lanes of each group of 128 / w
// must touch different banks). No GPU needed (label cpu); that the hardware lays out the boxes this
// way is what the chapter's GPU test shows.
#include "matrix/cuda/tma_tile.hpp"

#include <cstdint>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace gpgpu::matrix::cuda {
namespace {

// TMA's layout of a tile stated directly: box c / span, row r of 128 bytes, chunk (c % span) /
// chunk XOR r % 8, element c % chunk.
template <typename T>
int where_tma_puts(int r, int c) {
  constexpr int span = kTmaSpan<T>, chunk = kTmaChunk<T>;
  return (c / span) * kTmaTile * span + r * span + (((c % span) / chunk) ^ (r % 8)) * chunk + c % chunk;
}

// Whether the lanes' accesses of `bytes` each, at element indices `index` (of T), are free of bank
// conflicts.
template <typename T>
bool conflict_free(const std::vector<int>& index, int bytes) {
  const int group = 128 / bytes;  // lanes per 128-byte wavefront
  for (int first = 0; first < 32; first += group) {
    std::set<int> banks;
    for (int lane = first; lane < first + group; ++lane)
      for (int word = 0; word < bytes / 4; ++word)
        if (!banks.insert((index[lane] * static_cast<int>(sizeof(T)) / 4 + word) % 32).second) return false;
  }
  return true;
}

template <typename T>
void check_layout() {
  std::set<int> used;
  for (int r = 0; r < kTmaTile; ++r)
    for (int c = 0; c < kTmaTile; ++c) {
      const int i = tma_tile_index<T>(r, c);
      ASSERT_EQ(i, where_tma_puts<T>(r, c)) << r << ", " << c;
      used.insert(i);
    }
  EXPECT_EQ(used.size(), static_cast<std::size_t>(kTmaTileElements));  // a permutation of the tile
  EXPECT_EQ(*used.rbegin(), kTmaTileElements - 1);
}

template <typename T>
void check_tasks() {
  std::vector<int> writes(kTmaTileElements, 0);
  for (int warp = 0; warp < kTmaWarps; ++warp)
    for (int j = 0; j < kTmaTasksPerWarp<T>; ++j) {
      std::vector<int> store(32);
      for (int lane = 0; lane < 32; ++lane) {
        const TmaTask t = tma_task<T>(warp, lane, j);
        store[lane] = tma_tile_index<T>(t.out_row, t.out_col);
        EXPECT_EQ(store[lane] % kTmaChunk<T>, 0) << "a 16-byte write starts on 16 bytes";
        for (int k = 0; k < kTmaChunk<T>; ++k) {
          ++writes[static_cast<std::size_t>(t.out_row * kTmaTile + t.out_col + k)];
          // The chunk's elements are contiguous where it is stored.
          EXPECT_EQ(tma_tile_index<T>(t.out_row, t.out_col + k), store[lane] + k);
        }
      }
      EXPECT_TRUE(conflict_free<T>(store, 16)) << "write, warp " << warp << " task " << j;
      for (int k = 0; k < kTmaChunk<T>; ++k) {
        std::vector<int> load(32);
        for (int lane = 0; lane < 32; ++lane) {
          const TmaTask t = tma_task<T>(warp, lane, j);
          load[lane] = tma_tile_index<T>(t.out_col + k, t.out_row);  // input element (row, column)
        }
        EXPECT_TRUE(conflict_free<T>(load, static_cast<int>(sizeof(T)))) << "read, warp " << warp << " task " << j << " k " << k;
      }
    }
  for (int e = 0; e < kTmaTileElements; ++e) ASSERT_EQ(writes[static_cast<std::size_t>(e)], 1) << "output element " << e;
}

TEST(TmaTile, IsWhereTmaPutsTheBoxes) {
  check_layout<float>();
  check_layout<double>();
}

TEST(TmaTile, EveryOutputElementIsWrittenOnceWithoutBankConflicts) {
  check_tasks<float>();
  check_tasks<double>();
}

TEST(TmaTile, FillsSixtyFourKibibytesOfInputTiles) {
  EXPECT_EQ(kTmaStages<float>, 4);
  EXPECT_EQ(kTmaStages<double>, 2);
  EXPECT_EQ(kTmaTasks<float> % kTmaWarps, 0);
  EXPECT_EQ(kTmaTasks<double> % kTmaWarps, 0);
}

}  // namespace
}  // namespace gpgpu::matrix::cuda
