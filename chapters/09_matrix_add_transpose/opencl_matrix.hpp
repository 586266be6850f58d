/// @file opencl_matrix.hpp
/// @brief Chapter 09's OpenCL host code: the OpenCL counterpart of cuda_matrix.hpp (buffers,
/// kernel arguments, an NDRange launched `calls` times and timed by profiling events, the result
/// read back), and the records of the OpenCL variants, each the port of a CUDA variant.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpgpu/matrix/kernel.hpp"
#include "gpgpu/opencl/runtime.hpp"

namespace ch09 {

/// The work-item layout of an OpenCL matrix kernel.
enum class ClGrid {
  rows_cols,    ///< dimension 0 along a row (cols), 1 down the rows: one work-item per element
  cols_rows,    ///< dimension 0 down a column (rows), 1 along the columns
  flat,         ///< 1D over the flat arrays, a work-item per 16-byte vector (grid-stride past the cap)
  tiles,        ///< one 32 x 32 work-group per 32 x 32 tile of the input
  tiles_multi,  ///< one 32 x 8 work-group per 32 x 32 tile
};

/// One OpenCL variant: a kernel of kernels/matrix/opencl.
struct ClVariant {
  std::string_view name;         ///< --variant name, "cl_add_rowmajor"
  gpgpu::matrix::Op op;
  std::string_view file;         ///< "kernels/matrix/opencl/09_add_rowmajor.cl"
  std::string_view kernel;       ///< the __kernel function
  std::string_view ports;        ///< the CUDA variant it ports
  std::string_view paper_name;   ///< paper 003's name for it ("OpenCL"), or ""
  std::string_view description;
  ClGrid grid;
};

/// The kernels of kernels/matrix/opencl in file order, then clEnqueueCopyBuffer (the copy, peer of
/// every transpose). A constant table: the static registration reads it before main().
inline constexpr std::array kClVariants{
    ClVariant{"cl_add_rowmajor", gpgpu::matrix::Op::add, "kernels/matrix/opencl/09_add_rowmajor.cl", "add_rowmajor", "cuda_add_rowmajor",
     "OpenCL", "one work-item per element, along a row (paper Obr. 12)", ClGrid::rows_cols},
    ClVariant{"cl_add_colmajor", gpgpu::matrix::Op::add, "kernels/matrix/opencl/09_add_colmajor.cl", "add_colmajor", "cuda_add_colmajor", "",
     "one work-item per element, down a column (paper Obr. 15)", ClGrid::cols_rows},
    ClVariant{"cl_add_vec4", gpgpu::matrix::Op::add, "kernels/matrix/opencl/09_add_vec4.cl", "add_vec4", "cuda_add_vec4", "",
     "flat arrays, 16 bytes per access, grid-stride loop", ClGrid::flat},
    ClVariant{"cl_transpose_naive", gpgpu::matrix::Op::transpose, "kernels/matrix/opencl/09_transpose_naive.cl", "transpose_naive",
     "cuda_transpose_naive", "OpenCL", "one work-item per element, loads down columns (paper Obr. 19)", ClGrid::cols_rows},
    ClVariant{"cl_transpose_tile", gpgpu::matrix::Op::transpose, "kernels/matrix/opencl/09_transpose_tile.cl", "transpose_tile",
     "cuda_transpose_tile", "", "32 x 32 tile in __local memory, group indices swapped", ClGrid::tiles},
    ClVariant{"cl_transpose_tile_padded", gpgpu::matrix::Op::transpose, "kernels/matrix/opencl/09_transpose_tile_padded.cl",
     "transpose_tile_padded", "cuda_transpose_tile_padded", "", "the local tile padded to 33 columns", ClGrid::tiles},
    ClVariant{"cl_transpose_tile_multi", gpgpu::matrix::Op::transpose, "kernels/matrix/opencl/09_transpose_tile_multi.cl",
     "transpose_tile_multi", "cuda_transpose_tile_multi", "", "the padded tile with 32 x 8 work-items, four elements each",
     ClGrid::tiles_multi},
    ClVariant{"cl_copy", gpgpu::matrix::Op::copy, "", "", "cuda_memcpy", "", "clEnqueueCopyBuffer: the copy every transpose is measured against",
     ClGrid::flat},
};

/// The build options of an element type: "-DT=float -DT16=float4", "-DT=double -DT16=double2 -DUSE_FP64", ...
std::string type_options(gpgpu::matrix::ElementType type);

/// The NDRange of a kernel: global and local sizes (the global a multiple of the local).
struct ClLaunch {
  cl::NDRange global, local;
  [[nodiscard]] std::string str() const;  ///< "global 4096 x 4096, local 32 x 8"
};

/// The flat add's largest NDRange: 2^25 work-items, as the CUDA add's grid (kVecMaxBlocks blocks of
/// 256). Up to it each work-item adds one 16-byte vector; beyond it the work-items stride.
inline constexpr std::size_t kClFlatMaxItems = std::size_t{1} << 25;

/// The NDRange of `grid` over `shape`; ClGrid::flat gets a work-item per vector, at most
/// `max_flat_items` (rounded down to whole work-groups, at least one; the tests pass fewer so that
/// every work-item strides).
ClLaunch cl_launch(ClGrid grid, const gpgpu::matrix::Shape& shape, gpgpu::matrix::ElementType type,
                   std::size_t max_flat_items = kClFlatMaxItems);

/// Why `device` cannot run the variant on `type`: no cl_khr_fp64 for double, or a work-group
/// larger than the kernel may have there. nullopt when it can (builds the program to ask).
std::optional<std::string> cl_limitation(const ClVariant& v, gpgpu::matrix::ElementType type, gpgpu::ocl::Runtime& runtime);

/// The OpenCL variants as the chapter registers them (backend OpenCL, timed by profiling events).
std::vector<gpgpu::matrix::VariantSpec> opencl_variants();

/// One variant (an element of kClVariants, which the spec refers to) with the flat add's NDRange
/// capped at `max_flat_items` work-items: the tests' way to make cl_add_vec4's work-items stride.
gpgpu::matrix::VariantSpec opencl_variant(const ClVariant& v, std::size_t max_flat_items);

}  // namespace ch09
