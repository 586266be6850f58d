#include "gpgpu/matrix/matrix.hpp"

#include <cstring>
#include <stdexcept>

#include "gpgpu/errors.hpp"
#include "gpgpu/harness/random.hpp"

namespace gpgpu::matrix {

std::string_view type_name(ElementType t) {
  switch (t) {
    case ElementType::f32: return "float";
    case ElementType::f64: return "double";
    case ElementType::i32: return "int";
  }
  return "unknown";
}

int type_bytes(ElementType t) { return t == ElementType::f64 ? 8 : 4; }

ElementType parse_type(std::string_view name) {
  for (ElementType t : {ElementType::f32, ElementType::f64, ElementType::i32})
    if (type_name(t) == name) return t;
  throw UsageError("unknown element type '" + std::string(name) + "' (expected float, double or int)");
}

HostMatrix::HostMatrix(Shape shape, Values values) : shape_(shape), values_(std::move(values)) {
  const std::size_t n = std::visit([](const auto& v) { return v.size(); }, values_);
  if (static_cast<std::int64_t>(n) != shape_.elements())
    throw std::invalid_argument("HostMatrix: " + std::to_string(n) + " values for a " + shape_.str() + " matrix");
}

HostMatrix HostMatrix::zeros(Shape shape, ElementType type) {
  const auto n = static_cast<std::size_t>(shape.elements());
  return dispatch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return HostMatrix(shape, std::vector<T>(n, T(0)));
  });
}

ElementType HostMatrix::type() const {
  switch (values_.index()) {
    case 0: return ElementType::f32;
    case 1: return ElementType::f64;
    default: return ElementType::i32;
  }
}

const void* HostMatrix::data() const {
  return std::visit([](const auto& v) { return static_cast<const void*>(v.data()); }, values_);
}
void* HostMatrix::data() {
  return std::visit([](auto& v) { return static_cast<void*>(v.data()); }, values_);
}

HostMatrix random_matrix(Shape shape, ElementType type, unsigned seed) {
  return dispatch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>)
      return HostMatrix(shape, harness::random_values<T>(shape.elements(), seed, -(1 << 20), 1 << 20));
    else
      return HostMatrix(shape, harness::random_values<T>(shape.elements(), seed, T(-100), T(100)));
  });
}

int poison_byte(ElementType t) { return t == ElementType::i32 ? 0x7F : 0xFF; }

HostMatrix poisoned(Shape shape, ElementType type) {
  HostMatrix m = HostMatrix::zeros(shape, type);
  std::memset(m.data(), poison_byte(type), m.bytes());
  return m;
}

HostMatrix add_reference(const HostMatrix& a, const HostMatrix& b) {
  if (a.shape() != b.shape() || a.type() != b.type()) throw std::invalid_argument("add_reference: operands differ");
  return dispatch(a.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const std::span<const T> x = a.as<T>(), y = b.as<T>();
    std::vector<T> c(x.size());
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = x[i] + y[i];
    return HostMatrix(a.shape(), std::move(c));
  });
}

HostMatrix transpose_reference(const HostMatrix& a) {
  const Shape s = a.shape();
  return dispatch(a.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const std::span<const T> x = a.as<T>();
    std::vector<T> t(x.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t r = 0; r < s.rows; ++r)
      for (std::int64_t c = 0; c < s.cols; ++c)
        t[static_cast<std::size_t>(c * s.rows + r)] = x[static_cast<std::size_t>(r * s.cols + c)];
    return HostMatrix(s.transposed(), std::move(t));
  });
}

Verification compare(const HostMatrix& got, const HostMatrix& ref) {
  if (got.shape() != ref.shape() || got.type() != ref.type())
    throw std::invalid_argument("compare: a " + got.shape().str() + " " + std::string(type_name(got.type())) +
                                " matrix against a " + ref.shape().str() + " " + std::string(type_name(ref.type())));
  return dispatch(got.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return compare_exact(got.as<T>(), ref.as<T>());
  });
}

void write_npy(DumpFolder& dump, const std::string& name, const HostMatrix& m) {
  const std::vector<std::size_t> shape{static_cast<std::size_t>(m.shape().rows), static_cast<std::size_t>(m.shape().cols)};
  std::visit([&](const auto& v) { dump.write(name, std::span(v), shape); }, m.values());
}

}  // namespace gpgpu::matrix
