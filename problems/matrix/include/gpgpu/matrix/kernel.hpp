/// @file kernel.hpp
/// @brief What a matrix variant is, on any backend: a kernel that owns its device copies of the
/// operands, and the record that names it, its operation, its backend and how to build it.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "gpgpu/backend.hpp"
#include "gpgpu/matrix/matrix.hpp"
#include "gpgpu/matrix/work.hpp"
#include "gpgpu/registry.hpp"

namespace gpgpu::matrix {

/// The operands of a run: A (and B for an add), generated once per run.
struct Inputs {
  HostMatrix a;
  HostMatrix b;
};

/// One operation on one device, for one shape and element type.
class Kernel {
 public:
  virtual ~Kernel() = default;
  /// Copies the operands to the device (synchronously) and poisons the result (every byte
  /// poison_byte(type): NaN for floating point, 0x7F7F7F7F for int), so an element the kernel fails
  /// to write shows up.
  virtual void upload(const Inputs& in) = 0;
  /// Runs the operation `calls` times back to back; returns their time in seconds on the device's
  /// own clock (CUDA events, profiling events; the host clock for the CPU).
  virtual double run(int calls) = 0;
  /// Copies the result back (synchronously).
  [[nodiscard]] virtual HostMatrix download() = 0;
  /// Grid, block, tile, library call: how it runs (may be empty).
  [[nodiscard]] virtual std::string launch() const { return {}; }
};

/// A variant of a matrix chapter.
struct VariantSpec {
  VariantInfo info;
  OpenerFactory opener = nullptr;
  Op op = Op::add;
  std::string timer;  ///< how its kernel times itself: "CUDA events", "steady_clock", ...
  int threads = 0;    ///< CPU variants: threads it runs on (0: the session's --threads)
  /// The variant of another backend this one ports ("cuda_add_rowmajor" for an OpenCL add), or "":
  /// when both ran, the chapter prints this one's time over the other's (paper 003's "CUDA vs OpenCL").
  std::string ports;
  /// Builds the kernel for this shape and type (allocates device memory, untimed).
  std::function<std::unique_ptr<Kernel>(const Shape&, ElementType, Session&)> make;
  /// Throws UsageError when the operands do not fit the device: called before the references are
  /// computed, so such a run ends at once with exit code 2. May be empty.
  std::function<void(const Shape&, ElementType, Session&)> check_fits;
  /// Why it cannot run this shape or type here (a library without int, say), or nullopt. A named
  /// variant is then a usage error; one that came with "all" is skipped. May be empty.
  std::function<std::optional<std::string>(const Shape&, ElementType, Session&)> limitation;
};

using Registry = gpgpu::Registry<VariantSpec>;
using Registration = gpgpu::Registration<VariantSpec>;

}  // namespace gpgpu::matrix
