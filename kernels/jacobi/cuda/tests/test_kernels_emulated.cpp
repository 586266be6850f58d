// Every CUDA kernel of kernels/jacobi/cuda, unchanged, run on the CPU by a small emulation of the CUDA
// thread model (cuda_emulation.hpp; a block's threads that meet at barriers run as the fibers of
// matrix_emulation.hpp), against the double-precision reference. It needs no GPU, so it
// runs everywhere (label cpu) and catches wrong indices, ghost layouts, partial-block guards, row
// loops beyond gridDim.y and barrier placement before a GPU ever sees the code. Pitches other than
// cudaMallocPitch's are used on purpose: the kernels must work for any pitch that is a multiple of 4
// floats, including pitch == nx (no padding at all).
#include "cuda_emulation.hpp"
#include "matrix/cuda/tests/matrix_emulation.hpp"  // blocks with barriers as fibers, not an OS thread per CUDA thread

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/layouts.hpp"
#include "gpgpu/jacobi/pitched_host.hpp"
#include "gpgpu/jacobi/reference.hpp"
#include "gpgpu/jacobi/spectral.hpp"

// Dynamic shared memory: `extern __shared__ float tile[]` names the array below (matrix_emulation.hpp
// makes __shared__ static, for the fixed-size tiles of the matrix kernels).
#undef __shared__
#define __shared__

namespace gpgpu::jacobi::cuda {
namespace {
float tile[1 << 16];  // the kernels' `extern __shared__` tile: blocks run one at a time
}  // namespace
}  // namespace gpgpu::jacobi::cuda

// 13_peer_store.cu's add_to_norm: atomics and fences. launch() runs one block after another, so a
// plain read-modify-write is atomic here and a fence has nothing to order; each counts its calls.
namespace emu {
inline int fences = 0, system_fences = 0;
}  // namespace emu
template <typename T>
T atomicAdd(T* address, T value) {
  return std::exchange(*address, *address + value);
}
template <typename T>
T atomicExch(T* address, T value) {
  return std::exchange(*address, value);
}
// add_to_norm exchanges a double's 64 bits as an integer: through memcpy here, which may read and
// write any object's bytes (a plain access through the cast pointer would break C++'s aliasing rule).
inline unsigned long long atomicExch(unsigned long long* address, unsigned long long value) {
  unsigned long long old = 0;
  std::memcpy(&old, address, sizeof old);
  std::memcpy(address, &value, sizeof value);
  return old;
}
inline void __threadfence() { ++emu::fences; }
inline void __threadfence_system() { ++emu::system_fences; }
inline double __longlong_as_double(long long bits) { return std::bit_cast<double>(bits); }

#define GPGPU_CUDA_EMULATION
#include "../03_simple.cu"
#include "../04_aligned.cu"
#include "../05_pitched.cu"
#include "../06_01_shared.cu"
#include "../06_02_shared_paper.cu"
#include "../07_texture.cu"
#include "../07b_01_readonly.cu"
#include "../07b_02_tiled2d.cu"
#include "../07b_03_multirow.cu"
#include "../07b_04_symmetric.cu"
#include "../07b_05_prefetch.cu"
#include "../07b_06_ring.cu"
#include "../13_peer_store.cu"
#include "gpgpu/jacobi/checks.hpp"

