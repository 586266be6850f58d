/// @file ported_variants.hpp
/// @brief The CUDA kernels chapter 08 ports to OpenCL: which .cl file and kernel each variant
/// runs, which CUDA kernel it ports, and the data layout it keeps (the CUDA solver's own).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpgpu/grid.hpp"
#include "gpgpu/opencl/device.hpp"

namespace ch08 {

/// Where the unknowns live in the device arrays.
enum class Layout {
  Linear,   ///< diagonals and f: nx*ny values; x: ghost-padded (paper Fig. 12, layouts.hpp)
  Pitched,  ///< every array: rows of `pitch` floats with 2 zero ghost rows above and below
};

/// How a kernel reads the iterate x.
enum class XAccess {
  Buffer,  ///< a __global pointer
  Image,   ///< an image1d_buffer_t on the same buffer (the texture path)
};

/// One ported variant.
struct Variant {
  std::string_view name;          ///< --variant name
  std::string_view kernel_file;   ///< in kernels/opencl/
  std::string_view kernel_name;   ///< __kernel function
  std::string_view cuda_variant;  ///< the CUDA variant it ports (gpgpu::cuda_jacobi registry name)
  std::string_view cuda_file;     ///< that variant's kernel, in kernels/cuda/
  std::string_view paper_name;    ///< the paper's name for the CUDA version (paper 000, sec. 7)
  std::string_view description;
  Layout layout;
  int ghost_multiple;             ///< Linear: ghost offset nx+1 rounded up to a multiple of this
  bool local_tile;                ///< takes a __local buffer of 3 x (work-group size + 2) floats
  XAccess x_access;
};

inline constexpr std::array kVariants{
    Variant{"simple", "01_jacobi_simple.cl", "jacobi_simple", "simple", "01_jacobi_simple.cu", "CUDA Simple",
            "global memory, ghost offset nx+1", Layout::Linear, 1, false, XAccess::Buffer},
    Variant{"aligned", "01_jacobi_simple.cl", "jacobi_simple", "aligned", "02_jacobi_aligned.cu", "CUDA Aligned",
            "global memory, ghost offset a multiple of 16 floats", Layout::Linear, 16, false, XAccess::Buffer},
    Variant{"local", "04_jacobi_local.cl", "jacobi_local", "shared", "04_jacobi_shared.cu", "CUDA Shared",
            "pitched, x rows j-1..j+1 staged in __local memory (CUDA shared)", Layout::Pitched, 1, true,
            XAccess::Buffer},
    Variant{"image", "05_jacobi_image.cl", "jacobi_image", "texture", "05_jacobi_texture.cu", "CUDA Texture",
            "x through an image1d_buffer_t (CUDA texture), offset a multiple of 32", Layout::Linear, 32, false,
            XAccess::Image},
};

/// The variant called `name`; throws std::out_of_range for an unknown name.
const Variant& variant(std::string_view name);

/// Every variant name, in chapter order (for the CLI).
std::array<std::string, kVariants.size()> variant_names();

/// Ghost rows above and below the grid in the pitched layout (as kernels/cuda/jacobi_args.hpp):
/// one for the neighbour row, one more so the corner neighbours of the first and last rows
/// (a column outside the row) stay inside the buffer.
inline constexpr int kGhostRows = 2;

/// Where the unknowns of `v` live on `device` for `grid`.
struct DeviceLayout {
  Layout kind = Layout::Linear;
  std::int64_t x_length = 0;     ///< floats in each x buffer
  std::int64_t coef_length = 0;  ///< floats in each diagonal and in f
  std::int64_t ghost = 0;        ///< Linear: index of unknown 0 in x
  std::int64_t pitch = 0;        ///< Pitched: floats per row
  std::int64_t origin = 0;       ///< Pitched: index of element (0, 0) in every array
};

/// Linear: ghost offset from ghost_multiple. Pitched: the pitch is nx rounded up to the device's
/// CL_DEVICE_MEM_BASE_ADDR_ALIGN (what cudaMallocPitch does for CUDA), origin = kGhostRows rows.
DeviceLayout device_layout(const Variant& v, const gpgpu::Grid& grid, const gpgpu::ocl::DeviceInfo& device);

/// Device memory the variant allocates on `grid`, all buffers and the largest single one.
struct DeviceBytes {
  double total = 0;
  double largest = 0;
};
DeviceBytes device_bytes(const Variant& v, const gpgpu::Grid& grid, const gpgpu::ocl::DeviceInfo& device);

/// Why the device cannot run the variant on this grid (no images, a 1D image buffer too small
/// for x), or nullopt if it can. The image format is checked with the context (opencl_jacobi.hpp).
std::optional<std::string> device_limitation(const Variant& v, const gpgpu::Grid& grid,
                                             const gpgpu::ocl::DeviceInfo& device);

}  // namespace ch08
