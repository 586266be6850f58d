// The check of exercise 11, built against the skeleton (label `exercise`), the worked answer (label
// `solution`) and the shortcuts the grading tests must see fail. Two kinds of test:
// - the layout the kernel chose (its half_slot(), read back through tlm_half_slots): two bytes per
//   pulse; the two ports of each face of a node in one aligned 4-byte word, so that one load brings
//   both pulses a face receives; and a face's words of consecutive work-items consecutive, each
//   row starting on a 128-byte line, so that a work-group's load is one contiguous run of bytes;
//   and a kernel that moves those words whole (its text calls vload_half2 and vstore_half2, and
//   no scalar vload_half or vstore_half, which would move each 2-byte pulse on its own);
// - the results: the CPU double-precision reference within the FP16 tolerance
//   (gpgpu::tlm::tolerance) at the awkward sizes and at 1, 8, 48 and 200 steps, halves really
//   stored (more different from the FP32 kernel than FP32 rounding), and 3000 steps of the box
//   still ringing at its resonances.
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "embedded/_11_fused_half_cl.hpp"
#include "gpgpu/harness/source_code.hpp"
#include "gpgpu/tlm/checks.hpp"
#include "gpgpu/tlm/options.hpp"
#include "gpgpu/tlm/physics.hpp"
#include "opencl_variants.hpp"

namespace {

using gpgpu::tlm::Mesh;
using gpgpu::tlm::Storage;
using gpgpu::tlm::checks::Case;

gpgpu::ocl::Runtime& runtime() { return gpgpu::ocl::shared_runtime(); }

const cl::Program& half_program() {
  return runtime().program(gpgpu::tlm::opencl_half_program_with(gpgpu::embedded::_11_fused_half_cl));
}

ch11::OpenClSolver half_solver(const gpgpu::tlm::Setup& setup) {
  return {runtime(), half_program(), setup, ch11::OpenClKernels::fused, Storage::f16};
}

// --- The layout ---------------------------------------------------------------------------------

// A 4-byte word holds two halves: elements 2w and 2w + 1.
constexpr std::int64_t kHalvesPerWord = 2;
// A row of a face must start on a 128-byte line (32 words): a warp's load, an H100 cache line.
constexpr std::int64_t kLineWords = 32;

struct Slots {
  Mesh mesh;
  std::vector<std::int32_t> at;  // element of pulse p of node n at [p·nodes + n]
  [[nodiscard]] std::int64_t of(int p, int i, int j, int k) const {
    return at[static_cast<std::size_t>(p * mesh.nodes() + mesh.index(i, j, k))];
  }
  [[nodiscard]] std::int64_t word(int p, int i, int j, int k) const { return of(p, i, j, k) / kHalvesPerWord; }
};

Slots slots_on(const Mesh& mesh) { return {mesh, ch11::half_slots(runtime(), half_program(), mesh)}; }

std::string node_text(int i, int j, int k) {
  return "(" + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) + ")";
}

class HalfLayout : public ::testing::TestWithParam<Case> {};

// 24 bytes of storage per node (48 moved per step): every pulse its own half of the buffer, which
// holds 12 halves per node of the padded rows.
TEST_P(HalfLayout, StoresTwoBytesPerPulse) {
  const Slots s = slots_on(GetParam().mesh);
  const std::int64_t halves = gpgpu::tlm::segmented(s.mesh).elements();
  std::vector<std::int64_t> owner(static_cast<std::size_t>(halves), -1);
  for (std::size_t c = 0; c < s.at.size(); ++c) {
    const std::int64_t e = s.at[c];
    ASSERT_TRUE(e >= 0 && e < halves) << "pulse " << c << " (p·nodes + node) at element " << e
                                      << ": the buffer holds " << halves << " halves, 2 bytes per pulse";
    ASSERT_EQ(owner[static_cast<std::size_t>(e)], -1)
        << "pulses " << owner[static_cast<std::size_t>(e)] << " and " << c << " share element " << e;
    owner[static_cast<std::size_t>(e)] = static_cast<std::int64_t>(c);
  }
}