namespace gpgpu::jacobi::cuda {
namespace {

constexpr float kOmega = static_cast<float>(kDefaultOmega);
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// --- 1D layouts: 03_simple, 04_aligned, 07_texture -----------------------------------------------

std::vector<float> emulate_linear(const std::string& variant, const LinearSystem& sys, std::span<const float> x0,
                                  int iters, int block) {
  const Grid g = sys.grid;
  const std::int64_t offset = variant == "simple"    ? simple_offset(g)
                              : variant == "aligned" ? aligned_offset(g, 16)
                                                     : aligned_offset(g, 32);
  std::vector<float> x = make_ghost_padded<float>(g, x0, offset, 32).data;
  std::vector<float> y(x.size(), 0.0f);
  std::fill_n(y.begin() + offset, g.nodes(), kNaN);  // unknowns poisoned, ghosts zero
  const auto& d = sys.A.diag;
  const Diagonals A{d[0].data(), d[1].data(), d[2].data(), d[3].data(), d[4].data(),
                    d[5].data(), d[6].data(), d[7].data(), d[8].data()};
  const int nodes = static_cast<int>(g.nodes());
  const dim3 grid(blocks_for(nodes, block));
  for (int it = 0; it < iters; ++it) {
    const LinearArgs a{A, sys.rhs.data(), x.data(), y.data(), g.nx, nodes, static_cast<int>(offset), kOmega};
    if (variant == "simple") {
      emu::launch(grid, dim3(block), false, [&] { jacobi_simple(a); });
    } else if (variant == "texture") {
      const TextureArgs t{A, sys.rhs.data(), reinterpret_cast<cudaTextureObject_t>(x.data()), y.data(), g.nx, nodes,
                          static_cast<int>(offset), kOmega};
      emu::launch(grid, dim3(block), false, [&] { jacobi_texture(t); });
    } else {
      emu::launch(grid, dim3(block), false, [&] { jacobi_aligned(a); });
    }
    std::swap(x, y);
  }
  return {x.begin() + offset, x.begin() + offset + g.nodes()};
}

// --- Pitched layouts: 05_pitched, 06_01_shared, 07b_* -----------------------------------------------

using Pitched = gpgpu::jacobi::testing::HostPitched;
using gpgpu::jacobi::testing::host_pitched;

struct PitchedCase {
  int pitch_extra;      // pitch = nx rounded up to 4, plus this
  int block_x, block_y;
  int rows_per_thread;
  unsigned grid_y_cap;  // a small gridDim.y limit makes the kernels' row loops run
};

std::vector<float> emulate_pitched(const std::string& variant, const LinearSystem& sys, std::span<const float> x0,
                                   int iters, const PitchedCase& c) {
  const Grid g = sys.grid;
  const int p = (g.nx + 3) / 4 * 4 + c.pitch_extra;
  std::vector<Pitched> coef;
  const bool symmetric = variant == "symmetric" || variant == "symmetric_prefetch" || variant == "symmetric_ring";
  if (symmetric) {
    for (Dir dir : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE}) coef.push_back(host_pitched(sys.A.diag[idx(dir)], g, p));
  } else {
    for (const auto& d : sys.A.diag) coef.push_back(host_pitched(d, g, p));
  }
  coef.push_back(host_pitched(sys.rhs, g, p));
  Pitched x = host_pitched(x0, g, p), y = host_pitched({}, g, p, kNaN);
  const auto o = [&](std::size_t i) { return coef[i].origin(); };
  const auto cap = [&](long long rows) { return static_cast<unsigned>(std::min<long long>(rows, c.grid_y_cap)); };
  for (int it = 0; it < iters; ++it) {
    if (symmetric) {
      const SymmetricArgs a{o(0), o(1), o(2), o(3), o(4), o(5), x.origin(), y.origin(), g.nx, g.ny, p, kOmega};
      const dim3 grid(blocks_for((g.nx + 3) / 4, c.block_x), cap(blocks_for(g.ny, c.rows_per_thread)));
      if (variant == "symmetric")
        emu::launch(grid, dim3(c.block_x), false, [&] { jacobi_symmetric(a, c.rows_per_thread); });
      else if (variant == "symmetric_prefetch")
        emu::launch(grid, dim3(c.block_x), false, [&] { jacobi_symmetric_prefetch(a, c.rows_per_thread); });
      else  // the ring's barriers: the block's threads as fibers, its ring in the emulation's shared memory
        emu::launch_with_barriers(grid, dim3(c.block_x), [&] { jacobi_symmetric_ring(a, c.rows_per_thread); });
    } else {
      const PitchedArgs a{{o(0), o(1), o(2), o(3), o(4), o(5), o(6), o(7), o(8)}, o(9), x.origin(), y.origin(),
                          g.nx, g.ny, p, kOmega};
      const dim3 rows_grid(blocks_for(g.nx, c.block_x), cap(g.ny));
      if (variant == "pitched") emu::launch(rows_grid, dim3(c.block_x), false, [&] { jacobi_pitched(a); });
      if (variant == "readonly") emu::launch(rows_grid, dim3(c.block_x), false, [&] { jacobi_readonly(a); });
      if (variant == "shared") emu::launch_with_barriers(rows_grid, dim3(c.block_x), [&] { jacobi_shared(a); });
      if (variant == "shared_paper") emu::launch_with_barriers(rows_grid, dim3(c.block_x), [&] { jacobi_shared_paper(a); });
      if (variant == "tiled2d")
        emu::launch_with_barriers(dim3(blocks_for(g.nx, c.block_x), cap(blocks_for(g.ny, c.block_y))),
                                  dim3(c.block_x, c.block_y), [&] { jacobi_tiled2d(a); });
      if (variant == "multirow")
        emu::launch(dim3(blocks_for((g.nx + 3) / 4, c.block_x), cap(blocks_for(g.ny, c.rows_per_thread))),
                    dim3(c.block_x), false, [&] { jacobi_multirow(a, c.rows_per_thread); });
    }
    std::swap(x, y);
  }
  std::vector<float> out = gpgpu::jacobi::testing::host_unknowns(x, g);
  // Ghost rows and padding must still be zero: the next iteration multiplies them by zero coefficients.
  for (std::size_t k = 0; k < x.data.size(); ++k) {
    const auto row = static_cast<int>(k) / p - kPitchedGhostRows, col = static_cast<int>(k) % p;
    if (row < 0 || row >= g.ny || col >= g.nx)
      if (x.data[k] != 0.0f) ADD_FAILURE() << variant << ": ghost/padding element " << k << " is " << x.data[k];
  }
  return out;
}

// --- A grid split over parts: 13_peer_store ------------------------------------------------------

// Rows [first, first + rows) of a field (zero where they fall outside the grid) as a pitched part
// with kPitchedGhostRows rows of `first`'s side included: origin() is grid row first + kPitchedGhostRows.
Pitched part_rows(std::span<const float> values, const Grid& g, int pitch, int first, int rows, float fill = 0.0f) {
  Pitched p{pitch, std::vector<float>(static_cast<std::size_t>(rows) * pitch, 0.0f)};
  for (int b = 0; b < rows; ++b) {
    const int j = first + b;
    if (j < 0 || j >= g.ny) continue;
    for (int i = 0; i < g.nx; ++i)
      p.data[static_cast<std::size_t>(b) * pitch + i] = values.empty() ? fill : values[static_cast<std::size_t>(j) * g.nx + i];
  }
  return p;
}

// The symmetric kernel of chapter 13 on `parts` parts of the rows, each with its own arrays as on its
// own GPU; every part stores its boundary rows into its neighbours' ghost rows. Returns the whole field.
std::vector<float> emulate_split(const LinearSystem& sys, std::span<const float> x0, int iters, int parts,
                                 const PitchedCase& c) {
  const Grid g = sys.grid;
  const int p = (g.nx + 3) / 4 * 4 + c.pitch_extra, ghost = kPitchedGhostRows;
  struct Part {
    int begin, rows;
    std::vector<Pitched> coef;
    Pitched x, y;
    float* row(Pitched& a, int r) { return a.origin() + r * a.pitch; }
  };
  std::vector<Part> part;
  for (int q = 0; q < parts; ++q) {
    const int begin = g.ny * q / parts, end = g.ny * (q + 1) / parts, rows = end - begin;
    Part t{begin, rows, {}, {}, {}};
    for (Dir dir : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE})
      t.coef.push_back(part_rows(sys.A.diag[idx(dir)], g, p, begin - ghost, rows + 2 * ghost));
    t.coef.push_back(part_rows(sys.rhs, g, p, begin - ghost, rows + 2 * ghost));
    // x: the part's rows and the neighbours' boundary rows; y: NaN wherever a kernel must write.
    t.x = part_rows(x0, g, p, begin - ghost, rows + 2 * ghost);
    t.y = part_rows({}, g, p, begin - ghost, rows + 2 * ghost, kNaN);
    for (int r : {-2, rows + 1}) std::fill_n(t.row(t.y, r), p, 0.0f);
    for (int r : {-1, rows})
      if ((r < 0 && q == 0) || (r == rows && q == parts - 1)) std::fill_n(t.row(t.y, r), p, 0.0f);
    for (int r = -ghost; r < rows + ghost; ++r) std::fill(t.row(t.y, r) + g.nx, t.row(t.y, r) + p, 0.0f);
    for (int r = -ghost; r < rows + ghost; ++r)  // x outside the part and its two neighbour rows: zero
      if (r < -1 || r > rows) std::fill_n(t.row(t.x, r), p, 0.0f);
    part.push_back(std::move(t));
  }
  for (int it = 0; it < iters; ++it) {
    for (int q = 0; q < parts; ++q) {
      Part& t = part[static_cast<std::size_t>(q)];
      const auto o = [&](std::size_t i) { return t.coef[i].origin(); };
      const SymmetricArgs a{o(0), o(1), o(2), o(3), o(4), o(5), t.x.origin(), t.y.origin(), g.nx, t.rows, p, kOmega};
      float* below = q > 0 ? part[q - 1].row(part[q - 1].y, part[q - 1].rows) : nullptr;
      float* above = q + 1 < parts ? part[q + 1].row(part[q + 1].y, -1) : nullptr;
      const dim3 grid(blocks_for((g.nx + 3) / 4, c.block_x), blocks_for(t.rows, c.rows_per_thread));
      emu::launch(grid, dim3(c.block_x), false, [&] { jacobi_peer_store(a, below, above, c.rows_per_thread); });
    }
    for (Part& t : part) std::swap(t.x, t.y);
  }
  std::vector<float> out;
  for (Part& t : part)
    for (int r = 0; r < t.rows; ++r) out.insert(out.end(), t.row(t.x, r), t.row(t.x, r) + g.nx);
  return out;
}

