#include "gpgpu/jacobi/work.hpp"

#include <stdexcept>
#include <string>

namespace gpgpu::jacobi {

const KernelWork& kernel_work(std::string_view kernel) {
  for (const KernelWork& w : kWorkTable)
    if (w.kernel == kernel) return w;
  throw std::out_of_range("no work counts for Jacobi kernel '" + std::string(kernel) + "'");
}

Work work(std::string_view kernel, const Grid& grid, int iters) {
  const KernelWork& k = kernel_work(kernel);
  const double updates = static_cast<double>(grid.nodes()) * iters;
  Work w;
  w.kernel = std::string(k.kernel);
  w.flops = k.flops * updates;
  w.bytes_min = k.bytes_min() * updates;
  w.bytes_all = k.bytes_all * updates;
  w.items = updates;
  w.item = "node updates";
  w.steps = iters;
  w.step = "iter";
  w.reads = k.reads;
  w.writes = k.writes;
  return w;
}

StreamMix stream_mix(std::string_view kernel, const Grid& grid, int threads) {
  const KernelWork& k = kernel_work(kernel);
  StreamMix mix;
  mix.reads = k.reads;
  mix.writes = k.writes;
  mix.elements = static_cast<std::size_t>(grid.nodes());
  mix.threads = threads;
  return mix;
}

}  // namespace gpgpu::jacobi
