/// @file ported_variants.hpp
/// @brief The CUDA kernels chapter 08 ports to OpenCL: which .cl file and kernel each variant
/// runs, which CUDA kernel it ports, and the data layout it keeps.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpgpu/grid.hpp"
#include "gpgpu/opencl/device.hpp"

namespace ch08 {

/// How a kernel reads the iterate x.
enum class XAccess {
  Buffer,  ///< a __global pointer
  Image,   ///< an image1d_buffer_t on the same buffer (the texture path)
};

/// One ported variant.
struct Variant {
  std::string_view name;         ///< --variant name
  std::string_view kernel_file;  ///< in kernels/opencl/
  std::string_view kernel_name;  ///< __kernel function
  std::string_view cuda_twin;    ///< the CUDA kernel it ports, in kernels/cuda/
  std::string_view paper_name;   ///< the paper's name for the CUDA version (paper 000, sec. 7)
  std::string_view description;
  bool aligned_ghosts;           ///< ghost offset nx+1 rounded up to kAlignElements
  bool local_tile;               ///< stages x in __local memory: built with -DWG_SIZE, passes x_length
  XAccess x_access;
};

/// The paper's coalescing width (paper 000, sec. 6.2): 16 floats = 64 bytes.
inline constexpr std::int64_t kAlignElements = 16;

inline constexpr std::array kVariants{
    Variant{"simple", "01_jacobi_simple.cl", "jacobi_simple", "01_jacobi_simple.cu", "CUDA Simple",
            "global memory, ghost offset nx+1", false, false, XAccess::Buffer},
    Variant{"aligned", "01_jacobi_simple.cl", "jacobi_simple", "02_jacobi_aligned.cu", "CUDA Aligned",
            "global memory, ghost offset rounded up to 16 floats", true, false, XAccess::Buffer},
    Variant{"local", "04_jacobi_local.cl", "jacobi_local", "04_jacobi_shared.cu", "CUDA Shared",
            "x staged in __local memory (CUDA shared), aligned offset", true, true, XAccess::Buffer},
    Variant{"image", "05_jacobi_image.cl", "jacobi_image", "05_jacobi_texture.cu", "CUDA Texture",
            "x read through an image1d_buffer_t (CUDA texture), aligned offset", true, false, XAccess::Image},
};

/// The variant called `name`; throws std::out_of_range for an unknown name.
const Variant& variant(std::string_view name);

/// Every variant name, in chapter order (for the CLI).
std::array<std::string, kVariants.size()> variant_names();

/// Index of unknown 0 in the ghost-padded x (layouts.hpp): nx+1, or aligned to 16 floats.
std::int64_t ghost_offset(const Variant& v, const gpgpu::Grid& grid);

/// Device memory the variant allocates on `grid`, all buffers and the largest single one.
struct DeviceBytes {
  double total = 0;
  double largest = 0;
};
DeviceBytes device_bytes(const Variant& v, const gpgpu::Grid& grid);

/// Why the device cannot run the variant on this grid (no images, a 1D image buffer too small
/// for x), or nullopt if it can. The image format is checked when the variant is built.
std::optional<std::string> device_limitation(const Variant& v, const gpgpu::Grid& grid,
                                             const gpgpu::ocl::DeviceInfo& device);

}  // namespace ch08