// --- The cases -----------------------------------------------------------------------------------

const Grid kGrids[] = {{1, 1}, {2, 7}, {5, 9}, {17, 33}, {33, 17}, {64, 10}, {13, 70}};

TEST(EmulatedKernels, LinearLayoutsMatchTheReference) {
  for (const Grid& g : kGrids)
    for (int iters : {1, 2, 5}) {
      const auto sys = assemble_bidomain(g);
      const auto x0 = checks::random_guess(g.nodes(), 7);
      for (const char* v : {"simple", "aligned", "aligned32", "texture"})
        for (int block : {64, 7}) {
          SCOPED_TRACE(std::string(v) + " on " + g.str() + ", block " + std::to_string(block));
          EXPECT_TRUE(checks::matches_reference(emulate_linear(v, sys, x0, iters, block), sys, x0, iters));
        }
    }
}

TEST(EmulatedKernels, PitchedLayoutsMatchTheReference) {
  const PitchedCase cases[] = {
      {0, 64, 8, 4, 65535},  // pitch == nx whenever nx is a multiple of 4: no padding to hide behind
      {8, 7, 3, 3, 2},       // padded pitch, odd block shapes, a row loop beyond gridDim.y = 2
      {4, 32, 1, 1, 3},
      {0, 1, 1, 1, 65535},  // one thread per block: it loads its column and both halo values
  };
  for (const Grid& g : kGrids)
    for (int iters : {1, 2, 5}) {
      const auto sys = assemble_bidomain(g);
      const auto x0 = checks::random_guess(g.nodes(), 8);
      for (const char* v : {"pitched", "shared", "shared_paper", "readonly", "tiled2d", "multirow", "symmetric",
                            "symmetric_prefetch", "symmetric_ring"})
        for (const PitchedCase& c : cases) {
          SCOPED_TRACE(std::string(v) + " on " + g.str() + ", pitch +" + std::to_string(c.pitch_extra) + ", block " +
                       std::to_string(c.block_x) + ", rows " + std::to_string(c.rows_per_thread));
          EXPECT_TRUE(checks::matches_reference(emulate_pitched(v, sys, x0, iters, c), sys, x0, iters));
        }
    }
}

