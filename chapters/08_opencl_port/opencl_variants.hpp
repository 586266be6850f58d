/// @file opencl_variants.hpp
/// @brief The host side of the ported kernels: the chapter's OpenCL variants, and the solver that
/// runs them: buffers, kernel arguments, the ping-pong launch loop and its profiling-event timing.
/// One class serves every port; what differs between them (linear or pitched layout, ghost offset,
/// image or pointer, local tile) comes from the Port record (ports.hpp).
#pragma once
#include <array>
#include <span>
#include <string>
#include <vector>

#include "gpgpu/jacobi/solver.hpp"

#include "gpgpu/jacobi/solver.hpp"
#include "gpgpu/opencl/runtime.hpp"
#include "ports.hpp"

namespace ch08 {

/// The OpenCL variants, one per port in kPorts' order: backend OpenCL, timed by profiling events,
/// built from the session's runtime and its program cache in work-groups of `work_group` (--wg, read
/// when the solver is made), refused when they do not fit the device, skipped (or, named, a usage
/// error) when the device lacks what they need. `division` (--cl-division) is read when the solver
/// is made.
std::vector<gpgpu::jacobi::Variant> opencl_variants(const int& work_group, const Division& division);

/// One float per texel, as tex1Dfetch<float>: the image variant's format.
inline const cl::ImageFormat kFloatTexels(CL_R, CL_FLOAT);

/// Refuses (UsageError) a work-group size the device or the kernel cannot launch.
void require_work_group_size(const gpgpu::ocl::Runtime& runtime, const cl::Kernel& kernel, std::size_t work_group);

/// Weighted Jacobi on an OpenCL device with one of the ported kernels.
class OpenClJacobi final : public gpgpu::jacobi::Solver {
 public:
  /// Uploads the matrix and right-hand side, allocates the two ghost-padded iterates and sets
  /// the arguments of the two ping-pong kernels. The caller checks device memory first.
  OpenClJacobi(gpgpu::ocl::Runtime& runtime, const cl::Program& program, const Port& variant,
               const gpgpu::jacobi::LinearSystem& system, std::size_t work_group);

  /// Starts over from x0 (nx*ny values). The other iterate's unknowns are poisoned with NaN, so
  /// an element a kernel fails to write shows up in the result.
  void reset(std::span<const float> x0) override;

  /// Enqueues `iters` iterations and waits for them. Returns the device time from the start of
  /// the first kernel to the end of the last (profiling events, no host overhead).
  double iterate(int iters, float omega) override;

  /// The current iterate's nx*ny unknowns.
  [[nodiscard]] std::vector<float> solution() override;

  /// "global 1048576, local 64, ghost offset 1040" / "global 1024 x 1024, local 64, pitch 1024 floats".
  [[nodiscard]] std::string launch() const override;
  [[nodiscard]] const DeviceLayout& layout() const { return layout_; }

 private:
  cl::Buffer upload_coefficients(const std::vector<float>& values);
  void write_unknowns(const cl::Buffer& x, std::span<const float> values);

  gpgpu::ocl::Runtime& runtime_;
  const Port& variant_;
  gpgpu::jacobi::Grid grid_;
  DeviceLayout layout_;
  cl::NDRange global_, local_;  ///< nodes (or columns) rounded up to whole work-groups
  cl_uint omega_arg_ = 0;
  std::array<cl::Buffer, 9> diagonals_;
  cl::Buffer rhs_;
  std::array<cl::Buffer, 2> x_;
  std::array<cl::Image1DBuffer, 2> x_image_;  ///< the texture path's views of x_ (image variant)
  std::array<cl::Kernel, 2> step_;            ///< step_[i] reads x_[i] and writes x_[1 - i]
  int current_ = 0;                           ///< which x_ holds the current iterate
};

}  // namespace ch08
