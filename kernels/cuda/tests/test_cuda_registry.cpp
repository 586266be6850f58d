// What can be checked without a GPU: every variant names an existing kernel file, a row of the
// work table and (where it has one) a figure of the paper; device_bytes() grows with the grid.
#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "gpgpu/cuda_jacobi.hpp"
#include "gpgpu/errors.hpp"
#include "gpgpu/paper000.hpp"
#include "gpgpu/work_counts.hpp"

namespace {

namespace cj = gpgpu::cuda_jacobi;

TEST(CudaJacobiRegistry, NamesAreUniqueAndFilesExist) {
  std::set<std::string> names;
  for (const cj::VariantInfo& v : cj::variants()) {
    EXPECT_TRUE(names.insert(std::string(v.name)).second) << v.name;
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(GPGPU_SOURCE_DIR) / v.kernel_file)) << v.kernel_file;
    EXPECT_NO_THROW((void)gpgpu::work_counts(v.work)) << v.name;
    EXPECT_GE(v.default_block_x, 1);
    EXPECT_LE(v.default_block_x * v.default_block_y, 1024);
    EXPECT_EQ(&cj::variant_info(v.name), &v);
  }
  EXPECT_THROW((void)cj::variant_info("no_such_kernel"), gpgpu::UsageError);
}

TEST(CudaJacobiRegistry, PaperNamesExistInThePaperTables) {
  for (const cj::VariantInfo& v : cj::variants()) {
    if (v.paper_name.empty()) continue;
    bool found = !gpgpu::paper000::results_1024(v.paper_name).empty();
    for (const auto& row : gpgpu::paper000::kSweep) found = found || row.implementation == v.paper_name;
    EXPECT_TRUE(found) << v.name << " -> " << v.paper_name;
  }
}

TEST(CudaJacobiRegistry, DeviceBytesCoverTheMinimumAndGrow) {
  for (const cj::VariantInfo& v : cj::variants()) {
    const gpgpu::Grid small{100, 100}, large{1000, 1000};
    const double floats = v.work == "jacobi9_symmetric" ? 8.0 : 12.0;  // stored arrays + f + 2 x
    EXPECT_GE(cj::device_bytes(v.name, small), floats * 4.0 * 100 * 100) << v.name;
    EXPECT_GT(cj::device_bytes(v.name, large), cj::device_bytes(v.name, small)) << v.name;
  }
}

}  // namespace