TEST(EmulatedKernels, PrefetchAndRingGiveTheSymmetricKernelsBitsBitForBit) {
  // 07b_05 and 07b_06 compute symmetric_update on the values 07b_04 loads, only loaded earlier (07b_06
  // through its shared-memory ring, the halo columns from the neighbouring threads' copies): the same
  // bits for every strip length (1 row: nothing ahead; 2: the ring's second copy empty; a partial last
  // strip; strips beyond gridDim.y) and pitch, for blocks with threads past the right edge, from a
  // NaN-poisoned written iterate.
  const PitchedCase cases[] = {{0, 64, 8, 4, 65535}, {8, 7, 3, 3, 2}, {4, 32, 1, 1, 3}, {0, 5, 1, 16, 65535},
                               {12, 3, 1, 2, 1},     {0, 6, 1, 5, 2}};
  for (const Grid& g : kGrids) {
    const auto sys = assemble_bidomain(g);
    const auto x0 = checks::random_guess(g.nodes(), 10);
    for (const PitchedCase& c : cases)
      for (int iters : {1, 3}) {
        const std::vector<float> want = emulate_pitched("symmetric", sys, x0, iters, c);
        for (const char* v : {"symmetric_prefetch", "symmetric_ring"}) {
          SCOPED_TRACE(std::string(v) + " on " + g.str() + ", pitch +" + std::to_string(c.pitch_extra) + ", block " +
                       std::to_string(c.block_x) + ", rows per thread " + std::to_string(c.rows_per_thread) +
                       ", gridDim.y <= " + std::to_string(c.grid_y_cap) + ", " + std::to_string(iters) + " iterations");
          const std::vector<float> got = emulate_pitched(v, sys, x0, iters, c);
          ASSERT_EQ(got.size(), want.size());
          EXPECT_EQ(0, std::memcmp(got.data(), want.data(), want.size() * sizeof(float)));
        }
      }
  }
}

