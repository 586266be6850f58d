// .npy output: a valid version 1.0 header (64-byte aligned, shape, dtype) followed by the data.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "gpgpu/npy.hpp"
#include "gpgpu/harness/random.hpp"

namespace gpgpu {
namespace {

struct NpyFile {
  std::string header;
  std::string data;
  std::size_t data_offset = 0;
};

NpyFile read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  NpyFile f;
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  EXPECT_EQ(bytes[6], 1);
  const std::size_t len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  f.header = bytes.substr(10, len);
  f.data_offset = 10 + len;
  f.data = bytes.substr(f.data_offset);
  return f;
}

TEST(Npy, WritesAnAlignedHeaderAndTheRawData) {
  const auto path = std::filesystem::temp_directory_path() / "gpgpu_test_npy.npy";
  const auto values = harness::random_values<float>(3 * 5 * 7, 9, -1.0f, 1.0f);
  write_npy(path, values, {3, 5, 7});
  const NpyFile f = read(path);
  EXPECT_EQ(f.data_offset % 64, 0u);
  EXPECT_EQ(f.header.back(), '\n');
  EXPECT_NE(f.header.find("'descr': '<f4'"), std::string::npos);
  EXPECT_NE(f.header.find("'shape': (3, 5, 7)"), std::string::npos);
  EXPECT_NE(f.header.find("'fortran_order': False"), std::string::npos);
  ASSERT_EQ(f.data.size(), values.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(f.data.data(), values.data(), f.data.size()), 0);
  std::filesystem::remove(path);
}

TEST(Npy, OneDimensionalDoubleArray) {
  const auto path = std::filesystem::temp_directory_path() / "gpgpu_test_npy_1d.npy";
  const std::vector<double> values{1.5, -2.25, 3.0};
  write_npy(path, values, {3});
  const NpyFile f = read(path);
  EXPECT_NE(f.header.find("'descr': '<f8'"), std::string::npos);
  EXPECT_NE(f.header.find("'shape': (3,"), std::string::npos);
  EXPECT_EQ(f.data.size(), 3 * sizeof(double));
  std::filesystem::remove(path);
}

TEST(Npy, RejectsAShapeThatDoesNotMatch) {
  const std::vector<float> values(10, 1.0f);
  EXPECT_THROW(write_npy(std::filesystem::temp_directory_path() / "x.npy", values, {3, 3}), std::invalid_argument);
}

}  // namespace
}  // namespace gpgpu
