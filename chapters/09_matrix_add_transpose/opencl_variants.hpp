/// @file opencl_variants.hpp
/// @brief Chapter 09's OpenCL variants, each the port of a CUDA variant, and the parts of their host
/// code (opencl_variants.cpp) the tests reach: the table of kernels, the NDRange of each, and why a
/// device cannot run one.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpgpu/opencl/runtime.hpp"
#include "variants.hpp"

namespace ch09 {

/// The work-item layout of an OpenCL matrix kernel.
enum class ClGrid {
  rows_cols,    ///< dimension 0 along a row (cols), 1 down the rows: one work-item per element
  cols_rows,    ///< dimension 0 down a column (rows), 1 along the columns
  flat,         ///< 1D over the flat arrays, a work-item per 16-byte vector (grid-stride past the cap)
  tiles,        ///< one 32 x 32 work-group per 32 x 32 tile of the input
  tiles_multi,  ///< one 32 x 8 work-group per 32 x 32 tile
  tiles_vec4,   ///< one 8 x 4 x 8 work-group per 64 x 64 tile (09_11 and 09_12)
  persistent,   ///< 8 x 4 x 8 work-groups, kClPersistentGroupsPerUnit per compute unit, looping over the tiles (09_13)
  strips,       ///< one 8 x 4 x 8 work-group per strip of 64 rows x 512 bytes (09_14)
};

/// One OpenCL variant: a kernel of kernels/matrix/opencl.
struct ClVariant {
  std::string_view name;         ///< --variant name, "cl_add_rowmajor"
  gpgpu::matrix::Op op;
  std::string_view file;         ///< "kernels/matrix/opencl/09_01_add_rowmajor.cl"
  std::string_view kernel;       ///< the __kernel function
  std::string_view ports;        ///< the CUDA variant it ports
  std::string_view paper_name;   ///< paper 003's name for it ("OpenCL"), or ""
  std::string_view description;
  ClGrid grid;
};

/// The OpenCL variant `name` (std::out_of_range when there is none): an entry of the table of
/// opencl_variants.cpp, which the variants refer to.
const ClVariant& cl_variant(std::string_view name);

/// The build options of an element type: "-DT=float -DT16=float4", "-DT=double -DT16=double2 -DUSE_FP64", ...
std::string type_options(gpgpu::matrix::ElementType type);

/// The NDRange of a kernel: global and local sizes (the global a multiple of the local).
struct ClLaunch {
  cl::NDRange global, local;
  [[nodiscard]] std::string str() const;  ///< "global 4096 x 4096, local 32 x 8", "global 512 x 256 x 8, local 8 x 4 x 8"
};

/// The flat add's largest NDRange: 2^25 work-items, as the CUDA add's grid (09_05_add_vec4.cu). Up to
/// it each work-item adds one 16-byte vector; beyond it the work-items stride.
inline constexpr std::size_t kClFlatMaxItems = std::size_t{1} << 25;

/// The persistent transpose's work-groups per compute unit. OpenCL has no occupancy query, so the
/// host cannot ask how many groups of this kernel stay resident, as the CUDA launch does. Four groups
/// of 256 work-items stay resident on an H100 or H200 SM (65536 registers, up to 228 KiB of shared
/// memory) while the kernel needs at most 64 registers per work-item (the CUDA kernel: 48 for floats,
/// 64 for doubles), and have 4 x 16 KiB of loads in flight per SM, above the ~24 KB that Little's law
/// asks for ~4 TB/s at ~800 ns.
/// A group more than fits would run in a second wave, the tail this kernel exists to remove.
inline constexpr std::size_t kClPersistentGroupsPerUnit = 4;

/// The NDRange of `grid` over `shape`; ClGrid::flat gets a work-item per vector, at most
/// `max_flat_items` (rounded down to whole work-groups, at least one; the tests pass fewer so that
/// every work-item strides); ClGrid::persistent kClPersistentGroupsPerUnit groups per compute unit of
/// the device (`compute_units`), at most one per tile.
ClLaunch cl_launch(ClGrid grid, const gpgpu::matrix::Shape& shape, gpgpu::matrix::ElementType type,
                   std::size_t max_flat_items = kClFlatMaxItems, std::size_t compute_units = 1);

/// What a device says about running one kernel of a variant in one element type.
struct ClKernelLimits {
  bool fp64 = true;              ///< CL_DEVICE_DOUBLE_FP_CONFIG is not 0 (cl_khr_fp64)
  std::size_t max_work_group = 0;  ///< CL_KERNEL_WORK_GROUP_SIZE of the built kernel (0: no kernel, the copy)
};

/// What `runtime`'s device says for `v` on `type`: builds the kernel's program (cached) to ask.
ClKernelLimits cl_kernel_limits(const ClVariant& v, gpgpu::matrix::ElementType type, gpgpu::ocl::Runtime& runtime);

/// Why a device with `limits` cannot run the variant on `type`: no cl_khr_fp64 for double, or
/// work-groups larger than the kernel may have there (a driver may allow a kernel fewer work-items
/// than the 32 x 32 of a tile). nullopt when it can. The variant's limitation: under "all" the run skips
/// it with this reason; named, it is a usage error (exit 2).
std::optional<std::string> cl_limitation(const ClVariant& v, gpgpu::matrix::ElementType type, const ClKernelLimits& limits);

/// One variant (`v`, which the variant refers to: an entry of the table) with the flat add's NDRange
/// capped at `max_flat_items` work-items: the tests' way to make cl_add_vec4's work-items stride.
gpgpu::matrix::Variant opencl_variant(const ClVariant& v, std::size_t max_flat_items);

}  // namespace ch09
