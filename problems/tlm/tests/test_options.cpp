// The option group: scenario defaults, --quick sizes that are no multiple of 64, the WR-28
// cross-section derived from --ny, and the combinations it refuses.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpgpu/errors.hpp"
#include "gpgpu/harness/command_line.hpp"
#include "gpgpu/tlm/layouts.hpp"
#include "gpgpu/tlm/options.hpp"
#include "gpgpu/tlm/work.hpp"

namespace gpgpu::tlm {
namespace {

Options parse(std::vector<std::string> args) {
  return harness::parse_group<Options>(std::move(args), [](Cli& cli, Options& o) { add_options(cli, o); });
}

TEST(TlmOptions, ScenariosHaveTheirDefaults) {
  const Options cavity = parse({});
  EXPECT_EQ(cavity.mesh.nodes(), 24 * 18 * 14);
  EXPECT_EQ(cavity.steps, 8000);
  const Options filter = parse({"--scenario", "filter"});
  EXPECT_EQ(filter.mesh.nodes(), 150016) << "the paper's 150,000-node filter";
  EXPECT_DOUBLE_EQ(filter.mesh.dl * filter.mesh.nx, kWr28A);
}

TEST(TlmOptions, QuickSizesAreNoMultipleOf64) {
  for (const char* s : {"cavity", "waveguide", "filter"}) {
    const Options o = parse({"--quick", "--scenario", s});
    EXPECT_NE(o.mesh.nx % 64, 0) << s;
    EXPECT_NE(o.mesh.ny % 64, 0) << s;
    EXPECT_NE(o.mesh.nz % 64, 0) << s;
    EXPECT_EQ(o.steps, quick_steps(o.scenario));
  }
}

TEST(TlmOptions, TheGuideTakesItsCrossSectionFromNy) {
  const Options o = parse({"--scenario", "waveguide", "--ny", "8", "--nz", "50"});
  EXPECT_EQ(o.mesh.nx, 16);
  EXPECT_DOUBLE_EQ(o.mesh.dl, kWr28B / 8);
  EXPECT_EQ(o.mesh.nz, 50);
}

TEST(TlmOptions, CavityTakesEverySizeAndTheCellInMillimetres) {
  const Options o = parse({"--nx", "5", "--ny", "6", "--nz", "7", "--dl", "0.5", "--steps", "9"});
  EXPECT_EQ(o.mesh.nx * 100 + o.mesh.ny * 10 + o.mesh.nz, 567);
  EXPECT_DOUBLE_EQ(o.mesh.dl, 0.5e-3);
  EXPECT_EQ(o.steps, 9);
}

TEST(TlmOptions, RefusesWhatCannotRun) {
  EXPECT_THROW(parse({"--scenario", "waveguide", "--nx", "20"}), UsageError);
  EXPECT_THROW(parse({"--scenario", "filter", "--nz", "20"}), UsageError);
  EXPECT_THROW(parse({"--nx", "2000", "--ny", "2000", "--nz", "100"}), UsageError);
  EXPECT_THROW(parse({"--dl", "0"}), UsageError);
  EXPECT_THROW(parse({"--scenario", "horn"}), UsageError);
}

TEST(TlmWork, TheFusedStepMoves96BytesPerNode) {
  EXPECT_EQ(kernel_work("scn_fused").bytes_min(), 96);
  EXPECT_EQ(kernel_work("scn_fused_half").bytes_min(), 48);
  EXPECT_EQ(kernel_work("scn_two_kernel").bytes_min(), 192);
  const Work w = work("scn_fused", {10, 10, 10, 1e-3}, 3);
  EXPECT_EQ(w.items, 3000);
  EXPECT_EQ(w.bytes_min, 3000 * 96.0);
  EXPECT_EQ(w.flops, 3000 * 48.0);
  const StreamMix mix = stream_mix("scn_fused_half", {10, 10, 10, 1e-3});
  EXPECT_EQ(mix.reads, 12);
  EXPECT_EQ(mix.writes, 12);
  EXPECT_EQ(mix.element_bytes, 2);
}

TEST(TlmLayouts, RoundTripAndPadding) {
  const Mesh m{67, 3, 2, 1e-3};
  std::vector<float> canonical(static_cast<std::size_t>(kPorts * m.nodes()));
  for (std::size_t k = 0; k < canonical.size(); ++k) canonical[k] = static_cast<float>(k);
  for (const PulseLayout& l : {array_of_structures(m), segmented(m)}) {
    const std::vector<float> stored = to_layout(l, canonical);
    EXPECT_EQ(from_layout(l, stored), canonical) << l.str();
  }
  const PulseLayout s = segmented(m);
  EXPECT_EQ(s.pitch, 128);
  EXPECT_EQ(s.at(1, 0, 0, 0), s.plane);
  EXPECT_EQ(s.at(0, 5, 1, 0), 128 + 5);
  EXPECT_TRUE(std::isnan(to_layout(s, canonical)[static_cast<std::size_t>(s.at(0, 67, 0, 0))])) << "padding is NaN";
  EXPECT_EQ(array_of_structures(m).at(3, 1, 0, 0), 12 + 3);
}

}  // namespace
}  // namespace gpgpu::tlm
