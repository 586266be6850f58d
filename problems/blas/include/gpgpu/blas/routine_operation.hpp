/// @file routine_operation.hpp
/// @brief What a variant of paper 001's benchmark is, on any backend: the host object that owns its
/// device copies of one routine's operands and calls the routine (RoutineOperation), and the
/// variant that builds it.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpgpu/blas/peak.hpp"
#include "gpgpu/blas/routines.hpp"
#include "gpgpu/variant.hpp"

namespace gpgpu::blas {

/// One routine for one Case on one device.
class RoutineOperation {
 public:
  virtual ~RoutineOperation() = default;
  /// Copies the operands to the device (synchronously). A result that is not an operand (sgemv's
  /// y, sgemm's C, the convolution's output) is filled with NaN, so an element the kernel fails to
  /// write cannot pass; saxpy's y and sscal's x are overwritten in place, like the BLAS routines.
  virtual void upload(const Case& c) = 0;
  /// `calls` calls back to back; their time in seconds on the device's own clock.
  virtual double run(int calls) = 0;
  /// The result back to the host (synchronously).
  [[nodiscard]] virtual std::vector<float> download() = 0;
  /// Grid, block, tile, library call (may be empty).
  [[nodiscard]] virtual std::string launch() const { return {}; }
  /// Paper 001's "GPU w. TX": seconds on the host's clock for the operands up, one call and the
  /// result down; `pinned`: from and to page-locked host copies (made, untimed, on first use),
  /// else from the case's own pageable vectors. nullopt for a kernel with no bus to cross (the CPU).
  virtual std::optional<double> with_copies(const Case& c, bool pinned) {
    (void)c;
    (void)pinned;
    return std::nullopt;
  }
  /// The copies overlapped with the calls: the operands split into chunks on a few streams, chunk
  /// i+1 copied up while chunk i is computed, from and to page-locked copies; seconds on the host's
  /// clock, or nullopt where the routine or the variant does not chunk. copied_result() is its result.
  virtual std::optional<double> overlapped(const Case& c) {
    (void)c;
    return std::nullopt;
  }
  /// The result the last overlapped() run copied down (verified like download()'s).
  [[nodiscard]] virtual std::vector<float> copied_result() { return {}; }
};

/// A variant of one routine: gpgpu::Variant (name, backend, make from the routine's Case, ...),
/// judged at the run's RoutineSizes (limitation and check_fits look at its own routine's case).
struct RoutineVariant : gpgpu::Variant<RoutineSizes, Case, RoutineOperation> {
  Routine routine = Routine::saxpy;
  bool library = false;  ///< OpenBLAS, cuBLAS, NPP: what "% library" divides by
  /// The work table of a variant whose algorithm does other FLOPs than the routine's (a separable
  /// convolution: 4k per pixel, not 2k²); empty: routine_work. Its rows say so ("flops_as_done").
  std::function<Work(const Case&, int calls)> work;
  /// How its backend's FP32 FMA peak is measured (the roofline's flat roof), or nullptr: none.
  MeasurePeak peak = nullptr;
};

/// A variant's limitation or check_fits written for its own routine's case:
/// `for_case(routine, f)` judges the run's sizes by f(case_shape(routine, sizes), session).
template <class F>
auto for_case(Routine routine, F f) {
  return [routine, f = std::move(f)](const RoutineSizes& sizes, Session& session) { return f(case_shape(routine, sizes), session); };
}

}  // namespace gpgpu::blas
