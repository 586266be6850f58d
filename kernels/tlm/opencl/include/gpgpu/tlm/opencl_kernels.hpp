/// @file opencl_kernels.hpp
/// @brief The OpenCL C sources of kernels/tlm/opencl/, embedded into every executable that links
/// gpgpu::tlm_opencl_kernels, each compiled after scn.cl (the node the kernels share), and the
/// host's copy of the kernels' StepArgs.
#pragma once
#include <cstdint>
#include <string_view>

#include "gpgpu/embedded_text.hpp"

namespace gpgpu::tlm {

/// The program of a kernel file ("kernels/tlm/opencl/11_02_fused.cl"): scn.cl, then the file, with
/// `#line` directives so that compiler messages name the right file and line. Throws
/// std::out_of_range for a file kernels/tlm/opencl/CMakeLists.txt does not embed.
const EmbeddedText& opencl_program(std::string_view kernel_path);

/// The same for kernel code from elsewhere (an exercise's): scn.cl, then `kernel`.
const EmbeddedText& opencl_program_with(const EmbeddedText& kernel);

/// The program of a half-precision kernel file (exercise 11's): scn.cl, `kernel`, then half_slots.cl,
/// whose tlm_half_slots reports where the kernel's half_slot() stores every pulse.
const EmbeddedText& opencl_half_program_with(const EmbeddedText& kernel);

/// scn.cl's StepArgs as the host fills it: eleven 4-byte fields, no padding.
struct OpenClStepArgs {
  std::int32_t nx, ny, nz;
  std::int32_t pitch, plane;
  std::int32_t iris_count;
  std::int32_t source_node, source_polarisation;
  float source_value;
  std::int32_t probe_node;
  std::int32_t probe_offset;
};
static_assert(sizeof(OpenClStepArgs) == 44, "must match StepArgs in kernels/tlm/opencl/scn.cl");

}  // namespace gpgpu::tlm