TEST(EmulatedKernels, PeerStoresOnASplitGridEqualTheWholeGridBitForBit) {
  // Splitting the rows changes no operation: every part's kernel (its boundary rows stored into the
  // neighbours' ghost rows) must give exactly what 07b_04_symmetric gives on the whole grid, with or
  // without row padding (pitch == nx reads the corner elements of the rows beyond).
  const PitchedCase cases[] = {{0, 64, 8, 4, 65535}, {8, 7, 3, 3, 65535}, {4, 32, 1, 1, 65535}};
  for (const Grid& g : kGrids)
    for (int parts : {2, 3}) {
      if (parts > g.ny) continue;
      const auto sys = assemble_bidomain(g);
      const auto x0 = checks::random_guess(g.nodes(), 9);
      for (const PitchedCase& c : cases)
        for (int iters : {1, 4}) {
          SCOPED_TRACE(g.str() + " over " + std::to_string(parts) + " parts, pitch +" + std::to_string(c.pitch_extra) +
                       ", rows per thread " + std::to_string(c.rows_per_thread) + ", " + std::to_string(iters) + " iterations");
          const std::vector<float> whole = emulate_pitched("symmetric", sys, x0, iters, c);
          const std::vector<float> split = emulate_split(sys, x0, iters, parts, c);
          ASSERT_EQ(split.size(), whole.size());
          EXPECT_EQ(0, std::memcmp(split.data(), whole.data(), whole.size() * sizeof(float)));
          EXPECT_TRUE(checks::matches_reference(split, sys, x0, iters));
        }
    }
}

TEST(EmulatedKernels, TheLastBlockOfACheckPublishesItsNormAndZeroesTheSum) {
  // One check made of three launches (as the overlap variant makes: two boundary rows, then the
  // interior), each block adding a sum of its own (integers: exact in any order). Only the block
  // that takes the last ticket of all three publishes: the total, then the number, and leaves the
  // sum and the tickets at zero for the slot's next check. A check that counts more blocks than it
  // launches publishes nothing (the host's wait gives up: norm_slots.hpp).
  double sum = 0.0;
  unsigned tickets = 0;
  PublishedNorm slot{kNaN, 0};
  const dim3 launches[] = {{3, 1}, {2, 2}, {5, 3}};
  unsigned blocks = 0;
  double total = 0.0;
  for (const dim3& g : launches) blocks += g.x * g.y;
  for (unsigned long long sequence : {1ULL, 3ULL}) {  // the slot's check, then its check two later
    const NormPublication publish{&tickets, blocks, &slot, sequence};
    unsigned launched = 0;
    emu::fences = emu::system_fences = 0;
    for (const dim3& g : launches) {
      emu::launch(g, dim3(32), false, [&] {
        const double block_sum = static_cast<double>(sequence) * (1.0 + blockIdx.x + 10.0 * blockIdx.y);
        if (threadIdx.x == 0) add_to_norm(&sum, block_sum, publish);
      });
      launched += g.x * g.y;
      if (sequence == 1)
        for (unsigned y = 0; y < g.y; ++y)
          for (unsigned x = 0; x < g.x; ++x) total += 1.0 + x + 10.0 * y;
      if (launched < blocks) {
        EXPECT_EQ(slot.sequence, sequence == 1 ? 0ULL : 1ULL) << "published before the check's last block";
        EXPECT_EQ(tickets, launched);
      }
    }
    EXPECT_EQ(slot.sequence, sequence);
    EXPECT_EQ(slot.value, static_cast<double>(sequence) * total);
    EXPECT_EQ(sum, 0.0);
    EXPECT_EQ(tickets, 0U);
    EXPECT_EQ(emu::fences, static_cast<int>(blocks) + 1);  // one per block, and the last block's second
    EXPECT_EQ(emu::system_fences, 1);
  }

  // Counted one block too many: the last ticket never comes, and nothing is published.
  const NormPublication over{&tickets, blocks + 1, &slot, 5};
  for (const dim3& g : launches)
    emu::launch(g, dim3(32), false, [&] {
      if (threadIdx.x == 0) add_to_norm(&sum, 1.0, over);
    });
  EXPECT_EQ(slot.sequence, 3ULL);
  EXPECT_EQ(tickets, blocks);

  // No slot (NCCL's and MPI's sum): the blocks add, and take no ticket.
  double kept = 0.0;
  unsigned untouched = 0;
  emu::launch(dim3(4, 2), dim3(32), false, [&] {
    if (threadIdx.x == 0) add_to_norm(&kept, 0.5, NormPublication{&untouched, 8, nullptr, 9});
  });
  EXPECT_EQ(kept, 4.0);
  EXPECT_EQ(untouched, 0U);
}

}  // namespace
}  // namespace gpgpu::jacobi::cuda
