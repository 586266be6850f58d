/// @file routine_kernel.hpp
/// @brief What a variant of paper 001's benchmark is, on any backend: a kernel for one routine that
/// owns its device copies of the operands, and the record that names it.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpgpu/blas/routines.hpp"
#include "gpgpu/registry.hpp"

namespace gpgpu::blas {

/// One routine for one Case on one device.
class RoutineKernel {
 public:
  virtual ~RoutineKernel() = default;
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

struct RoutineVariant {
  VariantInfo info;
  OpenerFactory opener = nullptr;
  Routine routine = Routine::saxpy;
  std::string timer;     ///< "CUDA events", "steady_clock"
  int threads = 0;       ///< CPU variants: threads (0: the session's --threads)
  bool library = false;  ///< OpenBLAS, cuBLAS: what "% library" divides by
  std::function<std::unique_ptr<RoutineKernel>(const Case&, Session&)> make;
  /// The work table of a variant whose algorithm does other FLOPs than the routine's (a separable
  /// convolution: 4k per pixel, not 2k²); empty: routine_work. Its rows say so ("flops_as_done").
  std::function<Work(const Case&, int calls)> work;
  /// Why it cannot run this case here, or nullopt (may be empty). Throws UsageError when the
  /// operands do not fit the device.
  std::function<std::optional<std::string>(const Case&, Session&)> limitation;
};

using RoutineRegistry = gpgpu::Registry<RoutineVariant>;
using RoutineRegistration = gpgpu::Registration<RoutineVariant>;

}  // namespace gpgpu::blas
