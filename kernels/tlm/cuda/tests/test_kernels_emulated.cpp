// Every CUDA kernel of kernels/tlm/cuda, unchanged, run on the CPU by the emulation of the CUDA
// thread model of the Jacobi kernels (kernels/jacobi/cuda/tests/cuda_emulation.hpp), through a
// host loop that keeps the buffers the way chapters/11_tlm_coalesced/cuda_variants.cpp does, against
// the double-precision reference at the awkward sizes and at the step counts of the tolerance's
// tests. No GPU needed (label cpu): wrong indices, segment tails, walls, swaps, the ping-pong and
// the half conversions show up before a GPU sees the code.
#include <cuda_fp16.h>  // first, with the toolkit's own host definitions

#include "jacobi/cuda/tests/cuda_emulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/harness/random.hpp"
#include "gpgpu/tlm/checks.hpp"
#include "gpgpu/tlm/half_model.hpp"
#include "gpgpu/tlm/layouts.hpp"

#define GPGPU_CUDA_EMULATION
#include "../11_02_fused.cu"
#include "../11_01_scatter_connect.cu"
#include "../11_03_fused_vector.cu"
#include "../11_04_fused_loads_first.cu"

namespace gpgpu::tlm::cuda {
namespace {

enum class Kernel { aos, coalesced, fused, fused_half, vector, vector_half, loads_first_half };

bool keeps_reflected(Kernel k) { return k != Kernel::aos && k != Kernel::coalesced; }
bool stores_halves(Kernel k) {
  return k == Kernel::fused_half || k == Kernel::vector_half || k == Kernel::loads_first_half;
}

// The CUDA host loop on host vectors: the kernels launched by the emulation.
class EmulatedSolver final : public Solver {
 public:
  /// `block` threads along x; for the vector kernels, blocks of 32 x `block` threads and `nodes` nodes per thread.
  EmulatedSolver(const Setup& p, Kernel kernel, int block, int nodes = 1)
      : p_(p), kernel_(kernel), block_(block), nodes_(nodes),
        layout_(kernel == Kernel::aos ? array_of_structures(p.structure.mesh) : segmented(p.structure.mesh)),
        probe_(static_cast<std::size_t>(kProbeValues) * p.steps) {}

  void reset(std::span<const float> incident) override {
    std::vector<float> start(incident.begin(), incident.end());
    if (keeps_reflected(kernel_)) connect<float>(p_.structure, incident, start);  // the fused kernels keep reflected pulses
    buffer_[0] = to_layout(layout_, start);
    buffer_[1].assign(buffer_[0].size(), std::numeric_limits<float>::quiet_NaN());
    for (int b = 0; b < 2; ++b) {
      half_[b].resize(buffer_[b].size());
      std::transform(buffer_[b].begin(), buffer_[b].end(), half_[b].begin(), [](float x) { return __float2half_rn(x); });
    }
    std::fill(probe_.begin(), probe_.end(), std::numeric_limits<float>::quiet_NaN());
    current_ = step_ = 0;
  }

  double run(int steps) override {
    for (int s = 0; s < steps; ++s, ++step_) step(step_);
    return 0.0;
  }

  std::vector<float> pulses() override {
    std::vector<float> stored = buffer_[current_];
    if (stores_halves(kernel_))
      std::transform(half_[current_].begin(), half_[current_].end(), stored.begin(), [](__half h) { return __half2float(h); });
    std::vector<float> canonical = from_layout(layout_, stored);
    if (!keeps_reflected(kernel_)) return canonical;
    std::vector<float> incident(canonical.size());
    connect<float>(p_.structure, canonical, incident);
    return incident;
  }
  std::vector<float> probe() override { return {probe_.begin(), probe_.begin() + kProbeValues * step_}; }

