// Every CUDA kernel of chapter 09, unchanged, run on the CPU by the emulation of the CUDA thread
// model (matrix_emulation.hpp), against the CPU references, bit for bit, in every element type,
// with poisoned outputs. It needs no GPU, so it runs everywhere (label cpu) and catches wrong
// indices, missing bounds, partial tiles, row loops beyond gridDim.y (emulated with a small cap)
// and barrier placement before a GPU sees the code. It also proves what is wrong with the two
// kernels the paper printed: the "optimised" add (Obr. 13) reaches every element exactly once only
// where gridDim equals blockDim (993 <= n <= 1024 with its 32 x 32 blocks), the shared-memory
// transpose (Obr. 20) is right only for n <= 16 (and on diagonal tiles).
#include "matrix_emulation.hpp"
#include "shared_banks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/matrix/checks.hpp"
#include "gpgpu/matrix/matrix.hpp"

#define GPGPU_CUDA_EMULATION
#include "../09_01_add_rowmajor.cu"
#include "../09_02_add_colmajor.cu"
#include "../09_03_add_shared_paper.cu"
#include "../09_04_add_shared.cu"
#include "../09_05_add_vec4.cu"
#include "../09_06_transpose_naive.cu"
#include "../09_07_transpose_tile_as_printed.cu"
#include "../09_08_transpose_tile.cu"
#include "../09_09_transpose_tile_padded.cu"
#include "../09_10_transpose_tile_multi.cu"
#include "../09_11_transpose_tile_vec4.cu"
#include "../09_12_transpose_tile_panels.cu"
#include "../09_13_transpose_persistent.cu"
#include "../09_copy_tiles.cu"

