/// @file kernel.hpp
/// @brief What a multiply variant is, on any backend: a kernel that owns its device copies of A, B
/// and C, the record that names it, and the compute limit a backend measures (an FMA kernel).
#pragma once
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpgpu/backend.hpp"
#include "gpgpu/blas/gemm.hpp"
#include "gpgpu/registry.hpp"
#include "gpgpu/result.hpp"

namespace gpgpu::blas {

/// C = A·B for one size and element type on one device.
class Kernel {
 public:
  virtual ~Kernel() = default;
  /// Copies A and B to the device (synchronously) and fills C with the poison (every byte 0xFF:
  /// NaN in float and double), so an element the kernel fails to write cannot pass.
  virtual void upload(const Operands& in) = 0;
  /// `calls` products back to back; their time in seconds on the device's own clock.
  virtual double run(int calls) = 0;
  /// C back to the host (synchronously).
  [[nodiscard]] virtual HostMatrix download() = 0;
  /// Grid, block, tile, library call (may be empty).
  [[nodiscard]] virtual std::string launch() const { return {}; }
  /// The compiled configurations it can run (tile shapes, thread tiles, stages), named; it starts
  /// with the first. Empty for a kernel with one launch. --tune verifies and times each.
  [[nodiscard]] virtual std::vector<std::string> configurations() const { return {}; }
  /// Runs configuration `index` of configurations() from now on (std::out_of_range if none).
  virtual void configure(std::size_t index) {
    throw std::out_of_range("configuration " + std::to_string(index) + " of a kernel with one launch");
  }
};

struct VariantSpec {
  VariantInfo info;
  OpenerFactory opener = nullptr;
  std::string timer;  ///< "CUDA events", "steady_clock", ...
  int threads = 0;    ///< CPU variants: threads it runs on (0: the session's --threads)
  bool tf32 = false;  ///< rounds its inputs to TF32 (tensor cores): judged by that bound
  bool library = false;  ///< a vendor library (cuBLAS, OpenBLAS): what "% of library" divides by
  /// Multiplies on tensor cores without TF32 inputs: cuBLAS DGEMM, which on sm_80 and sm_90 runs on
  /// the FP64 tensor cores (DMMA) at twice the FP64 FMA rate. (TF32 variants use them by definition.)
  bool fp64_tensor_cores = false;
  /// The variant of another backend this one ports ("cuda_tile16" for "cl_tile16"), or "".
  std::string ports;
  std::function<std::unique_ptr<Kernel>(const Dims&, ElementType, Session&)> make;
  /// Throws UsageError when the operands do not fit the device (before the references are made).
  std::function<void(const Dims&, ElementType, Session&)> check_fits;
  /// Why it cannot run these sizes or this type here, or nullopt. May be empty.
  std::function<std::optional<std::string>(const Dims&, ElementType, Session&)> limitation;

  [[nodiscard]] Arithmetic arithmetic(ElementType t) const { return tf32 ? Arithmetic::tf32 : native_arithmetic(t); }
  /// Whether the tensor cores, not the FMA units, do its multiply-adds: then the FMA kernel's rate
  /// is no limit for it (an H100 does TF32 and FP64 MMA several times faster), and it shows no share.
  [[nodiscard]] bool tensor_cores(ElementType t) const { return tf32 || (fp64_tensor_cores && t == ElementType::f64); }
};

using Registry = gpgpu::Registry<VariantSpec>;

/// The compute limit of a device, measured now: the FMA throughput of a kernel that does nothing
/// else, in 1e9 FLOP/s (an FMA counts two).
struct Peak {
  std::string name;  ///< "FMA kernel, 132 SMs x 1024 threads, float"
  double gflops = 0;
};

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

/// How a backend measures its Peak for an element type. Registered statically, like the variants.
struct PeakSpec {
  Backend backend = Backend::cpu;
  std::function<Peak(ElementType, Session&)> measure;
};
std::vector<PeakSpec>& peak_registry();
struct PeakRegistration {
  explicit PeakRegistration(PeakSpec spec) { peak_registry().push_back(std::move(spec)); }
};

}  // namespace gpgpu::blas