 private:
  void step(int n) {
    const Structure& s = p_.structure;
    const Mesh& m = s.mesh;
    StepArgs a;
    a.extent = s.extent();
    a.irises = s.iris_table();
    a.pitch = layout_.pitch;
    a.plane = static_cast<int>(layout_.plane);
    a.source_node = static_cast<int>(m.index(p_.drive.source.i, p_.drive.source.j, p_.drive.source.k));
    a.source_polarisation = p_.drive.source.polarisation;
    a.source_value = static_cast<float>(p_.drive.value(n));
    a.probe_node = static_cast<int>(m.index(p_.drive.probe.i, p_.drive.probe.j, p_.drive.probe.k));
    a.probe = probe_.data() + static_cast<std::size_t>(kProbeValues) * n;
    const dim3 grid = grid_for(a.extent, block_), block(block_);
    const SegmentedAddress segmented{a.pitch, a.extent.ny, a.plane};
    const AosAddress aos{a.extent.nx, a.extent.ny};
    float* pulses = buffer_[0].data();
    switch (kernel_) {
      case Kernel::aos:
        emu::launch(grid, block, false, [&] { tlm_scatter(pulses, aos, a); });
        emu::launch(grid, block, false, [&] { tlm_connect(pulses, aos, a); });
        break;
      case Kernel::coalesced:
        emu::launch(grid, block, false, [&] { tlm_scatter(pulses, segmented, a); });
        emu::launch(grid, block, false, [&] { tlm_connect(pulses, segmented, a); });
        break;
      case Kernel::fused:
        emu::launch(grid, block, false, [&] {
          tlm_fused<float>(buffer_[current_].data(), buffer_[1 - current_].data(), segmented, a);
        });
        current_ = 1 - current_;
        break;
      case Kernel::fused_half:
        emu::launch(grid, block, false, [&] {
          tlm_fused<__half>(half_[current_].data(), half_[1 - current_].data(), segmented, a);
        });
        current_ = 1 - current_;
        break;
      case Kernel::loads_first_half:
        emu::launch(grid, block, false, [&] {
          tlm_fused_half_loads_first(half_[current_].data(), half_[1 - current_].data(), segmented, a);
        });
        current_ = 1 - current_;
        break;
      case Kernel::vector:
      case Kernel::vector_half: {
        // Blocks of 32 x block_ threads, each warp 32·nodes_ nodes of a row; fibers, for the shuffles.
        const dim3 vgrid((a.extent.nx + 32 * nodes_ - 1) / (32 * nodes_), (a.extent.ny + block_ - 1) / block_, a.extent.nz);
        emu::launch(vgrid, dim3(32, block_), true, [&] {
          if (kernel_ == Kernel::vector_half)
            nodes_ == 2 ? tlm_fused_vector<__half, 2>(half_[current_].data(), half_[1 - current_].data(), segmented, a)
                        : tlm_fused_vector<__half, 4>(half_[current_].data(), half_[1 - current_].data(), segmented, a);
          else
            nodes_ == 2 ? tlm_fused_vector<float, 2>(buffer_[current_].data(), buffer_[1 - current_].data(), segmented, a)
                        : tlm_fused_vector<float, 4>(buffer_[current_].data(), buffer_[1 - current_].data(), segmented, a);
        });
        current_ = 1 - current_;
        break;
      }
    }
  }

