/// @file operation.hpp
/// @brief What a matrix variant is, on any backend: an Operation (the host object that owns a
/// device's copies of the operands and computes the result there), and the Variant that names it,
/// its operation and its backend, and builds it.
#pragma once
#include <memory>
#include <string>

#include "gpgpu/matrix/matrix.hpp"
#include "gpgpu/matrix/work.hpp"
#include "gpgpu/variant.hpp"

namespace gpgpu::matrix {

/// What a run's variants are judged at: the shape of A and the element type.
struct Size {
  Shape shape;
  ElementType type = ElementType::f32;
};

/// The operands of a run: A (and B for an add).
struct Inputs {
  HostMatrix a;
  HostMatrix b;
};

/// A and B of `size`: random values of both signs from `seed` and `seed + 1`.
inline Inputs random_inputs(const Size& size, unsigned seed) {
  return {random_matrix(size.shape, size.type, seed), random_matrix(size.shape, size.type, seed + 1)};
}

/// One operation on one device, for the shape and element type of the inputs it was made for.
class Operation {
 public:
  virtual ~Operation() = default;
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

/// A variant of a matrix chapter: make() builds its Operation for the inputs' shape and type
/// (allocates device memory, untimed); check_fits() refuses operands its device cannot hold;
/// limitation() says why this device cannot run it at a size or type (a library without int).
struct Variant : gpgpu::Variant<Size, Inputs, Operation> {
  Op op = Op::add;
  /// The variant of another backend this one ports ("cuda_add_rowmajor" for an OpenCL add), or "":
  /// when both ran, the chapter prints this one's time over the other's (paper 003's "CUDA vs OpenCL").
  std::string ports;
};

}  // namespace gpgpu::matrix
