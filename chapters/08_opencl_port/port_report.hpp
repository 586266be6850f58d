/// @file port_report.hpp
/// @brief Chapter 08's own tables besides the shared result table: where OpenCL's start-up time
/// goes, how OpenCL on the CPU compares with chapter 01's C++, how the OpenCL kernels compare
/// with their CUDA originals run in the same process, and the papers' observations beside ours.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpgpu/jacobi/grid.hpp"
#include "gpgpu/jacobi/solver.hpp"
#include "gpgpu/opencl/runtime.hpp"
#include "gpgpu/result.hpp"

namespace ch08 {

/// The start-up steps with their times, beside paper 003's 1.3 s.
void print_startup_table(std::ostream& out, const gpgpu::ocl::StartupTimes& startup);

/// The OpenCL rows of a run on a CPU device beside chapter 01's serial and OpenMP C++ on the same
/// system: milliseconds per iteration and the ratio to the OpenMP code.
void print_cpu_comparison(std::ostream& out, const std::vector<gpgpu::ResultRow>& rows,
                          const gpgpu::jacobi::CpuBaseline& baseline);
nlohmann::json baseline_json(const gpgpu::jacobi::CpuBaseline& baseline);

/// One OpenCL kernel and the CUDA kernel it ports, run on the same GPU in the same run.
struct CudaComparison {
  std::string variant;        ///< OpenCL variant ("local")
  std::string cuda_variant;   ///< the CUDA original's row ("cuda_shared")
  std::string cuda_source;    ///< its kernel file
  double opencl_ms_per_iter;  ///< profiling events
  double cuda_ms_per_iter;    ///< CUDA events
  /// OpenCL time over CUDA time (1.05 = OpenCL 5% slower).
  [[nodiscard]] double ratio() const { return opencl_ms_per_iter / cuda_ms_per_iter; }
};
void to_json(nlohmann::json& j, const CudaComparison& c);

/// The project's goal for the port: OpenCL within this fraction of CUDA's time.
inline constexpr double kPortGoal = 0.10;

/// For every OpenCL row whose CUDA original's row ("cuda_" + the CUDA variant it ports) was
/// recorded in the same run, the pair; none when the run has no CUDA rows.
std::vector<CudaComparison> cuda_comparison(const std::vector<gpgpu::ResultRow>& rows);

/// OpenCL against CUDA per kernel, the ratio, and whether it meets kPortGoal; nothing without pairs.
void print_cuda_comparison(std::ostream& out, const std::vector<CudaComparison>& pairs);

/// Paper 003's start-up and speed ratios and paper 002's crossover size beside this run; returns
/// the same figures for the JSON.
nlohmann::json print_papers_beside_us(std::ostream& out, const gpgpu::ocl::StartupTimes& startup,
                            const gpgpu::jacobi::Grid& grid, const std::vector<CudaComparison>& pairs);

}  // namespace ch08