  const Setup& p_;
  Kernel kernel_;
  int block_, nodes_;
  PulseLayout layout_;
  std::vector<float> buffer_[2];
  std::vector<__half> half_[2];
  std::vector<float> probe_;
  int current_ = 0, step_ = 0;
};

struct Param {
  const char* name;
  Kernel kernel;
  int block;
  int nodes = 1;  ///< nodes per thread (the vector kernels)
};

class EmulatedKernels : public ::testing::TestWithParam<std::tuple<Param, checks::Case>> {};

Storage storage_of(Kernel k) { return stores_halves(k) ? Storage::f16 : Storage::f32; }

TEST_P(EmulatedKernels, MatchTheReference) {
  const auto& [k, c] = GetParam();
  EmulatedSolver solver(checks::setup_of(c), k.kernel, k.block, k.nodes);
  EXPECT_TRUE(checks::matches_reference(solver, c, storage_of(k.kernel)));
}

// Wrong results (a pulse zeroed or negated, half the steps) fail wherever the field is above the
// tolerance's floor; FP32 has none, so its wrong results fail even at 1 and 8 steps of the
// chapter's run from rest, where the field is 1e-16 to 1e-11 V.
TEST_P(EmulatedKernels, TellRightFromWrong) {
  const auto& [k, c] = GetParam();
  EmulatedSolver solver(checks::setup_of(c), k.kernel, k.block, k.nodes);
  EXPECT_TRUE(checks::tells_right_from_wrong(solver, c, storage_of(k.kernel)));
}

std::string name(const ::testing::TestParamInfo<EmulatedKernels::ParamType>& info) {
  const auto& [k, c] = info.param;
  return std::string(k.name) + "_" + c.name;
}

// The paper's 64 threads, and blocks that do not divide a segment or the mesh; the vector kernels
// with their 4 rows per block and with 3 (which divides no test mesh's rows but 3).
auto kernels() {
  return ::testing::Values(Param{"aos_b64", Kernel::aos, 64}, Param{"coalesced_b64", Kernel::coalesced, 64},
                           Param{"coalesced_b32", Kernel::coalesced, 32}, Param{"fused_b64", Kernel::fused, 64},
                           Param{"fused_b96", Kernel::fused, 96}, Param{"fused_half_b64", Kernel::fused_half, 64},
                           Param{"vector_x2_r4", Kernel::vector, 4, 2}, Param{"vector_x4_r4", Kernel::vector, 4, 4},
                           Param{"vector_x4_r3", Kernel::vector, 3, 4}, Param{"vector_half_x2_r4", Kernel::vector_half, 4, 2},
                           Param{"vector_half_x4_r4", Kernel::vector_half, 4, 4},
                           Param{"loads_first_half_b64", Kernel::loads_first_half, 64});
}

INSTANTIATE_TEST_SUITE_P(Awkward, EmulatedKernels,
                         ::testing::Combine(kernels(), ::testing::ValuesIn(checks::awkward_cases(false))), name);
// The step counts a user may pick: 1, 8, 48 and 200 steps of the chapter's run from rest (below
// half's smallest subnormal at first) and of random pulses. The vector kernels are left out here:
// VectorKernels below proves them bit for bit the fused kernels at these same cases, so they pass
// or fail with them (and their fibers, which the shuffles need, make each case far slower to emulate).
auto one_node_kernels() {
  return ::testing::Values(Param{"aos_b64", Kernel::aos, 64}, Param{"coalesced_b64", Kernel::coalesced, 64},
                           Param{"coalesced_b32", Kernel::coalesced, 32}, Param{"fused_b64", Kernel::fused, 64},
                           Param{"fused_b96", Kernel::fused, 96}, Param{"fused_half_b64", Kernel::fused_half, 64});
}
INSTANTIATE_TEST_SUITE_P(StepCounts, EmulatedKernels,
                         ::testing::Combine(one_node_kernels(), ::testing::ValuesIn(checks::bound_cases())), name);

/// Runs `ours` and `before` on case c and expects the same pulses and probe, bit for bit.
void expect_bit_for_bit(const checks::Case& c, EmulatedSolver& ours, EmulatedSolver& before, const std::string& what) {
  const checks::Outcome a = checks::run_case(ours, c, c.steps), b = checks::run_case(before, c, c.steps);
  ASSERT_EQ(a.pulses.size(), b.pulses.size()) << what;
  EXPECT_EQ(0, std::memcmp(a.pulses.data(), b.pulses.data(), a.pulses.size() * sizeof(float))) << what;
  ASSERT_EQ(a.probe.size(), b.probe.size()) << what;
  EXPECT_EQ(0, std::memcmp(a.probe.data(), b.probe.data(), a.probe.size() * sizeof(float))) << what;
}

/// The awkward sizes (rows of 63, 67 and 130 nodes, one node, the irises) and the step counts.
std::vector<checks::Case> bit_for_bit_cases() {
  std::vector<checks::Case> cases = checks::awkward_cases(false);
  for (const checks::Case& c : checks::bound_cases()) cases.push_back(c);
  return cases;
}

// The vector kernels compute what the fused kernel computes, node by node in the same order: the
// same pulses and probe, bit for bit, in FP32 and in half storage, at the awkward sizes and at the
// step counts.
TEST(VectorKernels, AreTheFusedKernelBitForBit) {
  std::vector<checks::Case> cases = bit_for_bit_cases();
  // A row of exactly one 4-node warp (128) and one node past it, over 5 rows (4 + 1 per block).
  cases.push_back({"cavity_128x5x2", Scenario::cavity, {128, 5, 2, 1e-3}, 4, 1});
  cases.push_back({"cavity_129x5x2", Scenario::cavity, {129, 5, 2, 1e-3}, 5, 2});
  for (const checks::Case& c : cases)
    for (const auto& [vector, fused] : {std::pair{Kernel::vector, Kernel::fused}, std::pair{Kernel::vector_half, Kernel::fused_half}})
      for (int nodes : {2, 4}) {
        EmulatedSolver ours(checks::setup_of(c), vector, 4, nodes), before(checks::setup_of(c), fused, 64);
        expect_bit_for_bit(c, ours, before,
                           c.name + ", " + std::to_string(nodes) + " nodes per thread" + (vector == Kernel::vector_half ? ", half" : ""));
      }
}

// 11_04 loads first and converts after, and flips a wall's sign on the stored bits: the half kernel's
// pulses and probe all the same, bit for bit, at the same cases, with the paper's block and with
// blocks that end mid-row (96) or hold less than a segment (32).
TEST(LoadsFirstKernel, IsTheFusedHalfKernelBitForBit) {
  for (const checks::Case& c : bit_for_bit_cases())
    for (int block : {64, 96, 32}) {
      EmulatedSolver ours(checks::setup_of(c), Kernel::loads_first_half, block), before(checks::setup_of(c), Kernel::fused_half, 64);
      expect_bit_for_bit(c, ours, before, c.name + ", block " + std::to_string(block));
    }
}

// The CPU model of half storage (half_model.hpp), which proves the tolerance in test_tlm without a
// CUDA toolkit, is this kernel: its rounding is __float2half_rn's, and its pulses and probe are the
// kernel's, bit for bit.
TEST(HalfModel, RoundsLikeTheToolkit) {
  std::vector<float> values = harness::random_values<float>(1 << 16, 3, -2.0f, 2.0f);
  for (int e = -27; e <= 16; ++e)
    for (int m = 0; m < 64; ++m) {
      const float x = std::ldexp(1.0f + static_cast<float>(m) / 64.0f, e);
      values.insert(values.end(), {x, -x, std::nextafter(x, 0.0f), std::nextafter(x, 1e30f)});
    }
  for (int k = 0; k < 4096; ++k) values.push_back(std::ldexp(static_cast<float>(k), -25));  // subnormal ties
  for (float x : values) {
    const float kernel = __half2float(__float2half_rn(x)), model = checks::round_to_half(x);
    ASSERT_TRUE(kernel == model && std::signbit(kernel) == std::signbit(model))
        << x << ": " << kernel << " != " << model;
  }
}

TEST(HalfModel, IsTheKernelBitForBit) {
  for (const checks::Case& c : checks::bound_cases()) {
    EmulatedSolver kernel(checks::setup_of(c), Kernel::fused_half, 64);
    checks::HalfStorageModel model(checks::setup_of(c));
    const checks::Outcome a = checks::run_case(kernel, c, c.steps), b = checks::run_case(model, c, c.steps);
    EXPECT_EQ(a.pulses, b.pulses) << c.name;
    EXPECT_EQ(a.probe, b.probe) << c.name;
  }
}

TEST(EmulatedKernels, HalfStorageIsReallyHalf) {
  // Half storage must differ from FP32 by more than FP32 rounding (or the test above proves nothing
  // about its tolerance), and stay within its own tolerance.
  const checks::Case c = checks::awkward_cases(false)[3];
  EmulatedSolver half(checks::setup_of(c), Kernel::fused_half, 64), single(checks::setup_of(c), Kernel::fused, 64);
  for (EmulatedSolver* s : {&half, &single}) {
    s->reset(checks::random_pulses(c.mesh, 7));
    s->run(c.steps);
  }
  const std::vector<float> h = half.pulses(), f = single.pulses();
  std::vector<double> fd(f.begin(), f.end());
  const Verification v = compare_normwise(h, fd, tolerance(Storage::f16, c.steps));
  EXPECT_TRUE(v.pass) << v.summary();
  EXPECT_GT(v.rel_l2, 10 * tolerance(Storage::f32, c.steps)) << v.summary();
}

}  // namespace
}  // namespace gpgpu::tlm::cuda