// A face's two pulses arrive from one place (the neighbour's opposite face, or the face itself at a
// wall), so one 4-byte load can bring both, and one store can write the two a face sends.
TEST_P(HalfLayout, KeepsEachFacesTwoPulsesInOneWord) {
  const Slots s = slots_on(GetParam().mesh);
  const Mesh& m = s.mesh;
  for (int k = 0; k < m.nz; ++k)
    for (int j = 0; j < m.ny; ++j)
      for (int i = 0; i < m.nx; ++i)
        for (int p = 0; p < gpgpu::tlm::kPorts; ++p)
          for (int q = p + 1; q < gpgpu::tlm::kPorts; ++q) {
            using gpgpu::tlm::port_axis, gpgpu::tlm::port_side;
            if (port_axis(p) != port_axis(q) || port_side(p) != port_side(q)) continue;
            ASSERT_EQ(s.word(p, i, j, k), s.word(q, i, j, k))
                << "ports " << p << " and " << q << " share a face of node " << node_text(i, j, k)
                << " but sit at elements " << s.of(p, i, j, k) << " and " << s.of(q, i, j, k)
                << ": not one 4-byte word (elements 2w, 2w + 1)";
          }
}

// Work-items i and i + 1 of a row are neighbours in a work-group: their words of a face must be
// neighbours too, and the row must start on a line, so that a group's load is contiguous.
TEST_P(HalfLayout, GivesNeighbouringWorkItemsNeighbouringWords) {
  const Slots s = slots_on(GetParam().mesh);
  const Mesh& m = s.mesh;
  for (int p = 0; p < gpgpu::tlm::kPorts; ++p)
    for (int k = 0; k < m.nz; ++k)
      for (int j = 0; j < m.ny; ++j) {
        const std::int64_t first = s.word(p, 0, j, k);
        ASSERT_EQ(first % kLineWords, 0) << "port " << p << ", row " << node_text(0, j, k) << ": its first word, "
                                         << first << ", does not start a 128-byte line";
        for (int i = 1; i < m.nx; ++i)
          ASSERT_EQ(s.word(p, i, j, k), first + i)
              << "port " << p << ": node " << node_text(i, j, k) << " is in word " << s.word(p, i, j, k)
              << ", node " << node_text(i - 1, j, k) << " in word " << s.word(p, i - 1, j, k)
              << ": neighbouring work-items must read neighbouring words";
      }
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, HalfLayout, ::testing::ValuesIn(gpgpu::tlm::checks::awkward_cases(false)),
                         gpgpu::tlm::checks::case_name);

// The layout lets one load bring a face's two pulses; the kernel must take it. OpenCL C offers no
// way to ask a device which loads a kernel compiled to, so the kernel's text is read: a kernel that
// keeps the words but calls the scalar vload_half and vstore_half per port (twelve 2-byte loads and
// stores a node, the pattern of the chapter's CUDA kernel) gives the right field and fails here. The
// text cannot show how often a word is loaded: a kernel that loads each face's word twice, once per
// port, passes (the README says so).
TEST(WordAccess, MovesEachFacesTwoPulsesInOneLoadAndOneStore) {
  const std::string code = gpgpu::harness::code_without_comments(gpgpu::embedded::_11_fused_half_cl.text,
                                                                 gpgpu::harness::Literals::blank);
  // Whole names, a call or not (a macro may spell the call): "vload_half2" is no "vload_half".
  const std::regex scalar(R"(\bv(load|store)a?_half(_rt[enpz])?\b)");
  const std::regex vector_load(R"(\bvloada?_half(2|4|8|16)\b)");
  const std::regex vector_store(R"(\bvstorea?_half(2|4|8|16)(_rt[enpz])?\b)");
  std::smatch m;
  if (std::regex_search(code, m, scalar))
    ADD_FAILURE() << "the kernel uses " << m.str() << ": that moves one 2-byte pulse; load and store a face's "
                  << "word whole (vload_half2, vstore_half2)";
  EXPECT_TRUE(std::regex_search(code, vector_load)) << "no vload_half2 (or wider) in the kernel: how are the words loaded?";
  EXPECT_TRUE(std::regex_search(code, vector_store)) << "no vstore_half2 (or wider) in the kernel: how are the words stored?";
}

