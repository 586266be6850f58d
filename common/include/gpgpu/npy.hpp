/// @file npy.hpp
/// @brief Writing arrays as NumPy .npy files (format 1.0), so results can be checked in Python:
/// `numpy.load("rhs.npy")`.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace gpgpu {

/// Writes `data` (C order) with the given shape; the product of `shape` must equal data.size().
/// Throws UsageError if the file cannot be written.
void write_npy(const std::filesystem::path& path, std::span<const float> data, const std::vector<std::size_t>& shape);
void write_npy(const std::filesystem::path& path, std::span<const double> data, const std::vector<std::size_t>& shape);
void write_npy(const std::filesystem::path& path, std::span<const std::int32_t> data,
               const std::vector<std::size_t>& shape);

}  // namespace gpgpu
