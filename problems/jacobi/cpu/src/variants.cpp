// Chapter 01's variants: each storage layout on one thread, as the paper ran it, and on every core
// with OpenMP, once per --threads count.
#include <memory>
#include <string>
#include <vector>

#include "gpgpu/cpu_backend.hpp"
#include "gpgpu/jacobi/cpu/solvers.hpp"

namespace gpgpu::jacobi::cpu {
namespace {

template <typename S>
std::unique_ptr<Solver> make_solver(const LinearSystem& sys, int threads) {
  return std::make_unique<S>(sys, threads);
}

}  // namespace

const Layout kSeparateDiagonals{"nine separate diagonal arrays (paper Fig. 2)",
                                "problems/jacobi/cpu/src/separate_diagonals.cpp", make_solver<SeparateDiagonalsSolver>};
const Layout kInterleavedRows{"interleaved rows (paper Fig. 4)", "problems/jacobi/cpu/src/interleaved_rows.cpp",
                              make_solver<InterleavedRowsSolver>};

Variant cpu_variant(std::string name, const Layout& layout, int threads) {
  Variant v;
  v.info = {std::move(name), Backend::cpu, std::string(layout.description) + (threads == 1 ? ", one thread" : ", OpenMP"),
            layout.source, "CPU", "steady_clock", threads};
  v.opener = cpu_opener;
  v.make = [&layout, threads](const LinearSystem& sys, Session& session) {
    return layout.make(sys, threads > 0 ? threads : cpu_threads(session));
  };
  return v;
}

std::vector<Variant> runs_per_count(const std::vector<const Variant*>& chosen, const Session& cpu) {
  std::vector<Variant> runs;
  for (const Variant* v : chosen) {
    if (v->info.threads > 0) {
      runs.push_back(*v);
      continue;
    }
    const Layout& layout = v->info.source == kSeparateDiagonals.source ? kSeparateDiagonals : kInterleavedRows;
    const std::vector<int> counts = cpu_thread_counts(cpu);
    for (int threads : counts)
      runs.push_back(cpu_variant(counts.size() > 1 ? v->info.name + "_t" + std::to_string(threads) : v->info.name,
                                 layout, threads));
  }
  return runs;
}

}  // namespace gpgpu::jacobi::cpu
