/// @file port_report.hpp
/// @brief Chapter 08's own tables besides the shared result table: where OpenCL's start-up time
/// goes, how OpenCL on the CPU compares with chapter 01's C++, how the OpenCL kernels compare
/// with their CUDA originals, and the papers' observations beside ours.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cpu_jacobi.hpp"
#include "gpgpu/opencl/bandwidth.hpp"
#include "gpgpu/opencl/runtime.hpp"
#include "gpgpu/report.hpp"

namespace ch08 {

/// The start-up steps with their times, beside paper 003's 1.3 s.
void print_startup_table(std::ostream& out, const gpgpu::ocl::StartupTimes& startup);
nlohmann::json startup_json(const gpgpu::ocl::StartupTimes& startup);

/// OpenCL variants run on a CPU device beside chapter 01's serial and OpenMP C++ on the same
/// system: milliseconds per iteration and the ratio to the OpenMP code.
void print_cpu_comparison(std::ostream& out, const std::vector<gpgpu::ResultRow>& rows,
                          const ch01::CpuBaseline& baseline);

/// One OpenCL kernel and the CUDA kernel it ports, timed on the same GPU in the same run.
struct TwinTiming {
  std::string variant;        ///< OpenCL variant name
  std::string cuda_kernel;    ///< kernels/cuda/... file
  double opencl_ms_per_iter;  ///< profiling events
  double cuda_ms_per_iter;    ///< CUDA events
  /// OpenCL time over CUDA time (1.05 = OpenCL 5% slower).
  [[nodiscard]] double ratio() const { return opencl_ms_per_iter / cuda_ms_per_iter; }
};

/// The project's goal for the port: OpenCL within this fraction of CUDA's time.
inline constexpr double kPortGoal = 0.10;

/// OpenCL against CUDA per kernel, the ratio, and whether it meets kPortGoal.
void print_cuda_comparison(std::ostream& out, const std::vector<TwinTiming>& twins);

/// The "device" object of the chapter's JSON: the OpenCL device, start-up, copy bandwidth,
/// work-group size, variants skipped on this device and the CUDA comparison.
nlohmann::json device_json(const gpgpu::ocl::DeviceInfo& device, const gpgpu::ocl::StartupTimes& startup,
                           const gpgpu::ocl::CopyBandwidth& copy, int work_group, const nlohmann::json& skipped,
                           const std::vector<TwinTiming>& twins);

/// Paper 003's start-up and speed ratios and paper 002's crossover size beside this run.
void print_papers_beside_us(std::ostream& out, const gpgpu::ocl::StartupTimes& startup, const gpgpu::Grid& grid,
                            const std::vector<TwinTiming>& twins);

}  // namespace ch08
