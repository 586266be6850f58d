/// @file opencl_variants.hpp
/// @brief Chapter 11's OpenCL variants and their host code: the counterpart of cuda_variants.cpp spelled
/// out with handles (buffers, the irises in a __constant buffer, kernel arguments, the launch loop
/// timed by profiling events, the read-back). Without OpenCL in the build, opencl_variants() is the
/// note that says why.
#pragma once
#include <vector>

#include "gpgpu/tlm/solver.hpp"

#if GPGPU_BUILT_OPENCL
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "gpgpu/opencl/runtime.hpp"
#include "gpgpu/tlm/layouts.hpp"
#include "gpgpu/tlm/opencl_kernels.hpp"

namespace ch11 {

/// Which kernels an OpenClSolver runs.
enum class OpenClKernels {
  coalesced,  ///< 11_01_coalesced.cl: tlm_scatter, tlm_connect in place on one array
  fused,      ///< 11_02_fused.cl: tlm_fused between two arrays (or, with half storage, tlm_fused_half)
};

/// The OpenCL variants, in run order (opencl_variants.cpp): opencl_coalesced and opencl_fused, the
/// ports of cuda_coalesced and cuda_fused.
std::vector<gpgpu::tlm::Variant> opencl_variants();
/// The one of them that runs `kernels`.
gpgpu::tlm::Variant opencl_variant(OpenClKernels kernels);

/// The paper's work-group: 64 work-items, one segment of a row.
inline constexpr std::size_t kWorkGroup = 64;

/// Why this device cannot run the kernels of `kernels` in `program` (with `storage`) in
/// work-groups of `work_group` (the kernel allows fewer work-items), or nullopt.
std::optional<std::string> work_group_limitation(gpgpu::ocl::Runtime& runtime, const cl::Program& program,
                                                 OpenClKernels kernels, gpgpu::tlm::Storage storage,
                                                 std::size_t work_group = kWorkGroup);

class OpenClSolver final : public gpgpu::tlm::Solver {
 public:
  /// `program` holds the kernels (built by the caller from gpgpu::tlm::opencl_program*); with
  /// Storage::f16 the fused kernel is tlm_fused_half, the pulses are 2-byte halves placed where the
  /// program's half_slot() puts them (half_slots()), and a layout that leaves the buffer or stores
  /// two pulses in one half throws std::invalid_argument. Throws UsageError where
  /// work_group_limitation() gives a reason.
  OpenClSolver(gpgpu::ocl::Runtime& runtime, const cl::Program& program, const gpgpu::tlm::Setup& setup,
               OpenClKernels kernels, gpgpu::tlm::Storage storage = gpgpu::tlm::Storage::f32,
               std::size_t work_group = kWorkGroup);
  void reset(std::span<const float> incident) override;
  double run(int steps) override;
  [[nodiscard]] std::vector<float> pulses() override;
  [[nodiscard]] std::vector<float> probe() override;
  [[nodiscard]] std::string launch() const override;

 private:
  [[nodiscard]] std::size_t pulse_bytes() const { return storage_ == gpgpu::tlm::Storage::f16 ? 2 : 4; }
  /// Canonical pulses in the order the kernels store them (padding NaN), and back.
  [[nodiscard]] std::vector<float> stored_order(std::span<const float> canonical) const;
  [[nodiscard]] std::vector<float> canonical_order(std::span<const float> stored) const;
  void write(const cl::Buffer& buffer, std::span<const float> values);
  [[nodiscard]] std::vector<float> read(const cl::Buffer& buffer);
  void enqueue(cl::Kernel& kernel, int n, cl::Event* event);

  gpgpu::ocl::Runtime& runtime_;
  const gpgpu::tlm::Setup& setup_;
  OpenClKernels kernels_;
  gpgpu::tlm::Storage storage_;
  gpgpu::tlm::PulseLayout layout_;
  std::vector<std::int32_t> half_slots_;  ///< Storage::f16: half_slots() of the program
  gpgpu::tlm::OpenClStepArgs args_{};
  cl::NDRange global_, local_;
  cl::Buffer pulses_[2], irises_, probe_;
  cl::Kernel scatter_, connect_;  ///< the paper's kernels
  cl::Kernel fused_[2];           ///< fused_[b] reads pulses_[b] and writes pulses_[1 - b]
  int current_ = 0, step_ = 0;
};

/// Where the half-precision kernel of `program` (built by gpgpu::tlm::opencl_half_program_with) stores
/// each pulse on `mesh`: its half_slot(), run by tlm_half_slots, gives the element index of pulse p
/// of node n at [p·nodes + n] (the reference's canonical order).
std::vector<std::int32_t> half_slots(gpgpu::ocl::Runtime& runtime, const cl::Program& program, const gpgpu::tlm::Mesh& mesh);

/// Device bytes an OpenClSolver allocates: all of them, and the largest buffer.
struct OpenClBytes {
  double total = 0, largest = 0;
};
OpenClBytes opencl_device_bytes(OpenClKernels kernels, gpgpu::tlm::Storage storage, const gpgpu::tlm::Mesh& mesh, int steps);

}  // namespace ch11

#else
namespace ch11 {
inline gpgpu::NotBuilt opencl_variants() { return {gpgpu::Backend::opencl, GPGPU_WHY_OPENCL}; }
}  // namespace ch11
#endif