// --- The results --------------------------------------------------------------------------------

class HalfStorage : public ::testing::TestWithParam<Case> {};

TEST_P(HalfStorage, MatchesTheReference) {
  ch11::OpenClSolver solver = half_solver(gpgpu::tlm::checks::setup_of(GetParam()));
  EXPECT_TRUE(gpgpu::tlm::checks::matches_reference(solver, GetParam(), Storage::f16));
}

INSTANTIATE_TEST_SUITE_P(AwkwardSizes, HalfStorage, ::testing::ValuesIn(gpgpu::tlm::checks::awkward_cases(false)),
                         gpgpu::tlm::checks::case_name);
// 1, 8, 48 and 200 steps of the chapter's run from rest (below half's range at first) and of random pulses.
INSTANTIATE_TEST_SUITE_P(StepCounts, HalfStorage, ::testing::ValuesIn(gpgpu::tlm::checks::bound_cases()),
                         gpgpu::tlm::checks::case_name);

TEST(HalfStorage, StoresHalvesNotFloats) {
  const Case c = gpgpu::tlm::checks::awkward_cases(false)[3];
  const auto& setup = gpgpu::tlm::checks::setup_of(c);
  ch11::OpenClSolver half = half_solver(setup);
  const cl::Program& fp32 = runtime().program(gpgpu::tlm::opencl_program("kernels/tlm/opencl/11_02_fused.cl"));
  ch11::OpenClSolver single(runtime(), fp32, setup, ch11::OpenClKernels::fused);
  for (ch11::OpenClSolver* s : {&half, &single}) {
    s->reset(gpgpu::tlm::checks::random_pulses(c.mesh, 7));
    s->run(c.steps);
  }
  const std::vector<float> h = half.pulses(), f = single.pulses();
  const std::vector<double> fd(f.begin(), f.end());
  const gpgpu::Verification v = gpgpu::compare_normwise(h, fd, gpgpu::tlm::tolerance(Storage::f16, c.steps));
  EXPECT_TRUE(v.pass) << v.summary();
  EXPECT_GT(v.rel_l2, 10 * gpgpu::tlm::tolerance(Storage::f32, c.steps)) << "no more different than FP32: " << v.summary();
}

TEST(HalfStorage, TheBoxStillRingsAtItsResonances) {
  // The chapter's quick cavity from rest, 3000 steps: the probe of the half-precision run shows the
  // same TM lines where the mesh puts them.
  using namespace gpgpu::tlm;
  const Scenario s = Scenario::cavity;
  static const gpgpu::tlm::Setup setup{make_structure(s, quick_mesh(s)), make_drive(s, quick_mesh(s)), quick_steps(s)};
  ch11::OpenClSolver solver = half_solver(setup);
  solver.reset(std::vector<float>(static_cast<std::size_t>(kPorts * setup.structure.mesh.nodes()), 0.0f));
  solver.run(setup.steps);
  const std::vector<float> probe = solver.probe();
  const std::vector<double> signal = probe_component(std::vector<double>(probe.begin(), probe.end()), setup.drive.probe.polarisation);
  const PhysicsCheck c = check_resonances(setup.structure, setup.drive, signal);
  EXPECT_TRUE(c.checked);
  EXPECT_TRUE(c.pass) << c.summary;
}

}  // namespace
