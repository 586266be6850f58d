/// @file peak.hpp
/// @brief The compute roof of chapters 10 and 12: what a device's FMA units do when a kernel does
/// nothing else, measured in the run (a variant names how its backend measures it), and the rule
/// that a roof a verified run beat was not the roof.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "gpgpu/backend.hpp"
#include "gpgpu/blas/gemm.hpp"
#include "gpgpu/result.hpp"

namespace gpgpu::blas {

/// The compute limit of a device, measured now: the FMA throughput of a kernel that does nothing
/// else, in 1e9 FLOP/s (an FMA counts two).
struct Peak {
  std::string name;  ///< "FMA kernel, 132 SMs x 1024 threads, float"
  double gflops = 0;
};

/// How a backend measures its Peak for an element type: an FMA kernel on the session's device,
/// run now (gpgpu::blas::cpu_fma_peak, gpgpu::blas::cuda::fma_peak). A variant's `peak` field.
using MeasurePeak = Peak (*)(ElementType type, Session& session);

/// The CPU's: FMA chains in registers on the session's --threads threads (cpu_fma_peak_gflops),
/// float whatever `type` is (the roofline of chapter 12 is FP32).
Peak cpu_fma_peak(ElementType type, Session& cpu);

/// A rate that may beat its backend's Peak: one verified run (a row, a sweep point) on FMA units.
struct PeakRun {
  std::string backend;   ///< backend_name(): as a ResultRow holds it
  std::string variant;
  double gflops = 0;     ///< its best (fastest) timed run
  bool trusted = true;   ///< false for a FAIL: a wrong result proves no FLOP rate
};

/// A result row as a PeakRun: its best run's GFLOP/s, trusted unless it failed its check.
PeakRun peak_run(const ResultRow& row);

/// The limit rule of gpgpu/limit_rule.hpp for the compute roof: a Peak that a trusted run on its
/// backend beat was not the peak. It becomes that run's rate, its name says by whom and what the
/// FMA kernel measured, and a line says so ("Ceilings: ..."). Runs on tensor cores must not be
/// passed: the FMA kernel does not bound them. A peak never measured (NaN) stays NaN.
void settle_peak(std::ostream& out, Backend backend, Peak& peak, const std::vector<PeakRun>& runs);

}  // namespace gpgpu::blas
