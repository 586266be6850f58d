/// @file variant.hpp
/// @brief A variant of any chapter: what it says about itself, the backend it runs on, and how to
/// build it; the list a chapter's main() fills in run order.
///
/// Every problem's variant is a gpgpu::Variant with the problem's own fields added (a Jacobi
/// variant names its row of the work table, a multiply variant whether it rounds to TF32). A
/// chapter's main() adds its variants one list per backend, in the order they run:
/// @code
///   chapter.add(ch10::cpu_variants());
///   chapter.add(ch10::cuda_variants());    // a gpgpu::NotBuilt note instead when CUDA was not built
/// @endcode
#pragma once
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpgpu/backend.hpp"

namespace gpgpu {

/// What every variant says about itself, whatever its problem.
struct VariantInfo {
  std::string name{};         ///< --variant name: "simple", "cuda_tile16", "transpose_padded"
  Backend backend = Backend::cpu;
  std::string description{};  ///< one line for tables
  std::string source{};       ///< the file that holds its kernel or loop: "kernels/jacobi/cuda/03_simple.cu"
  std::string paper_name{};   ///< the paper's name for it ("CUDA Simple"), or "" past the paper
  std::string timer{};        ///< how it times itself: "CUDA events", "steady_clock", "OpenCL profiling events"
  int threads = 0;          ///< CPU variants: the threads it runs on (0: the session's --threads)
  bool in_all = true;       ///< false: runs only when named (a variant kept to show how it fails)
};

/// A variant of a problem whose sizes are `Size` (a grid, a shape and element type), whose
/// variants are built from `Inputs` (the assembled system, or the size itself) into a `Runner`
/// (the host object that owns the device's copies, launches and times: a Jacobi Solver, a matrix
/// Operation). A problem adds its own fields by deriving from it.
template <class SizeT, class InputsT, class RunnerT>
struct Variant {
  using Size = SizeT;
  using Inputs = InputsT;
  using Runner = RunnerT;

  VariantInfo info;
  OpenerFactory opener = nullptr;  ///< its backend: gpgpu::cpu_opener, gpgpu::cuda::opener, ...
  /// Builds the runner: allocates and uploads what it needs (untimed).
  std::function<std::unique_ptr<Runner>(const Inputs&, Session&)> make;
  /// Throws UsageError when `size` does not fit the device (its memory, its largest buffer):
  /// called before the reference is computed, so such a run ends at once (exit 2). May be empty.
  std::function<void(const Size&, Session&)> check_fits;
  /// Why this device cannot run it at this size (no image support, a library without this type),
  /// or nullopt. A variant the user named is then a usage error; one that came with "all" is
  /// skipped with the reason. May be empty.
  std::function<std::optional<std::string>(const Size&, Session&)> limitation;
};

/// Variants this executable was built without, and why: what a chapter's `cuda_variants()` returns
/// when CMake found no CUDA, or `cublas_variants()` when the toolkit has no cuBLAS (the chapter's
/// header says so where it declares the list). The run prints the reason; a note closes its
/// backend only when no variant of that backend was added, so the backend's other variants run.
struct NotBuilt {
  Backend backend;
  std::string reason;
  /// The variants missing ("cuBLAS"), when the backend itself was built; empty: the whole backend.
  std::string what{};
};

/// The variants of a chapter in run order.
template <class V>
class Registry {
 public:
  /// Adds a variant; a second variant of the same name is a programming error.
  void add(V v) {
    if (contains(v.info.name)) throw std::logic_error("variant '" + v.info.name + "' added twice");
    variants_.push_back(std::move(v));
  }
  [[nodiscard]] const std::vector<V>& all() const { return variants_; }
  [[nodiscard]] bool contains(std::string_view name) const {
    return std::any_of(variants_.begin(), variants_.end(), [&](const V& v) { return v.info.name == name; });
  }
  [[nodiscard]] const V& at(std::string_view name) const {
    for (const V& v : variants_)
      if (v.info.name == name) return v;
    throw std::out_of_range("no variant '" + std::string(name) + "'");
  }
  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const V& v : variants_) n.push_back(v.info.name);
    return n;
  }
  /// The names "all" selects.
  [[nodiscard]] std::vector<std::string> names_in_all() const {
    std::vector<std::string> n;
    for (const V& v : variants_)
      if (v.info.in_all) n.push_back(v.info.name);
    return n;
  }

 private:
  std::vector<V> variants_;
};

}  // namespace gpgpu
