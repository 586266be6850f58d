/// @file registry.hpp
/// @brief The named variants of a chapter, from every backend, in one list.
///
/// A problem library defines what a variant of its problem is (a Spec: the VariantInfo below, the
/// driver of its backend, and whatever builds and runs it) and the chapter adds its variants in
/// order. A chapter whose variants come from several backends puts each backend's variants in a
/// file of their own that CMake compiles only when that backend is built, and registers them there
/// with a static Registration object (as Google Benchmark's BENCHMARK() does), so main() holds no
/// `#ifdef`; a backend that was not built leaves a NotBuilt note instead (CMake writes it), and the
/// run says why its variants are missing.
#pragma once
#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpgpu/backend.hpp"

namespace gpgpu {

/// What every variant says about itself, whatever its problem.
struct VariantInfo {
  std::string name;         ///< --variant name: "simple", "cuda_simple", "transpose_padded"
  Backend backend = Backend::cpu;
  std::string description;  ///< one line for tables
  std::string source;       ///< the file that holds its kernel or loop: "kernels/jacobi/cuda/03_simple.cu"
  std::string paper_name;   ///< the paper's name for it ("CUDA Simple"), or "" past the paper
  bool in_all = true;       ///< false: runs only when named (a variant kept to show how it fails)
};

/// The variants of a chapter in run order. Spec must have members `VariantInfo info` and
/// `DriverFactory driver`.
template <class Spec>
class Registry {
 public:
  /// Adds a variant; a second variant of the same name is a programming error.
  void add(Spec spec) {
    if (contains(spec.info.name)) throw std::logic_error("variant '" + spec.info.name + "' registered twice");
    specs_.push_back(std::move(spec));
  }
  /// Adds every variant of `other` after this one's (the statically registered ones, say).
  void append(const Registry& other) {
    for (const Spec& s : other.all()) add(s);
  }
  [[nodiscard]] const std::vector<Spec>& all() const { return specs_; }
  [[nodiscard]] bool contains(std::string_view name) const {
    return std::any_of(specs_.begin(), specs_.end(), [&](const Spec& s) { return s.info.name == name; });
  }
  [[nodiscard]] const Spec& at(std::string_view name) const {
    for (const Spec& s : specs_)
      if (s.info.name == name) return s;
    throw std::out_of_range("no variant '" + std::string(name) + "'");
  }
  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const Spec& s : specs_) n.push_back(s.info.name);
    return n;
  }
  /// The names "all" selects.
  [[nodiscard]] std::vector<std::string> names_in_all() const {
    std::vector<std::string> n;
    for (const Spec& s : specs_)
      if (s.info.in_all) n.push_back(s.info.name);
    return n;
  }

 private:
  std::vector<Spec> specs_;
};

/// The variants registered before main() by static Registration objects, per Spec type.
template <class Spec>
Registry<Spec>& static_registry() {
  static Registry<Spec> registry;
  return registry;
}

/// Registers one variant at static initialisation: `const gpgpu::Registration<Spec> r{spec};`.
template <class Spec>
struct Registration {
  explicit Registration(Spec spec) { static_registry<Spec>().add(std::move(spec)); }
};

/// A backend this executable was built without, and why (written by CMake into every chapter
/// that names the backend, see gpgpu_add_chapter).
struct NotBuilt {
  Backend backend;
  std::string reason;
};
/// The backends the executable lacks, in the order CMake listed them.
std::vector<NotBuilt>& not_built_backends();
/// Registers a NotBuilt note at static initialisation.
struct NotBuiltRegistration {
  NotBuiltRegistration(Backend b, const char* reason) { not_built_backends().push_back({b, reason}); }
};

}  // namespace gpgpu
