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

// 13_peer_store.cu's norm: its blocks' atomicAdd (the norm kernel's, which the tests below stand in
// for: its CUB reduction is device code) and publish_norm's fence. launch() runs one block after
// another, so a plain read-modify-write is atomic here and a fence has nothing to order; the fence
// counts its calls (one per publication).
namespace emu {
inline int system_fences = 0;
}  // namespace emu
template <typename T>
T atomicAdd(T* address, T value) {
  return std::exchange(*address, *address + value);
}
inline void __threadfence_system() { ++emu::system_fences; }

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
      emu::launch(grid, dim3(c.block_x), false, [&] { jacobi_peer_store(a, below, above, c.rows_per_thread, {}); });
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

// The norm's slots as chapter 13 keeps them: check n adds to sums[n % 2] and is published under the
// number n + 1 into slots[n % 2]. The slots start poisoned (NaN, "never"), the sums at zero.
struct NormSlots {
  double sums[2] = {0.0, 0.0};
  PublishedNorm slots[2] = {{kNaN, 0}, {kNaN, 0}};
  NormPublication of(unsigned long long n) { return {&sums[n % 2], &slots[n % 2], n + 1}; }
};

// One launch of check n's norm kernel, its steps around its CUB reduction: block 0's thread 0 first
// publishes the check the launch carries (publish_carried), then every block adds its sum (integers,
// exact in any order) by one atomicAdd. Returns the sum of the blocks' sums.
double norm_launch(dim3 grid, unsigned long long n, double* sum, const NormPublication& carried) {
  double added = 0.0;
  emu::launch(grid, dim3(32), false, [&] {
    publish_carried(carried);
    const double block_sum = static_cast<double>(n + 1) * (1.0 + blockIdx.x + 10.0 * blockIdx.y);
    if (threadIdx.x == 0) {
      atomicAdd(sum, block_sum);
      added += block_sum;
    }
  });
  return added;
}

TEST(EmulatedKernels, ALaterLaunchPublishesACheckAndZeroesItsSum) {
  // A check every iteration, overlapped, as the overlap variant makes it: three launches per check
  // (two boundary rows, then the interior); the first launch of check n publishes check n - 1. A
  // check's value is in its slot only after that later launch, equal to the sum of its blocks'
  // sums, published once (one fence: a second publisher would read the zeroed sum and publish 0),
  // with the sum zeroed for the slot's next check and the other slot untouched.
  NormSlots norm;
  const dim3 launches[] = {{3, 1}, {2, 2}, {5, 3}};
  std::vector<double> totals;
  for (unsigned long long n = 0; n < 6; ++n) {
    emu::system_fences = 0;
    const std::size_t slot = n % 2, other = 1 - slot;
    const PublishedNorm before_in_slot = norm.slots[slot];
    double total = 0.0;
    for (std::size_t l = 0; l < std::size(launches); ++l) {
      const bool carries = l == 0 && n > 0;
      const PublishedNorm before_in_other = norm.slots[other];
      total += norm_launch(launches[l], n, &norm.sums[slot], carries ? norm.of(n - 1) : NormPublication{});
      if (carries) {
        SCOPED_TRACE("check " + std::to_string(n - 1) + ", published by check " + std::to_string(n) + "'s first launch");
        EXPECT_EQ(norm.slots[other].sequence, n);
        EXPECT_EQ(norm.slots[other].value, totals[n - 1]);
        EXPECT_EQ(norm.sums[other], 0.0) << "the sum is zeroed for the slot's next check";
        EXPECT_GT(norm.slots[other].sequence, before_in_other.sequence) << "a slot's numbers only grow";
      } else {
        EXPECT_EQ(0, std::memcmp(&norm.slots[other], &before_in_other, sizeof before_in_other)) << "launch " << l;
      }
      EXPECT_EQ(0, std::memcmp(&norm.slots[slot], &before_in_slot, sizeof before_in_slot))
          << "check " << n << " published before a later launch";
    }
    EXPECT_EQ(emu::system_fences, n > 0 ? 1 : 0) << "one thread publishes, once";
    EXPECT_EQ(norm.sums[slot], total);
    totals.push_back(total);
  }

  // The last check, which the host waits for before launching anything more: its own one-thread kernel.
  emu::system_fences = 0;
  emu::launch(dim3(1), dim3(1), false, [&] { jacobi_publish_norm(norm.of(5)); });
  EXPECT_EQ(norm.slots[1].sequence, 6U);
  EXPECT_EQ(norm.slots[1].value, totals[5]);
  EXPECT_EQ(norm.sums[1], 0.0);
  EXPECT_EQ(emu::system_fences, 1);
  EXPECT_EQ(norm.slots[0].sequence, 5U);  // the other slot keeps check 4
  EXPECT_EQ(norm.slots[0].value, totals[4]);
}

