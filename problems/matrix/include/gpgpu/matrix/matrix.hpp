/// @file matrix.hpp
/// @brief Dense row-major matrices of float, double or int on the host: the inputs every matrix
/// chapter generates, the CPU references it checks against, and their .npy form.
///
/// The element type is chosen at run time (--type), so a matrix holds one of three vectors; device
/// code is templated on the type and picks its instantiation from matrix.type().
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "gpgpu/dump.hpp"
#include "gpgpu/verify.hpp"

namespace gpgpu::matrix {

enum class ElementType { f32, f64, i32 };

/// "float", "double", "int" (the --type names, as in paper 003's tables).
std::string_view type_name(ElementType t);
/// Bytes of one element.
int type_bytes(ElementType t);
/// The type named `name`; throws UsageError for anything else.
ElementType parse_type(std::string_view name);

/// rows x cols, row-major: element (r, c) is at r * cols + c.
struct Shape {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  [[nodiscard]] std::int64_t elements() const { return rows * cols; }
  [[nodiscard]] Shape transposed() const { return {cols, rows}; }
  [[nodiscard]] std::string str() const { return std::to_string(rows) + "x" + std::to_string(cols); }
  friend bool operator==(const Shape&, const Shape&) = default;
};

/// A host matrix of one element type.
class HostMatrix {
 public:
  using Values = std::variant<std::vector<float>, std::vector<double>, std::vector<std::int32_t>>;
  HostMatrix() = default;
  HostMatrix(Shape shape, Values values);
  /// A matrix of `shape` and `type`, every element zero.
  static HostMatrix zeros(Shape shape, ElementType type);

  [[nodiscard]] const Shape& shape() const { return shape_; }
  [[nodiscard]] ElementType type() const;
  [[nodiscard]] std::size_t bytes() const { return static_cast<std::size_t>(shape_.elements()) * type_bytes(type()); }
  [[nodiscard]] const void* data() const;
  [[nodiscard]] void* data();
  /// The values as T (which must be the matrix's type).
  template <typename T>
  [[nodiscard]] std::span<const T> as() const {
    return std::get<std::vector<T>>(values_);
  }
  template <typename T>
  [[nodiscard]] std::span<T> as() {
    return std::get<std::vector<T>>(values_);
  }
  [[nodiscard]] const Values& values() const { return values_; }

 private:
  Shape shape_;
  Values values_;
};

/// Random values of both signs from a fixed seed: floats uniform in [-100, 100), ints in
/// [-2^20, 2^20] (an add of two cannot overflow; every value is exact in float and double too).
HostMatrix random_matrix(Shape shape, ElementType type, unsigned seed);

/// The byte every output is filled with before a kernel runs (the Kernel contract), so that an
/// element the kernel fails to write cannot pass: 0xFF makes float and double NaN, which no
/// comparison accepts; an int becomes 0x7F7F7F7F (2139062143), far outside every value an add of
/// two operands in [-2^20, 2^20] can give.
int poison_byte(ElementType t);
/// A matrix of `shape` and `type` with every byte poison_byte(type): what a CPU kernel's output
/// starts as.
HostMatrix poisoned(Shape shape, ElementType type);

/// C = A + B on the CPU, element by element (the same IEEE operation a GPU performs: exact).
HostMatrix add_reference(const HostMatrix& a, const HostMatrix& b);
/// Aᵀ on the CPU.
HostMatrix transpose_reference(const HostMatrix& a);

/// Bitwise comparison (a copy, an add and a transpose have no rounding to excuse). Shapes and types
/// that differ are a programming error (std::invalid_argument).
Verification compare(const HostMatrix& got, const HostMatrix& ref);

/// Writes the matrix into the --dump folder as the NumPy .npy file `name`, of shape (rows, cols).
void write_npy(DumpFolder& dump, const std::string& name, const HostMatrix& m);

/// Calls f(std::type_identity<T>{}) with T the C++ type of `t` (float, double, std::int32_t): the
/// one place a run-time element type becomes a template argument.
template <typename F>
decltype(auto) dispatch(ElementType t, F&& f) {
  switch (t) {
    case ElementType::f32: return f(std::type_identity<float>{});
    case ElementType::f64: return f(std::type_identity<double>{});
    case ElementType::i32: break;
  }
  return f(std::type_identity<std::int32_t>{});
}

}  // namespace gpgpu::matrix
