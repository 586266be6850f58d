#include "gpgpu/tlm/work.hpp"

#include <stdexcept>
#include <string>

namespace gpgpu::tlm {

const KernelWork& kernel_work(std::string_view kernel) {
  for (const KernelWork& w : kWorkTable)
    if (w.kernel == kernel) return w;
  throw std::out_of_range("no work counts for TLM kernel '" + std::string(kernel) + "'");
}

Work work(std::string_view kernel, const Mesh& mesh, int steps) {
  const KernelWork& k = kernel_work(kernel);
  const double updates = static_cast<double>(mesh.nodes()) * steps;
  Work w;
  w.kernel = std::string(k.kernel);
  w.flops = k.flops * updates;
  w.bytes_min = k.bytes_min() * updates;
  w.bytes_all = w.bytes_min;  // every pulse is read and written exactly once per pass: no access repeats
  w.items = updates;
  w.item = "node updates";
  w.steps = steps;
  w.step = "step";
  w.reads = kArraysRead;
  w.writes = kArraysWritten;
  return w;
}

StreamMix stream_mix(std::string_view kernel, const Mesh& mesh, int threads) {
  const KernelWork& k = kernel_work(kernel);
  StreamMix mix;
  mix.reads = kArraysRead;
  mix.writes = kArraysWritten;
  mix.elements = static_cast<std::size_t>(mesh.nodes());
  mix.element_bytes = k.element_bytes;
  mix.threads = threads;
  return mix;
}

}  // namespace gpgpu::tlm
