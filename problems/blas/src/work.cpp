#include "gpgpu/blas/work.hpp"

#include <string>

namespace gpgpu::blas {

Work gemm_work(const Dims& d, ElementType type, int calls) {
  const double m = static_cast<double>(d.m), n = static_cast<double>(d.n), k = static_cast<double>(d.k);
  Work w;
  w.kernel = "gemm_" + std::string(matrix::type_name(type));
  w.flops = 2 * m * n * k * calls;
  w.bytes_min = (m * k + k * n + m * n) * matrix::type_bytes(type) * calls;
  w.bytes_all = w.bytes_min;  // what the caches serve differs per kernel; the table counts the minimum
  w.items = m * n * calls;
  w.item = "elements";
  w.steps = calls;
  w.step = "call";
  w.reads = 2;
  w.writes = 1;
  return w;
}

}  // namespace gpgpu::blas
