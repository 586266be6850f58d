// Paper 000's figures, recomputed from its own times: every GB/s with 2^30-byte gigabytes and 80 B
// (all accesses) or 48 B (device memory; 56 B for CUDA Shared) per node, every GFLOPS with 10^9
// and the implementation's FLOPs per node. A figure typed wrong, or a count that does not explain
// the paper's numbers, fails here.
#include <cmath>

#include <gtest/gtest.h>

#include "gpgpu/jacobi/paper000.hpp"

namespace gpgpu::jacobi::paper000 {
namespace {

constexpr double kNodeUpdates = 1024.0 * 1024.0 * 1000.0;  // 1000 iterations at 1024²

TEST(Paper000, GigabytesPerSecondFollowFromTheTimes) {
  for (const Result& r : kResults1024) {
    EXPECT_NEAR(kAllBytesPerNode * kNodeUpdates / kGiB / r.seconds, r.gbs_all, 0.01 * r.gbs_all)
        << r.machine << " " << r.implementation;
    if (std::isnan(r.gbs_device)) continue;
    EXPECT_NEAR(device_bytes_per_node(r.implementation) * kNodeUpdates / kGiB / r.seconds, r.gbs_device,
                0.01 * r.gbs_device)
        << r.machine << " " << r.implementation;
  }
}

TEST(Paper000, GflopsFollowFromTheTimesWithEachImplementationsCount) {
  for (const Result& r : kResults1024) {
    const double flops = flops_per_node(r.implementation);
    ASSERT_TRUE(std::isfinite(flops)) << r.implementation;
    // Decimal GFLOPS (10^9): the printed two-digit figures agree within 1.5%.
    EXPECT_NEAR(flops * kNodeUpdates / 1e9 / r.seconds, r.gflops, 0.015 * r.gflops)
        << r.machine << " " << r.implementation;
  }
}

TEST(Paper000, ImplementationsWithoutGflopsHaveNoCount) {
  EXPECT_TRUE(std::isnan(flops_per_node("CUDA Simple")));
  EXPECT_TRUE(std::isnan(flops_per_node("no such implementation")));
}

TEST(Paper000, MachinesAreKnown) {
  for (const Result& r : kResults1024) EXPECT_NE(machine(r.machine), nullptr) << r.machine;
  for (const SweepRow& r : kSweep) EXPECT_NE(machine(r.machine), nullptr) << r.machine;
}

}  // namespace
}  // namespace gpgpu::jacobi::paper000
