/// @file ports.hpp
/// @brief The CUDA kernels chapter 08 ports to OpenCL: which .cl file and kernel each port runs,
/// which CUDA kernel it ports, the data layout it keeps (the CUDA solver's own), and what it needs of
/// the device.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpgpu/jacobi/grid.hpp"
#include "gpgpu/opencl/device.hpp"
#include "gpgpu/opencl/runtime.hpp"

namespace ch08 {

/// Where the unknowns live in the device arrays.
enum class Layout {
  Linear,   ///< diagonals and f: nx*ny values; x: ghost-padded (paper Fig. 12, layouts.hpp)
  Pitched,  ///< every array: rows of `pitch` floats with kPitchedGhostRows zero rows above and below
};

/// How a kernel reads the iterate x.
enum class XAccess {
  Buffer,  ///< a __global pointer
  Image,   ///< an image1d_buffer_t on the same buffer (the texture path)
};

/// One ported variant.
struct Port {
  std::string_view name;          ///< --variant name
  std::string_view kernel_file;   ///< the embedded source (gpgpu::jacobi::opencl_kernel)
  std::string_view kernel_name;   ///< __kernel function
  std::string_view cuda_variant;  ///< the CUDA variant it ports; its row in this run is "cuda_" + this
  std::string_view cuda_file;     ///< that variant's kernel, in kernels/jacobi/cuda/
  std::string_view paper_name;    ///< the paper's name for the CUDA version (paper 000, sec. 7)
  std::string_view description;
  Layout layout;
  int ghost_multiple;             ///< Linear: ghost offset nx+1 rounded up to a multiple of this
  bool local_tile;                ///< takes a __local buffer of 3 x (work-group size + 2) floats
  XAccess x_access;
};

inline constexpr std::array kPorts{
    Port{"simple", "kernels/jacobi/opencl/08_01_simple.cl", "jacobi_simple", "simple", "03_simple.cu", "CUDA Simple",
            "global memory, ghost offset nx+1", Layout::Linear, 1, false, XAccess::Buffer},
    Port{"aligned", "kernels/jacobi/opencl/08_01_simple.cl", "jacobi_simple", "aligned", "04_aligned.cu",
            "CUDA Aligned", "global memory, ghost offset a multiple of 16 floats", Layout::Linear, 16, false,
            XAccess::Buffer},
    Port{"local", "kernels/jacobi/opencl/08_02_local.cl", "jacobi_local", "shared", "06_01_shared.cu", "CUDA Shared",
            "pitched, x rows j-1..j+1 staged in __local memory (CUDA shared)", Layout::Pitched, 1, true,
            XAccess::Buffer},
    Port{"image", "kernels/jacobi/opencl/08_03_image.cl", "jacobi_image", "texture", "07_texture.cu", "CUDA Texture",
            "x through an image1d_buffer_t (CUDA texture), offset a multiple of 32", Layout::Linear, 32, false,
            XAccess::Image},
};

/// How the ported kernels divide in single precision. OpenCL C allows `x / y` an error of 2.5 ulp
/// (OpenCL 1.2, sec. 7.4) unless the program is built with -cl-fp32-correctly-rounded-divide-sqrt,
/// which a device accepts only when CL_DEVICE_SINGLE_FP_CONFIG has CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT.
/// CUDA divides correctly rounded unless told otherwise (nvcc -prec-div=true), so a port that is
/// to compute what the CUDA kernel computes asks for the same. --cl-division picks one.
enum class Division {
  correctly_rounded,  ///< -cl-fp32-correctly-rounded-divide-sqrt where the device supports it (the default)
  opencl_default,     ///< no option: the 2.5 ulp that OpenCL C allows
};

/// Whether `device` can build programs with -cl-fp32-correctly-rounded-divide-sqrt.
[[nodiscard]] bool correctly_rounded_division(const cl::Device& device);

/// The build options of the ported kernels for `device`: the option above when `division` asks
/// for it and the device supports it, else none.
[[nodiscard]] std::string build_options(const cl::Device& device, Division division);

/// One line for the run's header: how the kernels divide on `device`, and why.
[[nodiscard]] std::string division_summary(const cl::Device& device, Division division);

/// The program of variant `v`, built (once per runtime, start-up) with build_options().
const cl::Program& variant_program(gpgpu::ocl::Runtime& runtime, const Port& v, Division division);

/// The variant called `name`; throws std::out_of_range for an unknown name.
const Port& port(std::string_view name);

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
/// CL_DEVICE_MEM_BASE_ADDR_ALIGN (what cudaMallocPitch does for CUDA), origin = kPitchedGhostRows rows.
DeviceLayout device_layout(const Port& v, const gpgpu::jacobi::Grid& grid, const gpgpu::ocl::DeviceInfo& device);

/// Device memory the variant allocates on `grid`, all buffers and the largest single one.
struct DeviceBytes {
  double total = 0;
  double largest = 0;
};
DeviceBytes device_bytes(const Port& v, const gpgpu::jacobi::Grid& grid, const gpgpu::ocl::DeviceInfo& device);

/// Why the device cannot run the variant on this grid (no images, a 1D image buffer too small
/// for x), or nullopt if it can.
std::optional<std::string> device_limitation(const Port& v, const gpgpu::jacobi::Grid& grid,
                                             const gpgpu::ocl::DeviceInfo& device);
/// The same, and the image format the context must support (CL_R / CL_FLOAT for 1D buffer images).
std::optional<std::string> device_limitation(const Port& v, const gpgpu::jacobi::Grid& grid,
                                             const gpgpu::ocl::Runtime& runtime);

}  // namespace ch08