TEST(EmulatedKernels, ThePlainSweepPublishesTheCheckItCarriesAndSweepsAsWithout) {
  // The iteration after a check (every k > 1) launches the plain peer-store kernel, which publishes
  // the check: the same bits of the sweep with and without it, a launch that carries none touches no
  // slot and no sum, and a sum poisoned with NaN reaches the slot as NaN (the host must see it).
  const Grid g{33, 17};
  const auto sys = assemble_bidomain(g);
  const auto x0 = checks::random_guess(g.nodes(), 12);
  const PitchedCase c{4, 32, 1, 3, 65535};
  const int p = (g.nx + 3) / 4 * 4 + c.pitch_extra;
  std::vector<Pitched> coef;
  for (Dir dir : {Dir::C, Dir::E, Dir::NW, Dir::N, Dir::NE}) coef.push_back(host_pitched(sys.A.diag[idx(dir)], g, p));
  coef.push_back(host_pitched(sys.rhs, g, p));
  const Pitched x = host_pitched(x0, g, p);
  const dim3 grid(blocks_for((g.nx + 3) / 4, c.block_x), blocks_for(g.ny, c.rows_per_thread));
  const auto sweep = [&](const NormPublication& carried) {
    Pitched y = host_pitched({}, g, p, kNaN);
    const auto o = [&](std::size_t i) { return coef[i].origin(); };
    const SymmetricArgs a{o(0), o(1), o(2), o(3), o(4), o(5), x.origin(), y.origin(), g.nx, g.ny, p, kOmega};
    emu::launch(grid, dim3(c.block_x), false, [&] { jacobi_peer_store(a, nullptr, nullptr, c.rows_per_thread, carried); });
    return y.data;
  };

  NormSlots norm;
  norm.sums[0] = 6.25;
  norm.sums[1] = -3.0;  // poison: a check in flight on the other slot, which nothing may touch
  emu::system_fences = 0;
  const std::vector<float> plain = sweep({});
  EXPECT_EQ(emu::system_fences, 0);
  EXPECT_EQ(norm.sums[0], 6.25);
  EXPECT_EQ(norm.slots[0].sequence, 0U);
  EXPECT_TRUE(std::isnan(norm.slots[0].value));

  const std::vector<float> publishing = sweep(norm.of(2));  // check 2: slot 0, number 3
  ASSERT_EQ(publishing.size(), plain.size());
  EXPECT_EQ(0, std::memcmp(publishing.data(), plain.data(), plain.size() * sizeof(float)));
  EXPECT_EQ(emu::system_fences, 1);
  EXPECT_EQ(norm.slots[0].sequence, 3U);
  EXPECT_EQ(norm.slots[0].value, 6.25);
  EXPECT_EQ(norm.sums[0], 0.0);
  EXPECT_EQ(norm.sums[1], -3.0);
  EXPECT_EQ(norm.slots[1].sequence, 0U);
  EXPECT_TRUE(std::isnan(norm.slots[1].value));

  norm.sums[0] = std::numeric_limits<double>::quiet_NaN();
  (void)sweep(norm.of(4));
  EXPECT_EQ(norm.slots[0].sequence, 5U);
  EXPECT_TRUE(std::isnan(norm.slots[0].value)) << "a NaN sum is published as NaN, not hidden";
  EXPECT_EQ(norm.sums[0], 0.0);
}

}  // namespace
}  // namespace gpgpu::jacobi::cuda