namespace gpgpu::matrix::cuda {
namespace {

namespace checks = gpgpu::matrix::checks;

// A small gridDim.y cap makes the row loops of the element-per-thread kernels run.
constexpr unsigned kGridYCap = 2;
// The persistent transpose's grid on the emulation: three blocks, so that each loops over every third
// tile, vector tiles and cut ones in turn (a GPU launches as many as stay resident).
constexpr unsigned kPersistentBlocks = 3;

unsigned capped(long long blocks) { return static_cast<unsigned>(std::min<long long>(blocks, kGridYCap)); }

// ---- the launches of launchers.hpp, on the emulation ---------------------------------------------

template <typename T>
HostMatrix emulate_add(const std::string& kernel, const HostMatrix& a, const HostMatrix& b, int sm_count = 1) {
  HostMatrix c = poisoned(a.shape(), a.type());
  const int rows = static_cast<int>(a.shape().rows), cols = static_cast<int>(a.shape().cols);
  const AddArgs<T> args{a.as<T>().data(), b.as<T>().data(), c.as<T>().data(), rows, cols};
  const dim3 tile(kPaperAddTile, kPaperAddTile), tile4(4, 4);
  if (kernel == "add_rowmajor")
    emu::launch(dim3(blocks_for(cols, kAddRowmajorBlockX), capped(blocks_for(rows, kAddRowmajorBlockY))),
                dim3(kAddRowmajorBlockX, kAddRowmajorBlockY), false, [&] { add_rowmajor<T>(args); });
  else if (kernel == "add_colmajor")
    emu::launch(dim3(blocks_for(rows, kAddColmajorBlockX), capped(blocks_for(cols, kAddColmajorBlockY))),
                dim3(kAddColmajorBlockX, kAddColmajorBlockY), false, [&] { add_colmajor<T>(args); });
  else if (kernel == "add_shared_paper")
    emu::launch_with_barriers(dim3(blocks_for(cols, kPaperAddTile), blocks_for(rows, kPaperAddTile)), tile, [&] { add_shared_paper<T, kPaperAddTile>(args); });
  else if (kernel == "add_shared_paper_4")  // the same kernel with 4 x 4 tiles: gridDim == blockDim at n = 16
    emu::launch_with_barriers(dim3(blocks_for(cols, 4), blocks_for(rows, 4)), tile4, [&] { add_shared_paper<T, 4>(args); });
  else if (kernel == "add_shared")
    emu::launch_with_barriers(dim3(blocks_for(cols, kAddSharedTile), blocks_for(rows, kAddSharedTile)),
                              dim3(kAddSharedTile, kAddSharedTile), [&] { add_shared<T, kAddSharedTile>(args); });
  else if (kernel == "add_shared_4")
    emu::launch_with_barriers(dim3(blocks_for(cols, 4), blocks_for(rows, 4)), tile4, [&] { add_shared<T, 4>(args); });
  else if (kernel == "add_vec4") {
    // As launch_add_vec4 with max_blocks = sm_count * 8: a small sm_count makes every thread stride.
    const long long vectors = static_cast<long long>(rows) * cols / (16 / static_cast<long long>(sizeof(T)));
    const unsigned blocks = std::min<unsigned>(blocks_for(std::max(vectors, 1LL), kAddVec4Block), sm_count * 8u);
    emu::launch(dim3(blocks), dim3(kAddVec4Block), false, [&] { add_vec4<T>(args); });
  } else {
    ADD_FAILURE() << "no add kernel " << kernel;
  }
  return c;
}

template <typename T>
HostMatrix emulate_transpose(const std::string& kernel, const HostMatrix& in) {
  HostMatrix out = poisoned(in.shape().transposed(), in.type());
  const int rows = static_cast<int>(in.shape().rows), cols = static_cast<int>(in.shape().cols);
  const TransposeArgs<T> args{in.as<T>().data(), out.as<T>().data(), rows, cols};
  const dim3 tiles8(blocks_for(cols, 8), blocks_for(rows, 8));
  if (kernel == "transpose_naive")
    emu::launch(dim3(blocks_for(rows, kTransposeNaiveBlockX), capped(blocks_for(cols, kTransposeNaiveBlockY))),
                dim3(kTransposeNaiveBlockX, kTransposeNaiveBlockY), false,
                [&] { transpose_naive<T>(args); });
  else if (kernel == "transpose_tile_as_printed")
    emu::launch_with_barriers(dim3(blocks_for(cols, kPaperTransposeTile), blocks_for(rows, kPaperTransposeTile)),
                dim3(kPaperTransposeTile, kPaperTransposeTile), [&] { transpose_tile_as_printed<T, kPaperTransposeTile>(args); });
  else if (kernel == "transpose_tile")
    emu::launch_with_barriers(dim3(blocks_for(cols, kTransposeTile), blocks_for(rows, kTransposeTile)),
                              dim3(kTransposeTile, kTransposeTile), [&] { transpose_tile<T, kTransposeTile>(args); });
  else if (kernel == "transpose_tile_padded")
    emu::launch_with_barriers(dim3(blocks_for(cols, kTransposePaddedTile), blocks_for(rows, kTransposePaddedTile)),
                              dim3(kTransposePaddedTile, kTransposePaddedTile), [&] { transpose_tile_padded<T, kTransposePaddedTile>(args); });
  else if (kernel == "transpose_tile_multi")
    emu::launch_with_barriers(dim3(blocks_for(cols, kTransposeMultiTile), blocks_for(rows, kTransposeMultiTile)),
                              dim3(kTransposeMultiTile, kTransposeMultiRowsPerPass),
                              [&] { transpose_tile_multi<T, kTransposeMultiTile, kTransposeMultiRowsPerPass>(args); });
  else if (kernel == "transpose_tile_vec4")
    emu::launch_with_barriers(dim3(blocks_for(cols, kTransposeVec4Tile), blocks_for(rows, kTransposeVec4Tile)),
                              dim3(kVec4WarpVectors, kVec4WarpRows, kVec4Warps),
                              [&] { transpose_tile_vec4<T, kTransposeVec4Tile>(args); });
  else if (kernel == "transpose_tile_panels")
    emu::launch_with_barriers(dim3(blocks_for(cols, kTransposeVec4Tile), blocks_for(rows, kTransposeVec4Tile)),
                              dim3(kVec4WarpVectors, kVec4WarpRows, kVec4Warps),
                              [&] { transpose_tile_panels<T, kTransposeVec4Tile>(args); });
  else if (kernel == "transpose_persistent")
    emu::launch_with_barriers(dim3(kPersistentBlocks), dim3(kVec4WarpVectors, kVec4WarpRows, kVec4Warps),
                              [&] { transpose_persistent<T, kTransposeVec4Tile>(args); });
  else if (kernel == "transpose_tile_8")  // the same kernels with 8 x 8 tiles: more tiles, fewer threads to emulate
    emu::launch_with_barriers(tiles8, dim3(8, 8), [&] { transpose_tile<T, 8>(args); });
  else if (kernel == "transpose_tile_padded_8")
    emu::launch_with_barriers(tiles8, dim3(8, 8), [&] { transpose_tile_padded<T, 8>(args); });
  else if (kernel == "transpose_tile_multi_8")
    emu::launch_with_barriers(tiles8, dim3(8, 2), [&] { transpose_tile_multi<T, 8, 2>(args); });
  else
    ADD_FAILURE() << "no transpose kernel " << kernel;
  return out;
}

HostMatrix add(const std::string& kernel, const HostMatrix& a, const HostMatrix& b, int sm_count = 1) {
  return dispatch(a.type(), [&](auto tag) { return emulate_add<typename decltype(tag)::type>(kernel, a, b, sm_count); });
}
HostMatrix transpose(const std::string& kernel, const HostMatrix& in) {
  return dispatch(in.type(), [&](auto tag) { return emulate_transpose<typename decltype(tag)::type>(kernel, in); });
}

// ---- the kernels of "all": every awkward shape, every type, exact ---------------------------------

const ElementType kTypes[] = {ElementType::f32, ElementType::f64, ElementType::i32};
// 1x1, one row, one column, sizes no block or tile divides, several tile rows and columns,
// more block rows than the emulated gridDim.y cap.
const Shape kShapes[] = {{1, 1}, {1, 37}, {37, 1}, {17, 103}, {45, 70}, {33, 65}, {64, 64}, {70, 3}};

class EmulatedAdd : public ::testing::TestWithParam<const char*> {};

TEST_P(EmulatedAdd, MatchesTheReferenceAtEveryShapeAndType) {
  for (ElementType t : kTypes)
    for (const Shape s : kShapes) {
      const HostMatrix a = random_matrix(s, t, 1), b = random_matrix(s, t, 2);
      const Verification v = compare(add(GetParam(), a, b), add_reference(a, b));
      EXPECT_TRUE(v.pass) << GetParam() << " " << s.str() << " " << type_name(t) << ": " << v.summary();
    }
}

// add_shared_4: the same kernel with 4 x 4 tiles, so that the small shapes span many tiles.
INSTANTIATE_TEST_SUITE_P(Ch09, EmulatedAdd,
                         ::testing::Values("add_rowmajor", "add_colmajor", "add_shared", "add_shared_4", "add_vec4"),
                         [](const auto& info) { return std::string(info.param); });

TEST(EmulatedAddVec4, TailsAndGridStrideAtEveryRemainder) {
  // n % 4 (floats, ints) and n % 2 (doubles) of 0..3 elements left for the scalar tail; one SM
  // (8 blocks of 256 threads) makes every thread loop over several vectors at 129 x 67.
  for (ElementType t : kTypes)
    for (const Shape s : {Shape{1, 2}, Shape{1, 3}, Shape{1, 5}, Shape{3, 3}, Shape{129, 67}, Shape{128, 64}}) {
      const HostMatrix a = random_matrix(s, t, 3), b = random_matrix(s, t, 4);
      for (int sms : {1, 132}) {
        const Verification v = compare(add("add_vec4", a, b, sms), add_reference(a, b));
        EXPECT_TRUE(v.pass) << s.str() << " " << type_name(t) << ", " << sms << " SM(s): " << v.summary();
      }
    }
}

class EmulatedTranspose : public ::testing::TestWithParam<const char*> {};

TEST_P(EmulatedTranspose, MatchesTheReferenceAtEveryShapeAndType) {
  for (ElementType t : kTypes)
    for (const Shape s : kShapes) {
      const HostMatrix in = random_matrix(s, t, 5);
      const Verification v = compare(transpose(GetParam(), in), transpose_reference(in));
      EXPECT_TRUE(v.pass) << GetParam() << " " << s.str() << " " << type_name(t) << ": " << v.summary();
    }
}

TEST_P(EmulatedTranspose, TallAndWide) {
  // 4097 x 33 and 33 x 4097: many tile rows one way, two the other, partial tiles on both edges.
  for (const Shape s : {Shape{4097, 33}, Shape{33, 4097}}) {
    const HostMatrix in = random_matrix(s, ElementType::f32, 6);
    EXPECT_TRUE(compare(transpose(GetParam(), in), transpose_reference(in)).pass) << s.str();
  }
}

// *_8: the same kernels with 8 x 8 tiles (tile_multi: 8 x 2 threads), so the small shapes span many tiles.
INSTANTIATE_TEST_SUITE_P(Ch09, EmulatedTranspose,
                         ::testing::Values("transpose_naive", "transpose_tile", "transpose_tile_padded",
                                           "transpose_tile_multi", "transpose_tile_8", "transpose_tile_padded_8",
                                           "transpose_tile_multi_8", "transpose_tile_vec4", "transpose_tile_panels",
                                           "transpose_persistent"),
                         [](const auto& info) { return std::string(info.param); });

// ---- 09_11 to 09_13: the 16-byte path and its fallback -------------------------------------------

// The vector path runs where rows and cols are whole vectors and the pointers are 16-byte aligned
// (checks::whole_vector_shapes: full 64 x 64 tiles, cut tiles beside them, one vector, and more than
// 32 tile columns, so that 09_12 and 09_13 take two panels, the second narrower).
TEST(EmulatedTransposeVec4, MatchesTheReferenceWhereRowsAreWholeVectors) {
  for (const char* kernel : {"transpose_tile_vec4", "transpose_tile_panels", "transpose_persistent"})
    for (ElementType t : kTypes)
      for (const Shape s : checks::whole_vector_shapes()) {
        const HostMatrix in = random_matrix(s, t, 13);
        ASSERT_EQ(reinterpret_cast<std::uintptr_t>(in.data()) % 16, 0U) << "the vector path would not run";
        const Verification v = compare(transpose(kernel, in), transpose_reference(in));
        EXPECT_TRUE(v.pass) << kernel << " " << s.str() << " " << type_name(t) << ": " << v.summary();
      }
}

TEST(EmulatedTransposeVec4, FallsBackToElementsWhenAPointerIsNotAligned) {
  // 128 x 128 floats one element into their buffers: every tile takes the element path.
  const Shape s{128, 128};
  const HostMatrix in = random_matrix(s, ElementType::f32, 14), ref = transpose_reference(in);
  std::vector<float> src(in.as<float>().begin(), in.as<float>().end());
  src.insert(src.begin(), 0.0F);
  const TransposeArgs<float> args{src.data() + 1, nullptr, 128, 128};
  const auto run = [&](auto kernel, dim3 grid) {
    std::vector<float> dst(src.size(), std::nanf(""));
    TransposeArgs<float> a = args;
    a.out = dst.data() + 1;
    emu::launch_with_barriers(grid, dim3(kVec4WarpVectors, kVec4WarpRows, kVec4Warps), [&] { kernel(a); });
    EXPECT_TRUE(std::equal(dst.begin() + 1, dst.end(), ref.as<float>().begin()));
    EXPECT_TRUE(std::isnan(dst[0]));
  };
  run([](const TransposeArgs<float>& a) { transpose_tile_vec4<float, kTransposeVec4Tile>(a); }, dim3(2, 2));
  run([](const TransposeArgs<float>& a) { transpose_tile_panels<float, kTransposeVec4Tile>(a); }, dim3(2, 2));
  run([](const TransposeArgs<float>& a) { transpose_persistent<float, kTransposeVec4Tile>(a); }, dim3(3));
}

// ---- 09_copy_tiles (a yardstick, not a step): the copy in step 12's tiles and order -----------------------

TEST(EmulatedCopyTiles, CopiesEveryElementOnceOnBothPaths) {
  for (ElementType t : kTypes) {
    std::vector<Shape> shapes = checks::whole_vector_shapes();
    shapes.push_back({97, 61});  // no whole vectors: every tile on the element path
    shapes.push_back({1, 1});
    for (const Shape sh : shapes) {
      const HostMatrix in = random_matrix(sh, t, 15);
      dispatch(t, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const int rows = static_cast<int>(sh.rows), cols = static_cast<int>(sh.cols);
        const dim3 grid(blocks_for(cols, kTransposeVec4Tile), blocks_for(rows, kTransposeVec4Tile));
        for (int staged = 0; staged < 2; ++staged) {
          HostMatrix out = poisoned(sh, t);
          const TransposeArgs<T> args{in.as<T>().data(), out.as<T>().data(), rows, cols};
          emu::launch_with_barriers(grid, dim3(kVec4WarpVectors, kVec4WarpRows, kVec4Warps), [&] {
            if (staged) copy_tiles_staged<T, kTransposeVec4Tile>(args);
            else copy_tiles<T, kTransposeVec4Tile>(args);
          });
          const Verification v = compare(out, in);
          EXPECT_TRUE(v.pass) << (staged ? "copy_tiles_staged " : "copy_tiles ") << sh.str() << " " << type_name(t) << ": "
                              << v.summary();
        }
        return 0;
      });
    }
  }
}

// ---- 09_13: the persistent grid ----------------------------------------------------------------------

TEST(EmulatedTransposePersistent, MovesEveryTileOnceWhateverTheGridWidth) {
  // 132 x 2116 (3 x 34 tiles: two panels, whole vectors, the last tile row and column cut) and
  // 67 x 129 (the element path throughout): one block for every tile, a few blocks looping, as many
  // blocks as tiles, and more (the blocks past the last tile return at once).
  for (ElementType t : kTypes)
    for (const Shape s : {Shape{132, 64 * 33 + 4}, Shape{67, 129}}) {
      const HostMatrix in = random_matrix(s, t, 16), ref = transpose_reference(in);
      const unsigned tiles = blocks_for(s.rows, kTransposeVec4Tile) * blocks_for(s.cols, kTransposeVec4Tile);
      for (unsigned blocks : {1U, 2U, 5U, tiles - 1, tiles, tiles + 4}) {
        HostMatrix out = poisoned(s.transposed(), t);
        dispatch(t, [&](auto tag) {
          using T = typename decltype(tag)::type;
          const TransposeArgs<T> args{in.as<T>().data(), out.as<T>().data(), static_cast<int>(s.rows), static_cast<int>(s.cols)};
          emu::launch_with_barriers(dim3(blocks), dim3(kVec4WarpVectors, kVec4WarpRows, kVec4Warps),
                                    [&] { transpose_persistent<T, kTransposeVec4Tile>(args); });
          return 0;
        });
        const Verification v = compare(out, ref);
        EXPECT_TRUE(v.pass) << s.str() << " " << type_name(t) << ", " << blocks << " block(s): " << v.summary();
      }
    }
}

// ---- 09_12: the panel order ------------------------------------------------------------------------

TEST(PanelTile, MovesEveryTileExactlyOnce) {
  const std::pair<int, int> grids[] = {{1, 1}, {32, 1}, {33, 3}, {34, 3}, {65, 2}, {64, 5}, {1, 70}, {128, 128}};
  for (const auto& [tiles_x, tiles_y] : grids) {
    std::vector<int> moved(static_cast<std::size_t>(tiles_x) * tiles_y, 0);
    for (int id = 0; id < tiles_x * tiles_y; ++id) {
      const TileAt t = panel_tile(id, tiles_x, tiles_y);
      ASSERT_TRUE(t.across >= 0 && t.across < tiles_x && t.down >= 0 && t.down < tiles_y)
          << tiles_x << " x " << tiles_y << ", block " << id << ": tile " << t.across << ", " << t.down;
      ++moved[static_cast<std::size_t>(t.down) * tiles_x + t.across];
    }
    EXPECT_TRUE(std::all_of(moved.begin(), moved.end(), [](int n) { return n == 1; })) << tiles_x << " x " << tiles_y;
  }
}

TEST(PanelTile, WalksDownPanelsOf32TileColumns) {
  const auto at = [](int id, int tiles_x, int tiles_y) {
    const TileAt t = panel_tile(id, tiles_x, tiles_y);
    return std::pair{t.across, t.down};
  };
  // 8192²: 128 x 128 tiles, four panels of 32 x 128.
  EXPECT_EQ(at(31, 128, 128), std::pair(31, 0));
  EXPECT_EQ(at(32, 128, 128), std::pair(0, 1));
  EXPECT_EQ(at(32 * 128 - 1, 128, 128), std::pair(31, 127));
  EXPECT_EQ(at(32 * 128, 128, 128), std::pair(32, 0));
  // The blocks resident at once on 132 SMs (8 each) cover a square: 32 tile columns, 33 tile rows.
  int widest = 0, deepest = 0;
  for (int id = 0; id < 8 * 132; ++id) {
    const auto [across, down] = at(id, 128, 128);
    widest = std::max(widest, across + 1);
    deepest = std::max(deepest, down + 1);
  }
  EXPECT_EQ(widest, 32);
  EXPECT_EQ(deepest, 33);
  // 34 tile columns: a panel of 32, then one of 2.
  EXPECT_EQ(at(3 * 32, 34, 3), std::pair(32, 0));
  EXPECT_EQ(at(3 * 32 + 2, 34, 3), std::pair(32, 1));
  // At most 32 tile columns: one panel, 09_11's order.
  for (int id = 0; id < 20 * 7; ++id) EXPECT_EQ(at(id, 20, 7), std::pair(id % 20, id / 20));
}

// The tile's shared loads and stores, recorded and grouped into warp requests: one wavefront each
// on both paths (8 vectors x 4 rows per warp and the Tile + 1 padding), within the padded tile.
emu::banks::Tally vec4_banks(const Shape& s) {
  const HostMatrix in = random_matrix(s, ElementType::f32, 15);
  HostMatrix out = poisoned(s.transposed(), ElementType::f32);
  const int rows = static_cast<int>(s.rows), cols = static_cast<int>(s.cols);
  const TransposeArgs<float> args{in.as<float>().data(), out.as<float>().data(), rows, cols};
  emu::banks::recorder().clear();
  emu::launch_with_barriers(dim3(blocks_for(cols, kTransposeVec4Tile), blocks_for(rows, kTransposeVec4Tile)),
                            dim3(kVec4WarpVectors, kVec4WarpRows, kVec4Warps),
                            [&] { transpose_tile_vec4<float, kTransposeVec4Tile, emu::banks::Watched<float>>(args); });
  EXPECT_TRUE(compare(out, transpose_reference(in)).pass) << s.str();
  return emu::banks::recorder().tally();
}

TEST(EmulatedTransposeVec4, HasNoBankConflictsOnEitherPath) {
  // 128 x 192: 6 full tiles on the vector path, each stored and loaded once, 2 x 64 x 64 scalar
  // accesses per tile: 256 warp requests per tile. 67 x 129: the element path, partial warps at the edges.
  const emu::banks::Tally whole = vec4_banks({128, 192});
  EXPECT_EQ(whole.requests, 6 * 256);
  EXPECT_EQ(whole.worst, 1) << "a " << (whole.worst_is_store ? "store" : "load") << " is a " << whole.worst << "-way conflict";
  EXPECT_LE(whole.span_bytes(), sizeof(float) * kTransposeVec4Tile * (kTransposeVec4Tile + 1));
  const emu::banks::Tally edge = vec4_banks({67, 129});
  EXPECT_GT(edge.requests, 0);
  EXPECT_EQ(edge.worst, 1) << "a " << (edge.worst_is_store ? "store" : "load") << " is a " << edge.worst << "-way conflict";
}

// A kernel with a barrier that thread 0 skips: undefined in CUDA (it may hang), an error here.
__global__ void skips_the_barrier(int* out) {
  if (threadIdx.x == 0) return;
  __syncthreads();
  out[threadIdx.x] = 1;
}

TEST(Emulation, ABarrierNotEveryThreadReachesIsAnError) {
  std::vector<int> out(64, 0);
  EXPECT_THROW(emu::launch_with_barriers(dim3(1), dim3(64), [&] { skips_the_barrier(out.data()); }), std::logic_error);
}

// ---- the two kernels as the paper printed them ----------------------------------------------------

// True when every output element the kernel wrote equals the reference.
bool matches(const HostMatrix& got, const HostMatrix& ref) { return compare(got, ref).pass; }

// How often gx = blockIdx.x + blockDim.x * threadIdx.x, over the grid that covers n with blocks of
// `block` (ceil(n / block) of them), reaches each index 0 .. n-1 (indices >= n are cut off).
std::vector<int> paper_index_visits(int n, int block) {
  std::vector<int> visits(static_cast<std::size_t>(n), 0);
  const int grid = static_cast<int>(blocks_for(n, block));
  for (int b = 0; b < grid; ++b)
    for (int t = 0; t < block; ++t)
      if (b + block * t < n) ++visits[static_cast<std::size_t>(b + block * t)];
  return visits;
}

// Every index reached (some perhaps twice: harmless for an add, the same sum is written again).
bool paper_index_covers(int n, int block) {
  const std::vector<int> v = paper_index_visits(n, block);
  return *std::min_element(v.begin(), v.end()) >= 1;
}

// Every index reached exactly once.
bool paper_index_is_a_bijection(int n, int block) {
  const std::vector<int> v = paper_index_visits(n, block);
  return std::all_of(v.begin(), v.end(), [](int k) { return k == 1; });
}

TEST(PaperAddObr13, TheIndexReachesEveryElementOnlyNearGridDimEqualsBlockDim) {
  // With B x B blocks the grid has ceil(n / B) blocks per row. For B² - B < n <= B² that is B
  // blocks, gridDim == blockDim, and b + B t runs over 0 .. B²-1 once each: every index exactly
  // once (those >= n cut off). At n = B² + 1 the grid has B + 1 blocks and reaches 0 .. B², some
  // indices twice (b = B, t = 0 is b = 0, t = 1); any other n > 1 misses indices. With the paper's
  // 32 x 32 blocks: exactly once for 993 <= n <= 1024, twice for some at 1025 only, and of the
  // paper's sizes (powers of two) only n = 1024 was right.
  for (int n = 1; n <= 1100; ++n) {
    EXPECT_EQ(paper_index_is_a_bijection(n, kPaperAddTile), n == 1 || (n >= 993 && n <= 1024)) << n;
    EXPECT_EQ(paper_index_covers(n, kPaperAddTile), n == 1 || (n >= 993 && n <= 1025)) << n;
  }
  for (int n = 1; n <= 40; ++n) {
    EXPECT_EQ(paper_index_is_a_bijection(n, 4), n == 1 || (n >= 13 && n <= 16)) << n;
    EXPECT_EQ(paper_index_covers(n, 4), n == 1 || (n >= 13 && n <= 17)) << n;
  }
}

TEST(PaperAddObr13, IsRightExactlyWhereItsIndexReachesEveryElement) {
  // The kernel itself, with 4 x 4 tiles (the rule above for B = 4: sides 1 and 13..17).
  for (ElementType t : kTypes)
    for (const Shape s : {Shape{16, 16}, Shape{1, 16}, Shape{16, 1}, Shape{1, 1}, Shape{13, 17}, Shape{17, 17},
                          Shape{8, 8}, Shape{32, 32}, Shape{12, 16}, Shape{16, 20}, Shape{18, 18}, Shape{2, 16}}) {
      const HostMatrix a = random_matrix(s, t, 7), b = random_matrix(s, t, 8);
      const bool right = paper_index_covers(static_cast<int>(s.rows), 4) && paper_index_covers(static_cast<int>(s.cols), 4);
      EXPECT_EQ(matches(add("add_shared_paper_4", a, b), add_reference(a, b)), right) << s.str() << " " << type_name(t);
    }
}

TEST(PaperAddObr13, MissesSomeElementsAndWritesOthersTwice) {
  // At 32 x 32 with 4 x 4 tiles (gridDim 8, blockDim 4) only gx = bx + 4 tx < 8 + 12 is reached:
  // columns 20..31 are never written (still poisoned), and gx = 4 is both (bx 4, tx 0) and (bx 0, tx 1).
  const HostMatrix a = random_matrix({32, 32}, ElementType::f32, 9), b = random_matrix({32, 32}, ElementType::f32, 10);
  const HostMatrix c = add("add_shared_paper_4", a, b);
  const auto v = c.as<float>();
  for (int col = 0; col < 32; ++col) EXPECT_EQ(std::isnan(v[col]), col >= 20) << "column " << col;
  // The 32 x 32 launch of the real kernel (Tile 32, one block) at 32 x 32 reaches only column 0.
  const HostMatrix d = add("add_shared_paper", a, b);
  EXPECT_EQ(std::count_if(d.as<float>().begin(), d.as<float>().end(), [](float x) { return !std::isnan(x); }), 1);
}

TEST(PaperTransposeObr20, IsRightForNUpToSixteenAndWrongBeyond) {
  for (ElementType t : kTypes) {
    for (int n : {1, 2, 5, 15, 16}) {
      const HostMatrix in = random_matrix({n, n}, t, 11);
      EXPECT_TRUE(matches(transpose("transpose_tile_as_printed", in), transpose_reference(in))) << n << " " << type_name(t);
    }
    for (int n : {17, 32, 40, 64}) {
      const HostMatrix in = random_matrix({n, n}, t, 11);
      EXPECT_FALSE(matches(transpose("transpose_tile_as_printed", in), transpose_reference(in))) << n << " " << type_name(t);
    }
  }
}

TEST(PaperTransposeObr20, TransposesEachTileInPlace) {
  // Tile (bx, by) of the result is the transpose of tile (bx, by) of the input, not of (by, bx):
  // the diagonal tiles are right, every element of an off-diagonal tile comes from the wrong tile.
  const int n = 48, tile = kPaperTransposeTile;
  const HostMatrix in = random_matrix({n, n}, ElementType::f32, 12);
  const HostMatrix got = transpose("transpose_tile_as_printed", in), ref = transpose_reference(in);
  const auto g = got.as<float>(), r = ref.as<float>(), x = in.as<float>();
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col) {
      const std::size_t k = static_cast<std::size_t>(row * n + col);
      const int br = row / tile, bc = col / tile, lr = row % tile, lc = col % tile;
      // In place: out(row, col) = in(br*T + lc, bc*T + lr).
      EXPECT_EQ(g[k], x[static_cast<std::size_t>((br * tile + lc) * n + bc * tile + lr)]) << row << "," << col;
      if (br == bc) {
        EXPECT_EQ(g[k], r[k]) << "diagonal tile " << row << "," << col;
      }
    }
}

}  // namespace
}  // namespace gpgpu::matrix::cuda
