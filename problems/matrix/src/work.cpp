#include "gpgpu/matrix/work.hpp"

#include <string>

namespace gpgpu::matrix {
namespace {

struct OpWork {
  Op op;
  int reads, writes;
  double flops_per_element;  // for floating-point types
};
constexpr OpWork kTable[] = {{Op::add, 2, 1, 1}, {Op::transpose, 1, 1, 0}, {Op::copy, 1, 1, 0}};

const OpWork& row(Op op) {
  for (const OpWork& r : kTable)
    if (r.op == op) return r;
  return kTable[0];
}

}  // namespace

std::string_view op_name(Op op) {
  switch (op) {
    case Op::add: return "add";
    case Op::transpose: return "transpose";
    case Op::copy: return "copy";
  }
  return "unknown";
}

Work work(Op op, const Shape& shape, ElementType type, int calls) {
  const OpWork& r = row(op);
  const double elements = static_cast<double>(shape.elements()) * calls;
  const double bytes = elements * type_bytes(type) * (r.reads + r.writes);
  Work w;
  w.kernel = std::string(op_name(op)) + "_" + std::string(type_name(type));
  w.flops = type == ElementType::i32 ? 0.0 : r.flops_per_element * elements;
  w.bytes_min = bytes;
  w.bytes_all = bytes;
  w.items = elements;
  w.item = "elements";
  w.steps = calls;
  w.step = "call";
  w.reads = r.reads;
  w.writes = r.writes;
  return w;
}

StreamMix stream_mix(Op op, const Shape& shape, ElementType type, int threads) {
  const OpWork& r = row(op);
  return {r.reads, r.writes, static_cast<std::size_t>(shape.elements()), type_bytes(type), threads, {}};
}

}  // namespace gpgpu::matrix
