#include "gpgpu/npy.hpp"

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>

#include "gpgpu/output_file.hpp"

namespace gpgpu {
namespace {

// Format 1.0: magic, version, little-endian header length, then a Python dict literal padded with
// spaces and a newline so that the data starts at a multiple of 64 bytes.
template <typename T>
void write_npy_impl(const std::filesystem::path& path, std::span<const T> data, const std::vector<std::size_t>& shape,
                    const char* descr) {
  const std::size_t count = std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
  if (count != data.size()) throw std::invalid_argument("write_npy: shape does not match the data");
  std::string dims;
  for (std::size_t s : shape) dims += std::to_string(s) + ", ";
  if (shape.size() > 1) dims.erase(dims.size() - 2);  // "(3,)" for 1-D, "(9, 4, 5)" otherwise
  std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  constexpr std::size_t preamble = 10;
  header.append(64 - (preamble + header.size() + 1) % 64, ' ');
  header.push_back('\n');
  const auto len = static_cast<std::uint16_t>(header.size());
  const char lead[preamble] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  OutputFile out(path);
  out.write(std::string_view(lead, preamble));
  out.write(header);
  out.write(std::as_bytes(data));
  out.commit();
}

}  // namespace

void write_npy(const std::filesystem::path& path, std::span<const float> data, const std::vector<std::size_t>& shape) {
  write_npy_impl(path, data, shape, "<f4");
}

void write_npy(const std::filesystem::path& path, std::span<const double> data, const std::vector<std::size_t>& shape) {
  write_npy_impl(path, data, shape, "<f8");
}

void write_npy(const std::filesystem::path& path, std::span<const std::int32_t> data,
               const std::vector<std::size_t>& shape) {
  write_npy_impl(path, data, shape, "<i4");
}

}  // namespace gpgpu
